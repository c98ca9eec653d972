/**
 * The solve database file (`gocount solve --db FILE`): a header line of JSON (format, version,
 * board, rule, scoring, symmetries folded, positions, states, the empty board's value), then one
 * signed byte per state, the state's value in state order (lib/solve/state-space.ts), then the
 * CRC-32 of everything before it, 4 bytes little-endian. Written under a temporary name and renamed, so a file with this name
 * is whole. `checkSolveDb` checks it offline: the CRC, the header against the board's state space,
 * and the values against the moves (lib/solve/retrograde.ts for where that applies).
 */

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { GocountError, isSystemError, systemExitCode, systemProblem, UsageError } from '../errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import type { Problem } from '../verify/problems.js';
import { MoveGraph } from './move-graph.js';
import { bestOfChildren, positionComponents } from './retrograde.js';
import { SCORINGS, Scoring, SolveBoard } from './solve-board.js';
import { foldedSymmetry, type SolvedBoard } from './solve.js';
import { CYCLE_RULES, CycleRule, PLAIN, StateSpace } from './state-space.js';

export const SOLVE_DB_FORMAT = 'gocount-solve';
/**
 * Version 2 added the scoring (a version-1 file was scored Tromp–Taylor), version 3 the
 * symmetries folded (earlier files folded none).
 */
export const SOLVE_DB_VERSION = 3;
/** How every database starts: the header's first bytes. */
export const SOLVE_DB_MAGIC = `{"format":"${SOLVE_DB_FORMAT}"`;

export interface SolveDbHeader {
  readonly format: typeof SOLVE_DB_FORMAT;
  readonly version: number;
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  readonly scoring: Scoring;
  /** 1: every legal position kept; else the board's symmetries, one position kept per orbit. */
  readonly symmetries: number;
  readonly positions: number;
  readonly states: number;
  readonly value: number;
}

export function writeSolveDb(file: string, solved: SolvedBoard): void {
  if (solved.emptyBoardOnly)
    throw new UsageError(`${file}: only the empty board was valued (emptyBoardOnly), not every state: no database to write`);
  const { space, values } = solved;
  const { m, n } = space.board;
  const header: SolveDbHeader = {
    format: SOLVE_DB_FORMAT,
    version: SOLVE_DB_VERSION,
    m,
    n,
    rule: space.rule,
    scoring: space.board.scoring,
    symmetries: space.symmetry?.count ?? 1,
    positions: space.positions,
    states: space.states,
    value: values[space.stateOf(0, PLAIN)],
  };
  const head = Buffer.from(`${JSON.stringify(header)}\n`);
  const body = Buffer.from(values.buffer, values.byteOffset, values.length);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(crc32(body, crc32(head)));
  try {
    writeFileAtomically(file, Buffer.concat([head, body, trailer]));
  } catch (error) {
    const message = `${file}: cannot write the database: ${systemProblem(error)}`;
    throw new GocountError(message, isSystemError(error) ? systemExitCode(error) : 1);
  }
}

/** Whether a file starts as a solve database does (or is one cut short). */
export function isSolveDb(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const start = Buffer.alloc(SOLVE_DB_MAGIC.length);
    const read = readSync(fd, start, 0, start.length, 0);
    // A database cut inside its magic is still one (a damaged one): at least '{"format":"g'.
    return read >= '{"format":"g'.length && start.subarray(0, read).toString() === SOLVE_DB_MAGIC.slice(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Reads a database whole: its header and values, or the one thing wrong with it. */
export function readSolveDb(file: string): { header: SolveDbHeader; values: Int8Array } | string {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return code === 'ENOENT' ? 'no such file' : `cannot be read (${message})`;
  }
  const newline = data.indexOf(10);
  const start = data.subarray(0, SOLVE_DB_MAGIC.length).toString('latin1');
  if (newline < 0 && start.length > 0 && start === SOLVE_DB_MAGIC.slice(0, start.length))
    return `cut short in its header (${data.length} bytes)`;
  if (newline < 0 || start !== SOLVE_DB_MAGIC) return 'not a gocount solve database';
  let header: SolveDbHeader;
  try {
    header = JSON.parse(data.subarray(0, newline).toString()) as SolveDbHeader;
  } catch {
    return 'its header is not JSON';
  }
  if (header.version === 1) header = { ...header, scoring: 'tromp-taylor', symmetries: 1 };
  else if (header.version === 2) header = { ...header, symmetries: 1 };
  else if (header.version !== SOLVE_DB_VERSION) return `version ${header.version}; this gocount reads versions 1 to ${SOLVE_DB_VERSION}`;
  if (!CYCLE_RULES.includes(header.rule)) return `unknown rule ${header.rule}`;
  if (!SCORINGS.includes(header.scoring)) return `unknown scoring ${header.scoring}`;
  if (header.rule === 'no-cycle' && header.symmetries !== 1) return 'symmetries folded under rule no-cycle, which never folds';
  try {
    foldedSymmetry(header.m, header.n, header.symmetries);
  } catch (error) {
    return (error as Error).message;
  }
  const expected = newline + 1 + header.states + 4;
  if (data.length !== expected) return `${data.length} bytes where the header promises ${expected}`;
  const crc = data.readUInt32LE(data.length - 4);
  if (crc32(data.subarray(0, data.length - 4)) !== crc) return 'CRC-32 mismatch: the file is damaged';
  const values = new Int8Array(header.states);
  values.set(new Int8Array(data.buffer, data.byteOffset + newline + 1, header.states));
  return { header, values };
}

/** The most inconsistent states a check lists one by one. */
const LISTED = 10;

/**
 * Checks a database offline: readable and whole, its header matching the board's state space, and
 * the paper's consistency check: a state's value is achieved by one of its moves and exceeded by
 * none. Under cycle-draw that holds for every state; under no-cycle for the states of positions in
 * no cycle (the others' values depend on the history their moves leave behind).
 */
export function checkSolveDb(file: string): { states: number; problems: Problem[] } {
  const read = readSolveDb(file);
  if (typeof read === 'string') return { states: 0, problems: [{ file, problem: read }] };
  const { header, values } = read;
  const problems: Problem[] = [];
  const space = new StateSpace(
    new SolveBoard(header.m, header.n, header.scoring),
    header.rule,
    undefined,
    foldedSymmetry(header.m, header.n, header.symmetries),
  );
  if (space.states !== header.states || space.positions !== header.positions) {
    problems.push({
      file,
      problem: `the header gives ${header.positions} positions and ${header.states} states; ${header.m}x${header.n} has ${space.positions} and ${space.states}`,
    });
    return { states: header.states, problems };
  }
  const graph = new MoveGraph(space);
  const parts = header.rule === 'no-cycle' ? positionComponents(graph) : undefined;
  let inconsistent = 0;
  for (let s = 0; s < space.states; s++) {
    if (parts && parts.cyclic[parts.component[space.rankOf[s]]]) continue;
    const best = bestOfChildren(graph, values, s);
    if (best !== values[s] && inconsistent++ < LISTED) {
      problems.push({ file, record: s, problem: `value ${values[s]}, but its best move gives ${best}` });
    }
  }
  if (inconsistent > LISTED) problems.push({ file, problem: `${inconsistent} states in all are inconsistent with their moves` });
  if (values[space.stateOf(0, PLAIN)] !== header.value)
    problems.push({ file, problem: `the header's value ${header.value} is not the empty board's` });
  return { states: header.states, problems };
}
