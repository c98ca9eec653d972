/**
 * Keeps the per-step log of a count (format/step-log.ts): a line in the pass's count folder as each
 * step ends and a result line as the pass ends, and, when asked, the whole log of every pass copied
 * to a file of the user's that outlives the count folders. Both are side files: a write that fails
 * once the count has begun is a warning, and the count goes on to its number.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { InvalidOptionError, systemProblem } from '../shared/errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import { pathProblem } from '../format/make-folder.js';
import {
  appendStepLog,
  formatStepLog,
  PASS_RESULT_FORMAT,
  PASS_RESULT_VERSION,
  parsePassResults,
  PassResultLine,
  STEP_LOG_FILE,
  StepLogEntry,
  stepLogEntries,
} from '../format/step-log.js';
import type { StepReport } from './progress.js';
import type { ScratchFolder } from '../folder/scratch.js';

export class StepLogger {
  /** The files whose failed write was warned of: one warning a file. */
  private readonly warned = new Set<string>();

  /**
   * @param folders the count folder of each pass
   * @param copyTo the --stats-json file, rewritten whole after every step
   * @param warn hears the one line about a side file that could not be written
   */
  constructor(
    private readonly folders: readonly ScratchFolder[],
    private readonly copyTo: string | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /**
   * The copy's first write, before any work: a file that cannot be written at all is refused (a
   * count may take hours), while a full disk only costs the copy. A resumed count's earlier steps
   * are in it from the start.
   */
  start(): void {
    if (this.copyTo === undefined) return;
    try {
      writeFileAtomically(this.copyTo, this.wholeLog());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOSPC' && code !== 'EDQUOT')
        throw new InvalidOptionError('statsJson', this.copyTo, `cannot be written: ${pathProblem(code)}`);
      this.warnOnce(this.copyTo, error);
    }
  }

  stepEnded(report: StepReport): void {
    const { probes: _probes, ...entry } = report;
    this.append(this.folders[report.pass - 1], entry);
  }

  /**
   * A pass finished in this run: `residues` are the whole board's count modulo its moduli. A pass
   * whose result is in its log already (its last step run again after a crash) is not logged again.
   */
  passDone(pass: number, residues: number[]): void {
    const folder = this.folders[pass];
    const { width, columns, moduli } = folder.identity;
    if (parsePassResults(logText(folder)).some((result) => result.pass === pass + 1)) return;
    const line: PassResultLine = {
      format: PASS_RESULT_FORMAT,
      version: PASS_RESULT_VERSION,
      width,
      columns,
      pass: pass + 1,
      passes: this.folders.length,
      moduli: [...moduli],
      residues,
    };
    this.append(folder, line);
  }

  /** Every pass's log so far, in order; a pass whose folder holds no log yet adds nothing. */
  entries(): StepLogEntry[] {
    return this.folders.flatMap((folder) => stepLogEntries(logText(folder)));
  }

  /** Rewrites the --stats-json file, if one was asked for, from the logs in the count folders. */
  copy(): void {
    const file = this.copyTo;
    if (file !== undefined) this.sideWrite(file, () => writeFileAtomically(file, this.wholeLog()));
  }

  /** A line for a pass's log in its folder, then the copy rewritten. */
  private append(folder: ScratchFolder, line: StepLogEntry | PassResultLine): void {
    const file = path.join(folder.root, STEP_LOG_FILE);
    this.sideWrite(file, () => appendStepLog(file, line));
    this.copy();
  }

  /** Every pass's steps, then their results. */
  private wholeLog(): string {
    const texts = this.folders.map(logText);
    return formatStepLog([...texts.flatMap(stepLogEntries), ...texts.flatMap(parsePassResults)]);
  }

  /** A write that may fail without stopping the count; a later one is tried all the same, and may mend it. */
  private sideWrite(file: string, write: () => void): void {
    try {
      write();
    } catch (error) {
      this.warnOnce(file, error);
    }
  }

  private warnOnce(file: string, error: unknown): void {
    if (this.warned.has(file)) return;
    this.warned.add(file);
    this.warn(`cannot write the step log ${file}: ${systemProblem(error)}; the count goes on without it`);
  }
}

/** The text of a pass's log; empty while its folder holds none. */
function logText(folder: ScratchFolder): string {
  const file = path.join(folder.root, STEP_LOG_FILE);
  return fse.pathExistsSync(file) ? fse.readFileSync(file, 'utf8') : '';
}
