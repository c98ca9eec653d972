/**
 * The solve database file (`gocount solve --db FILE`): a header line of JSON (format, version,
 * board, rule, scoring, symmetries folded, positions, states, the empty board's value), then one
 * signed byte per state, the state's value in state order (lib/solve/state-space.ts), then the
 * CRC-32 of everything before it, 4 bytes little-endian. Written under a temporary name and renamed, so a file with this name
 * is whole. `checkSolveDb` checks it offline: the CRC, the header against the board's state space,
 * and the values against the moves, generated state by state.
 */

import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { GocountError, isSystemError, systemExitCode, systemProblem, UsageError } from '../errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import type { Problem } from '../verify/problems.js';
import { forEachMoveOfRank, NO_ENDING } from './move-graph.js';
import { GeneratedMoves } from './search-moves.js';
import { positionComponents } from './retrograde.js';
import { SCORINGS, Scoring, SolveBoard } from './solve-board.js';
import { foldedSymmetry, type SolvedBoard } from './solve.js';
import { CYCLE_RULES, CycleRule, PLAIN, StateSpace } from './state-space.js';
import { BoardSymmetry } from './symmetry.js';

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
 * no cycle. A state of a position in a cycle is valued with no earlier history: none of its moves
 * is barred, but the values its moves into its own component lead to depend on the history they
 * leave behind. Its value is checked to be at least what the game's end (a pass after a pass) and
 * its moves out of the component give, and to be its symmetric images' (the games from a position
 * map onto the games from its image).
 */
export function checkSolveDb(
  file: string,
  progress: (done: number, total: number) => void = () => {},
): { states: number; problems: Problem[] } {
  const read = readSolveDb(file);
  if (typeof read === 'string') return { states: 0, problems: [{ file, problem: read }] };
  const { header, values } = read;
  const problems: Problem[] = [];
  const { m, n } = header;
  const space = new StateSpace(new SolveBoard(m, n, header.scoring), header.rule, undefined, foldedSymmetry(m, n, header.symmetries));
  if (space.states !== header.states || space.positions !== header.positions) {
    problems.push({
      file,
      problem: `the header gives ${header.positions} positions and ${header.states} states; ${m}x${n} has ${space.positions} and ${space.states}`,
    });
    return { states: header.states, problems };
  }
  // The moves are generated state by state, not kept, for the components too: memory holds the keys, the values and the components.
  const parts = header.rule === 'no-cycle' ? positionComponents(new GeneratedMoves(space, values)) : undefined;
  const symmetry = parts ? new BoardSymmetry(m, n) : undefined;
  let inconsistent = 0;
  const problem = (s: number, text: string) => {
    if (inconsistent++ < LISTED) problems.push({ file, record: s, problem: `value ${values[s]}, but ${text}` });
  };
  let best = 0;
  let own = -1;
  const visit = (_p: number, child: number) => {
    if (own < 0 || parts!.component[space.rankOf[child]] !== own) best = Math.max(best, -values[child]);
  };
  for (let r = 0; r < space.positions; r++) {
    if ((r & 0xffff) === 0) progress(space.base[r], space.states);
    own = parts && parts.cyclic[parts.component[r]] ? parts.component[r] : -1;
    const image = own >= 0 ? space.rank(symmetry!.canonical(space.keys[r])) : r;
    for (let s = space.base[r]; s < space.base[r + 1]; s++) {
      best = -128;
      const ending = forEachMoveOfRank(space, r, s - space.base[r], visit);
      if (ending !== NO_ENDING) best = Math.max(best, ending);
      if (own < 0 && best !== values[s]) problem(s, `its best move gives ${best}`);
      else if (own >= 0 && best > values[s]) problem(s, `the game's end or a move out of its cycle gives ${best}`);
      const twin = space.base[image] + s - space.base[r];
      if (values[twin] !== values[s]) problem(s, `its symmetric image (state ${twin}) has ${values[twin]}`);
    }
  }
  if (inconsistent > LISTED) problems.push({ file, problem: `${inconsistent} inconsistencies in all` });
  if (values[space.stateOf(0, PLAIN)] !== header.value)
    problems.push({ file, problem: `the header's value ${header.value} is not the empty board's` });
  return { states: header.states, problems };
}
