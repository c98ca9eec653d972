/**
 * Keeps the per-step log of a count (format/step-log.ts): a line in the pass's count folder as each
 * step ends, and, when asked, the whole log of every pass copied to a file of the user's that
 * outlives the count folders.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { InvalidOptionError } from '../errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import { pathProblem } from '../format/make-folder.js';
import { appendStepLog, formatStepLog, readStepLogEntries, STEP_LOG_FILE, StepLogEntry, stepLogEntry } from '../format/step-log.js';
import type { StepReport } from './progress.js';
import { diskError, type ScratchFolder } from './scratch.js';

export class StepLogger {
  /**
   * @param folders the count folder of each pass
   * @param copyTo the --stats-json file, rewritten whole after every step
   */
  constructor(
    private readonly folders: readonly ScratchFolder[],
    private readonly copyTo?: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  stepEnded(report: StepReport): void {
    const folder = this.folders[report.pass];
    const { width, columns } = folder.identity;
    appendStepLog(
      path.join(folder.root, STEP_LOG_FILE),
      stepLogEntry(report, { width, columns, passes: this.folders.length }, this.clock()),
    );
    this.copy();
  }

  /** Every pass's log so far, in order; a pass whose folder holds no log yet adds nothing. */
  entries(): StepLogEntry[] {
    return this.folders.flatMap((folder) => {
      const file = path.join(folder.root, STEP_LOG_FILE);
      return fse.pathExistsSync(file) ? readStepLogEntries(file) : [];
    });
  }

  /** Rewrites the --stats-json file, if one was asked for, from the logs in the count folders. */
  copy(): void {
    if (this.copyTo === undefined) return;
    try {
      writeFileAtomically(this.copyTo, formatStepLog(this.entries()));
    } catch (error) {
      // A full disk is a failed run, which resumes; any other refusal says the file cannot be used.
      const full = diskError(error, this.copyTo);
      if (full !== error) throw full;
      throw new InvalidOptionError('statsJson', this.copyTo, `cannot be written: ${pathProblem((error as NodeJS.ErrnoException).code)}`);
    }
  }
}
