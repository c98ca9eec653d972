/**
 * A solve database checked offline (`gocount verify FILE`): the CRC, the header against the board's
 * state space, and the values against the moves, generated state by state; a checkpoint's values
 * (lib/solve/files/search-checkpoint.ts) are checked the same way.
 */

import type { Problem } from '../../verify/problems.js';
import { positionComponents } from '../moves/components.js';
import { forEachMoveOfRank, NO_ENDING } from '../moves/move-graph.js';
import { GeneratedMoves } from '../moves/search-moves.js';
import { SolveBoard } from '../rules/solve-board.js';
import { PLAIN, StateSpace } from '../rules/state-space.js';
import { BoardSymmetry, foldedSymmetry } from '../rules/symmetry.js';
import { readSolveDb } from './solve-db.js';
import type { SolveFileHeader } from './solve-file.js';

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
