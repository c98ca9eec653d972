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
import { GocountError, isSystemError, systemExitCode, systemProblem, UsageError } from '../shared/errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import type { Problem } from '../verify/problems.js';
import { forEachMoveOfRank, NO_ENDING } from './move-graph.js';
import { GeneratedMoves } from './search-moves.js';
import { positionComponents } from './retrograde.js';
import { SCORINGS, Scoring, SolveBoard } from './solve-board.js';
import { foldedSymmetry, type SolvedBoard } from './solve.js';
import { CYCLE_RULES, CycleRule, PLAIN, StateSpace } from './state-space.js';
import { BoardSymmetry } from './symmetry.js';
import { counted } from '../shared/plural.js';

export const SOLVE_DB_FORMAT = 'gocount-solve';
/**
 * Version 2 added the scoring (a version-1 file was scored Tromp–Taylor), version 3 the
 * symmetries folded (earlier files folded none).
 */
export const SOLVE_DB_VERSION = 3;

/** What every solve file's header gives: the board and its state space. */
export interface SolveFileHeader {
  readonly format: string;
  readonly version: number;
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  readonly scoring: Scoring;
  /** 1: every legal position kept; else the board's symmetries, one position kept per orbit. */
  readonly symmetries: number;
  readonly positions: number;
  readonly states: number;
}

export interface SolveDbHeader extends SolveFileHeader {
  /** The empty board's value. */
  readonly value: number;
}

export function writeSolveDb(file: string, solved: SolvedBoard): void {
  if (solved.emptyBoardOnly)
    throw new UsageError(`${file}: only the empty board was valued (emptyBoardOnly), not every state: no database to write`);
  const { space, values } = solved;
  const header: SolveDbHeader = { ...solveHeader(SOLVE_DB_FORMAT, SOLVE_DB_VERSION, space), value: values[space.stateOf(0, PLAIN)] };
  try {
    writeSolveFile(file, header, [values]);
  } catch (error) {
    const message = `${file}: cannot write the database: ${systemProblem(error)}`;
    throw new GocountError(message, isSystemError(error) ? systemExitCode(error) : 1);
  }
}

/** What the header of a database and of a checkpoint (lib/solve/search-checkpoint.ts) give of the board and its state space. */
export function solveHeader(format: string, version: number, space: StateSpace): SolveFileHeader {
  const { m, n } = space.board;
  const { rule, positions, states } = space;
  return { format, version, m, n, rule, scoring: space.board.scoring, symmetries: space.symmetry?.count ?? 1, positions, states };
}

/**
 * Writes a header line of JSON, the bytes of `parts` and the CRC-32 of all that, under a
 * temporary name (`temp`, else the file's own) renamed into place.
 */
export function writeSolveFile(file: string, header: object, parts: ArrayBufferView[], temp?: string): void {
  const head = Buffer.from(`${JSON.stringify(header)}\n`);
  const bodies = parts.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength));
  let crc = crc32(head);
  for (const body of bodies) crc = crc32(body, crc);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(crc);
  writeFileAtomically(file, Buffer.concat([head, ...bodies, trailer]), temp);
}

/**
 * The header line at the start of a solve file of this format, parsed, and where it ends; or what
 * is wrong with it (`data` may hold only the file's first bytes).
 */
export function headerLine<H>(data: Buffer, format: string): { header: H; newline: number } | string {
  const magic = magicOf(format);
  const newline = data.indexOf(10);
  const start = data.subarray(0, magic.length).toString('latin1');
  if (newline < 0 && start.length > 0 && start === magic.slice(0, start.length))
    return `cut short in its header (${counted(data.length, 'byte')})`;
  if (newline < 0 || start !== magic) return `not a ${format} file`;
  try {
    return { header: JSON.parse(data.subarray(0, newline).toString()) as H, newline };
  } catch {
    return 'its header is not JSON';
  }
}

/** The first of `fields` whose value in a file's header is not this solve's own, said in words; undefined when all match. */
export function differingField<H extends object>(theirs: H, own: H, fields = Object.keys(own) as (keyof H)[]): string | undefined {
  const said = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  for (const field of fields) {
    if (JSON.stringify(theirs[field]) !== JSON.stringify(own[field]))
      return `its ${String(field)} is ${said(theirs[field])}, this solve's ${said(own[field])}`;
  }
  return undefined;
}

/** How a solve file of this format starts: the header's first bytes. */
const magicOf = (format: string): string => `{"format":"${format}"`;

