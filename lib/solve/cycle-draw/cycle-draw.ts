/**
 * cycle-draw: a cycle ends the game as a draw. The values are those of the game in which play that
 * never ends scores 0, found by the counting retrograde of threshold games (for each t from the
 * board's size down to 1, the states from which the player to move can force t points or more, and
 * those where the opponent can force it), one pass over the reversed moves. A player forcing a
 * result never repeats a state, so the first repetition ending the game changes nothing. The same
 * values guide the no-cycle search (lib/solve/no-cycle/search-components.ts).
 */

import type { MoveGraph } from '../moves/move-graph.js';
import type { PhaseProgress } from '../rules/state-space.js';
import { spreadByQueue, spreadByRounds, ThresholdSets } from './threshold-sets.js';

/**
 * cycle-draw: every state's value, never-ending play scoring 0: t where the player to move can
 * force t or more at best, -t where the opponent can, for t from the board's size down to 1 (the
 * threshold games of lib/solve/cycle-draw/threshold-sets.ts); 0 where neither can force a point.
 */
export function solveCycleDraw(graph: MoveGraph, progress: PhaseProgress = () => {}): Int8Array {
  const points = graph.space.board.points;
  const rows = graph.parents();
  const sets = ThresholdSets.of(graph);
  const spread = rows.items ? spreadByQueue(rows, rows.items, sets, false) : spreadByRounds(rows, sets);
  for (let t = points; t >= 1; t--) {
    progress(points - t, points);
    spread(t);
  }
  const values = new Int8Array(graph.states);
  for (let s = 0; s < values.length; s++) values[s] = sets.value(s);
  return values;
}
