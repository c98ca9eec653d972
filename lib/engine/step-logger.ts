/**
 * Keeps the per-step log of a count (format/step-log.ts): a line in the pass's count folder as each
 * step ends and a result line as the pass ends, and, when asked, the whole log of every pass copied
 * to a file of the user's that outlives the count folders.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { InvalidOptionError } from '../errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import { pathProblem } from '../format/make-folder.js';
import {
  appendStepLog,
  formatStepLog,
  PASS_RESULT_FORMAT,
  PASS_RESULT_VERSION,
  parsePassResults,
  PassResultLine,
  parseStepLog,
  STEP_LOG_FILE,
  StepLogEntry,
  stepLogEntry,
} from '../format/step-log.js';
import type { StepReport } from './progress.js';
import { diskError, type ScratchFolder } from './scratch.js';

export class StepLogger {
  /**
   * @param folders the count folder of each pass
   * @param workers the threads that share the states (a partitioned count's tasks' in all)
   * @param copyTo the --stats-json file, rewritten whole after every step
   */
  constructor(
    private readonly folders: readonly ScratchFolder[],
    private readonly workers: number,
    private readonly copyTo?: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  stepEnded(report: StepReport): void {
    const folder = this.folders[report.pass];
    const { width, columns } = folder.identity;
    appendStepLog(
      path.join(folder.root, STEP_LOG_FILE),
      stepLogEntry(report, { width, columns, passes: this.folders.length, workers: this.workers }, this.clock()),
    );
    this.copy();
  }

  /**
   * A finished pass: `residues` are the whole board's count modulo its moduli. A pass that was
   * finished before, and so logged its result then, is not logged again.
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
    appendStepLog(path.join(folder.root, STEP_LOG_FILE), line);
    this.copy();
  }

  /** Every pass's log so far, in order; a pass whose folder holds no log yet adds nothing. */
  entries(): StepLogEntry[] {
    return this.folders.flatMap((folder) => parseStepLog(logText(folder)));
  }

  /** Rewrites the --stats-json file, if one was asked for, from the logs in the count folders. */
  copy(): void {
    if (this.copyTo === undefined) return;
    try {
      const texts = this.folders.map(logText);
      writeFileAtomically(this.copyTo, formatStepLog([...texts.flatMap(parseStepLog), ...texts.flatMap(parsePassResults)]));
    } catch (error) {
      // A full disk is a failed run, which resumes; any other refusal says the file cannot be used.
      const full = diskError(error, this.copyTo);
      if (full !== error) throw full;
      throw new InvalidOptionError('statsJson', this.copyTo, `cannot be written: ${pathProblem((error as NodeJS.ErrnoException).code)}`);
    }
  }
}

/** The text of a pass's log; empty while its folder holds none. */
function logText(folder: ScratchFolder): string {
  const file = path.join(folder.root, STEP_LOG_FILE);
  return fse.pathExistsSync(file) ? fse.readFileSync(file, 'utf8') : '';
}
