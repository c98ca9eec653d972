/**
 * The solver's files as `gocount verify` checks them, registered with verify's list of file checks
 * (lib/verify/file-checks.ts): a database, a no-cycle solve's checkpoint and its table of earlier
 * results, tried in that order.
 */

import { startsAsFramedFile } from '../../format/framed-file.js';
import { registerFileCheck } from '../../verify/file-checks.js';
import { checkSolveDb } from './db-check.js';
import { CHECKPOINT_FORMAT, checkCheckpoint } from './search-checkpoint.js';
import { SOLVE_DB_FORMAT } from './solve-db.js';
import { checkTableFile, TABLE_FORMAT } from './table-file.js';

export function registerSolveFileChecks(): void {
  registerFileCheck({ kind: 'database', starts: (file) => startsAsFramedFile(file, SOLVE_DB_FORMAT), check: checkSolveDb });
  registerFileCheck({ kind: 'checkpoint', starts: (file) => startsAsFramedFile(file, CHECKPOINT_FORMAT), check: checkCheckpoint });
  registerFileCheck({ kind: 'table', starts: (file) => startsAsFramedFile(file, TABLE_FORMAT), check: checkTableFile });
}
