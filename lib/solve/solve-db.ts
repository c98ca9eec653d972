/**
 * The solve database file (`gocount solve --db FILE`): a header line of JSON (format, version,
 * board, rule, scoring, symmetries folded, positions, states, the empty board's value), then one
 * signed byte per state, the state's value in state order (lib/solve/state-space.ts), then the
 * CRC-32 of everything before it, 4 bytes little-endian (a framed file, lib/format/framed-file.ts).
 * Written under a temporary name and renamed, so a file with this name is whole. `checkSolveDb`
 * checks it offline: the CRC, the header against the board's state space, and the values against
 * the moves, generated state by state.
 */

import { GocountError, isSystemError, systemExitCode, systemProblem, UsageError } from '../errors.js';
import { signedBytes, writeFramedFile } from '../format/framed-file.js';
import type { Problem } from '../verify/problems.js';
import { forEachMoveOfRank, NO_ENDING } from './move-graph.js';
import { GeneratedMoves } from './search-moves.js';
import { positionComponents } from './retrograde.js';
import { SolveBoard } from './solve-board.js';
import { readSolveFile, solveHeader, type SolveFileHeader } from './solve-file.js';
import { PLAIN, StateSpace } from './state-space.js';
import { BoardSymmetry, foldedSymmetry } from './symmetry.js';

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
