/**
 * What the no-cycle analyses read of the moves, from the moves in memory (a MoveGraph) or
 * generated as they are asked for (a budget too small for the moves): a state's children in the
 * order the history search tries them, and a position's successors for the strongly connected
 * components.
 */

import { forEachMove, MoveGraph, NO_ENDING } from './move-graph.js';
import { moverOf, opponentOf, swapKey } from '../rules/solve-board.js';
import type { StateSpace } from '../rules/state-space.js';

export interface SearchMoves {
  readonly space: StateSpace;
  /**
   * Writes state s's children into `out` from `at`, in the order to try them; returns how many.
   * `pass` and `ending` then hold the child passing reaches (-1 when passing ends the game) and the
   * score of that end (NO_ENDING if passing does not end it).
   */
  list(s: number, out: Uint32Array, at: number): number;
  readonly pass: number;
  readonly ending: number;
}

/** Per position, its successors' ranks: `next` gives the one at `cursors[i]` and advances it, or -1 when none is left. */
export interface PositionSuccessors {
  readonly positions: number;
  begin(r: number): number;
  next(r: number, cursors: Uint32Array, i: number): number;
}

/** The moves of a MoveGraph in memory, in the order of its rows. */
export class GraphMoves implements SearchMoves, PositionSuccessors {
  pass = -1;
  ending = NO_ENDING;

  constructor(readonly graph: MoveGraph) {}

  get space(): StateSpace {
    return this.graph.space;
  }

  get positions(): number {
    return this.graph.space.positions;
  }

  list(s: number, out: Uint32Array, at: number): number {
    const { start, children } = this.graph;
    // Copied item by item: a subarray would allocate a view at every node of the search.
    for (let e = start[s]; e < start[s + 1]; e++) out[at++] = children[e];
    this.pass = this.graph.passChild[s];
    this.ending = this.graph.ending[s];
    return start[s + 1] - start[s];
  }

  begin(r: number): number {
    return this.graph.start[this.graph.space.base[r]];
  }

  next(r: number, cursors: Uint32Array, i: number): number {
    const { start, space } = this.graph;
    if (cursors[i] >= start[space.base[r + 1]]) return -1;
    return space.rankOf[this.graph.children[cursors[i]++]];
  }
}

/**
 * The moves of a no-cycle state space generated from the positions' keys, nothing held per move:
 * a state's children ordered by `guide` (the lower a child's guide value, the sooner), ties in
 * point order and the pass last, as orderMoves sorts the rows in memory.
 */
export class GeneratedMoves implements SearchMoves, PositionSuccessors {
  pass = -1;
  ending = NO_ENDING;
  private out: Uint32Array = new Uint32Array(0);
  private at = 0;
  private count = 0;
  private readonly visit = (p: number, child: number): void => {
    if (p < 0) this.pass = child;
    this.out[this.at + this.count++] = child;
  };

  constructor(
    readonly space: StateSpace,
    private readonly guide: Int8Array,
  ) {
    if (space.rule !== 'no-cycle' || space.symmetry) throw new Error('generated moves are for an unfolded no-cycle space');
  }

  get positions(): number {
    return this.space.positions;
  }

  list(s: number, out: Uint32Array, at: number): number {
    const { space, guide } = this;
    this.out = out;
    this.at = at;
    this.count = 0;
    this.pass = -1;
    this.ending = forEachMove(space, space.keys[space.rankOfState(s)], space.statusOfState(s), -1, this.visit);
    // Insertion sort, stable: at most one child a point and the pass.
    for (let i = at + 1; i < at + this.count; i++) {
      const c = out[i];
      let j = i - 1;
      for (; j >= at && guide[out[j]] > guide[c]; j--) out[j + 1] = out[j];
      out[j + 1] = c;
    }
    return this.count;
  }

  /** A cursor is the next point to try; the board's point count stands for the pass. */
  begin(): number {
    return 0;
  }

  next(r: number, cursors: Uint32Array, i: number): number {
    const { board } = this.space;
    const key = this.space.keys[r];
    for (; cursors[i] < board.points; cursors[i]++) {
      const after = board.play(moverOf(key), opponentOf(key), cursors[i]);
      if (after >= 0) {
        cursors[i]++;
        return this.space.rank(after);
      }
    }
    if (cursors[i]++ === board.points) return this.space.rank(swapKey(key));
    return -1;
  }
}
