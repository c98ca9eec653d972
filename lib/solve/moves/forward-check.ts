/**
 * Retrograde analysis over a MoveGraph: the value of every state, from the view of the player to
 * move, in points, and what the solve reports of it (RetrogradeStats).
 *
 * Forward checking (the paper's epochs): a state whose children all have values takes the best
 * of them, sweep after sweep, until a sweep changes nothing. What is left, the unstable states, can
 * reach a cycle; each rule resolves them as it demands: cycle-draw by the threshold games
 * (lib/solve/cycle-draw/cycle-draw.ts), no-cycle by the history search over the strongly connected
 * components of the positions (lib/solve/moves/components.ts, lib/solve/no-cycle/search-components.ts).
 */

import { type MoveGraph, NO_ENDING } from './move-graph.js';
import type { PhaseProgress } from '../rules/state-space.js';

export interface RetrogradeStats {
  /** Forward-checking sweeps, the last one changing nothing. */
  epochs: number;
  /** States valued by forward checking. */
  stable: number;
  unstable: number;
  /** Components of positions with a cycle, their positions and states, and the largest. */
  cycleComponents: number;
  cyclePositions: number;
  cycleStates: number;
  largestComponent: number;
  /** no-cycle: positions searched over histories; states whose forward-checked value the history changed. */
  searchNodes: number;
  revised: number;
  /** no-cycle: search nodes given a bound by an earlier result the history let stand. */
  tableHits: number;
  /**
   * no-cycle: the entries of the table of earlier results and the bytes it takes, what --memory
   * left it (0 without one). Too few make the search far longer (docs/solve.md, "Memory").
   */
  tableEntries: number;
  tableBytes: number;
  /** no-cycle: states of components with a cycle valued by an image under a symmetry, not searched. */
  fromImages: number;
  /**
   * no-cycle: states valued before the solve resumed from a checkpoint (0 when it did not), and
   * whether it took the table of earlier results back ('taken back', else why not).
   */
  resumed: number;
  tableResumed: string;
  /** The moves were kept on disk (beyond --memory): cycle-draw then finds no components. */
  movesOnDisk: boolean;
  /**
   * cycle-draw: the states were kept on disk too (lib/solve/cycle-draw/cycle-draw-on-disk.ts), without forward
   * checking; `rounds` counts the threshold games' rounds, over every threshold.
   */
  statesOnDisk: boolean;
  rounds: number;
  /** With the states on disk, the most bytes their working files held at once. */
  diskBytes: number;
}

/** The figures before any phase has run, but the forward-checking sweeps. */
export function emptyStats(epochs: number): RetrogradeStats {
  return {
    epochs,
    stable: 0,
    unstable: 0,
    cycleComponents: 0,
    cyclePositions: 0,
    cycleStates: 0,
    largestComponent: 0,
    searchNodes: 0,
    revised: 0,
    tableHits: 0,
    tableEntries: 0,
    tableBytes: 0,
    fromImages: 0,
    resumed: 0,
    tableResumed: '',
    movesOnDisk: false,
    statesOnDisk: false,
    rounds: 0,
    diskBytes: 0,
  };
}

/** Values of every state; unknown where known[s] is 0. Returns the sweeps made. */
export function forwardCheck(graph: MoveGraph, values: Int8Array, known: Uint8Array, progress: PhaseProgress = () => {}): number {
  const { start, ending } = graph;
  let epochs = 0;
  for (let changed = true; changed;) {
    changed = false;
    progress(epochs++, epochs);
    for (const { first, last, offset, items } of graph.rows.blocks()) {
      for (let s = first; s < last; s++) {
        if (known[s]) continue;
        let best = ending[s] === NO_ENDING ? -128 : ending[s];
        let all = true;
        for (let e = start[s] - offset; e < start[s + 1] - offset; e++) {
          const c = items[e];
          if (!known[c]) {
            all = false;
            break;
          }
          if (-values[c] > best) best = -values[c];
        }
        if (all) {
          values[s] = best;
          known[s] = 1;
          changed = true;
        }
      }
    }
  }
  return epochs;
}
