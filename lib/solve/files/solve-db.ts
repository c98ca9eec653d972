/**
 * The solve database file (`gocount solve --db FILE`): a header line of JSON (format, version,
 * board, rule, scoring, symmetries folded, positions, states, the empty board's value), then one
 * signed byte per state, the state's value in state order (lib/solve/rules/state-space.ts), then the
 * CRC-32 of everything before it, 4 bytes little-endian (a framed file, lib/format/framed-file.ts).
 * Written under a temporary name and renamed, so a file with this name is whole. `checkSolveDb`
 * (lib/solve/files/db-check.ts) checks it offline.
 */

import { GocountError, isSystemError, systemExitCode, systemProblem, UsageError } from '../../shared/errors.js';
import { signedBytes, writeFramedFile } from '../../format/framed-file.js';
import { PLAIN, type StateSpace } from '../rules/state-space.js';
import { readSolveFile, solveHeader, type SolveFileHeader } from './solve-file.js';

export const SOLVE_DB_FORMAT = 'gocount-solve';
/**
 * Version 2 added the scoring (a version-1 file was scored Tromp–Taylor), version 3 the
 * symmetries folded (earlier files folded none).
 */
export const SOLVE_DB_VERSION = 3;

export interface SolveDbHeader extends SolveFileHeader {
  /** The empty board's value. */
  readonly value: number;
}

/** What a database is written from: a solved board (lib/solve/solve.ts's SolvedBoard). */
export interface DatabaseValues {
  readonly space: StateSpace;
  readonly values: Int8Array;
  /** no-cycle: only the empty board and the states its moves lead to were valued; no database. */
  readonly emptyBoardOnly: boolean;
}

export function writeSolveDb(file: string, solved: DatabaseValues): void {
  if (solved.emptyBoardOnly)
    throw new UsageError(`${file}: only the empty board was valued (emptyBoardOnly), not every state: no database to write`);
  const { space, values } = solved;
  const header: SolveDbHeader = { ...solveHeader(SOLVE_DB_FORMAT, SOLVE_DB_VERSION, space), value: values[space.stateOf(0, PLAIN)] };
  try {
    writeFramedFile(file, header, [values]);
  } catch (error) {
    const message = `${file}: cannot write the database: ${systemProblem(error)}`;
    throw new GocountError(message, isSystemError(error) ? systemExitCode(error) : 1);
  }
}

/** A database's header in the current version: version 1 was scored Tromp–Taylor, versions 1 and 2 folded no symmetry. */
function currentDbHeader(header: SolveDbHeader): SolveDbHeader | string {
  if (header.version === 1) return { ...header, scoring: 'tromp-taylor', symmetries: 1 };
  if (header.version === 2) return { ...header, symmetries: 1 };
  if (header.version !== SOLVE_DB_VERSION) return `version ${header.version}; this gocount reads versions 1 to ${SOLVE_DB_VERSION}`;
  return header;
}

/** Reads a database whole: its header and values, or the one thing wrong with it. */
export function readSolveDb(file: string): { header: SolveDbHeader; values: Int8Array } | string {
  const read = readSolveFile(file, SOLVE_DB_FORMAT, currentDbHeader, (header) => header.states);
  if (typeof read === 'string') return read === `not a ${SOLVE_DB_FORMAT} file` ? 'not a gocount solve database' : read;
  return { header: read.header, values: signedBytes(read.body, 0, read.header.states) };
}
