/**
 * Bounds on the no-cycle value of every state that hold whatever the game's history, where a check
 * against the history allows them: the results each player can force while ignoring repetitions.
 *
 * The threshold games of lib/solve/cycle-draw/threshold-sets.ts are played for each t from the board's size
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

import type { MoveGraph } from '../moves/move-graph.js';
import type { StateSpace } from '../rules/state-space.js';
import { NONE, spreadByQueue, ThresholdSets, type PassAdmitted } from './threshold-sets.js';

/**
 * The pass rule of the bounds: a pass to u, just gained for L, may win the state passing when the
 * plain state of u's position had not entered L before u did.
 */
export function passAdmitted(space: StateSpace, enteredL: Uint32Array): PassAdmitted {
  return (u) => {
    const plain = space.base[space.rankOfState(u)];
    return enteredL[plain] === 0 || enteredL[plain] > enteredL[u];
  };
}

export class ForcedBounds {
  private readonly points: number;

  /**
   * Per state: the highest t with the state in W (L), or NONE; when it entered W (L), counting
   * from 1, 0 if never.
   */
  constructor(
    private readonly space: StateSpace,
    readonly highestW: Int8Array,
    readonly highestL: Int8Array,
    readonly enteredW: Uint32Array,
    readonly enteredL: Uint32Array,
  ) {
    this.points = space.board.points;
  }

  /** The bounds of every state of a graph in memory, its parents read through a queue. */
  static of(graph: MoveGraph): ForcedBounds {
    const { states, space } = graph;
    const enteredW = new Uint32Array(states);
    const enteredL = new Uint32Array(states);
    const sets = ThresholdSets.of(graph, passAdmitted(space, enteredL));
    let entries = 0;
    const parents = graph.parents();
    const spread = spreadByQueue(parents, parents.items!, sets, true, (s, inL) => ((inL ? enteredL : enteredW)[s] = ++entries));
    for (let t = space.board.points; t > -space.board.points; t--) spread(t);
    return new ForcedBounds(space, sets.highestW, sets.highestL, enteredW, enteredL);
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
   * history; the search asks lib/solve/no-cycle/history-path.ts, which answers the same in constant time
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
    const { space } = this;
    for (let i = 0; i < count; i++) {
      const plain = space.base[space.rankOfState(listed[i])];
      if (this.highestL[plain] >= t && this.enteredL[plain] < entered) return false;
    }
    return true;
  }
}
