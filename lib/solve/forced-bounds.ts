/**
 * Bounds on the no-cycle value of every state that hold whatever the game's history, where a check
 * against the history allows them: the results each player can force while ignoring repetitions.
 *
 * The threshold games of lib/solve/threshold-sets.ts are played for each t from the board's size
 * down to 1 - size. A state's lower bound is the highest t with it in W, its upper bound minus the
 * highest t with it in L. Each state records the order in which it entered W and L: a forcing
 * strategy only moves to states that entered earlier, so it never repeats a state.
 *
 * Under no-cycle a forcing move that recreates a position met before is barred. The forcing
 * player's stone moves lead to plain states of the other player to move, so a strategy from a
 * state s in W (or L) is sound after a history when no position of that history, with the other
 * player to move (with s's player to move), has a plain state in L that entered it before s
 * entered W (L): see `safeLower` and `safeUpper`. Within a strategy's own play, the one other
 * repetition is a position first reached by the forcing player's pass and later by a stone move:
 * a pass counts for W only when the plain state of the position it reaches is not already in L.
 */

import type { MoveGraph } from './move-graph.js';
import { NONE, spreadByQueue, ThresholdSets } from './threshold-sets.js';

export class ForcedBounds {
  /** Per state: the highest t with the state in W (L), or NONE. */
  readonly highestW: Int8Array;
  readonly highestL: Int8Array;
  /** Per state: when it entered W (L), counting from 1; 0 if never. */
  readonly enteredW: Uint32Array;
  readonly enteredL: Uint32Array;
  private readonly points: number;

  constructor(private readonly graph: MoveGraph) {
    const { states } = graph;
    const { base, rankOf } = graph.space;
    this.points = graph.space.board.points;
    const enteredW = (this.enteredW = new Uint32Array(states));
    const enteredL = (this.enteredL = new Uint32Array(states));
    const sets = ThresholdSets.of(graph, (u) => {
      const plain = base[rankOf[u]];
      return enteredL[plain] === 0 || enteredL[plain] > enteredL[u];
    });
    let entries = 0;
    const parents = graph.parents();
    const spread = spreadByQueue(parents, parents.items!, sets, true, (s, inL) => ((inL ? enteredL : enteredW)[s] = ++entries));
    for (let t = this.points; t > -this.points; t--) spread(t);
    this.highestW = sets.highestW;
    this.highestL = sets.highestL;
  }

  /** The lower bound of state s's value, ignoring the history. */
  lower(s: number): number {
    return this.highestW[s] === NONE ? -this.points : this.highestW[s];
  }

  /** The upper bound of state s's value, ignoring the history. */
  upper(s: number): number {
    return this.highestL[s] === NONE ? this.points : -this.highestL[s];
  }

  /**
   * Whether s's lower bound holds after a history: `others` lists the states of the history's
   * positions with the other player to move (any status). The rule stated plainly, over the whole
   * history; the search asks lib/solve/history-path.ts, which answers the same in constant time
   * (a test checks the two agree).
   */
  safeLower(s: number, others: ArrayLike<number>, count: number): boolean {
    return this.clear(this.lower(s), this.enteredW[s], others, count);
  }

  /** Whether s's upper bound holds after a history: `same` lists its positions with s's player to move. */
  safeUpper(s: number, same: ArrayLike<number>, count: number): boolean {
    return this.clear(this.highestL[s], this.enteredL[s], same, count);
  }

  /** Whether no listed position's plain state entered L at threshold t or above before `entered`. */
  private clear(t: number, entered: number, listed: ArrayLike<number>, count: number): boolean {
    const { base, rankOf } = this.graph.space;
    for (let i = 0; i < count; i++) {
      const plain = base[rankOf[listed[i]]];
      if (this.highestL[plain] >= t && this.enteredL[plain] < entered) return false;
    }
    return true;
  }
}