/** Whether a file starts as a solve file of this format does (or is one cut short). */
export function startsAsSolveFile(file: string, format = SOLVE_DB_FORMAT): boolean {
  const magic = magicOf(format);
  const fd = openSync(file, 'r');
  try {
    const start = Buffer.alloc(magic.length);
    const read = readSync(fd, start, 0, start.length, 0);
    // A file cut inside its magic is still one (a damaged one): at least '{"format":"g'.
    return read >= '{"format":"g'.length && start.subarray(0, read).toString() === magic.slice(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a solve file whole: its header, upgraded to the current version (or what is wrong with
 * it) by `versioned`, and its body, the `bodyBytes(header)` bytes between the header line and the
 * CRC-32; or the one thing wrong with the file.
 */
export function readSolveFile<H extends SolveFileHeader>(
  file: string,
  format: string,
  versioned: (header: H) => H | string,
  bodyBytes: (header: H) => number,
): { header: H; body: Buffer } | string {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return code === 'ENOENT' ? 'no such file' : `cannot be read (${message})`;
  }
  const line = headerLine<H>(data, format);
  if (typeof line === 'string') return line;
  const { newline } = line;
  const header = versioned(line.header);
  if (typeof header === 'string') return header;
  if (!CYCLE_RULES.includes(header.rule)) return `unknown rule ${header.rule}`;
  if (!SCORINGS.includes(header.scoring)) return `unknown scoring ${header.scoring}`;
  if (header.rule === 'no-cycle' && header.symmetries !== 1) return 'symmetries folded under rule no-cycle, which never folds';
  try {
    foldedSymmetry(header.m, header.n, header.symmetries);
  } catch (error) {
    return (error as Error).message;
  }
  const expected = newline + 1 + bodyBytes(header) + 4;
  if (data.length !== expected) return `${counted(data.length, 'byte')} where the header promises ${expected}`;
  const crc = data.readUInt32LE(data.length - 4);
  if (crc32(data.subarray(0, data.length - 4)) !== crc) return 'CRC-32 mismatch: the file is damaged';
  return { header, body: data.subarray(newline + 1, data.length - 4) };
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

/** A copy of `length` bytes of a buffer from `start`, as signed bytes. */
export function signedBytes(body: Buffer, start: number, length: number): Int8Array {
  const bytes = new Int8Array(length);
  bytes.set(new Int8Array(body.buffer, body.byteOffset + start, length));
  return bytes;
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
  const checked = checkSolveValues(file, header, values, undefined, progress);
  if (checked.space && values[checked.space.stateOf(0, PLAIN)] !== header.value)
    checked.problems.push({ file, problem: `the header's value ${header.value} is not the empty board's` });
  return { states: header.states, problems: checked.problems };
}

/**
 * The check of checkSolveDb, of the states `done` marks (every state without it): a state's
 * children and the states out of its component are valued before it, so they are done too. Gives
 * the board's state space when it matches the header.
 */
export function checkSolveValues(
  file: string,
  header: SolveFileHeader,
  values: Int8Array,
  done: Uint8Array | undefined,
  progress: (done: number, total: number) => void,
): { space?: StateSpace; problems: Problem[] } {
  const problems: Problem[] = [];
  const { m, n } = header;
  const space = new StateSpace(new SolveBoard(m, n, header.scoring), header.rule, undefined, foldedSymmetry(m, n, header.symmetries));
  if (space.states !== header.states || space.positions !== header.positions) {
    problems.push({
      file,
      problem: `the header gives ${header.positions} positions and ${header.states} states; ${m}x${n} has ${space.positions} and ${space.states}`,
    });
    return { problems };
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
      if (done && !done[s]) continue;
      best = -128;
      const ending = forEachMoveOfRank(space, r, s - space.base[r], visit);
      if (ending !== NO_ENDING) best = Math.max(best, ending);
      if (own < 0 && best !== values[s]) problem(s, `its best move gives ${best}`);
      else if (own >= 0 && best > values[s]) problem(s, `the game's end or a move out of its cycle gives ${best}`);
      const twin = space.base[image] + s - space.base[r];
      if ((!done || done[twin]) && values[twin] !== values[s]) problem(s, `its symmetric image (state ${twin}) has ${values[twin]}`);
    }
  }
  if (inconsistent > LISTED) problems.push({ file, problem: `${inconsistent} inconsistencies in all` });
  return { space, problems };
}
