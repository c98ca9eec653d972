/**
 * The threshold games of a solve, by counting retrograde: for each t in turn, from high to low, W
 * gains the states whose player to move can force the game to end with at least t points, and L
 * the states whose opponent can force that against them (play that never ends fails the forcing
 * player). Both sets only grow as t falls, so one pass over the reversed moves serves every t.
 * cycle-draw takes its values from them (lib/solve/cycle-draw/cycle-draw.ts), no-cycle its bounds
 * (lib/solve/cycle-draw/forced-bounds.ts).
 */

import { NO_ENDING, type MoveGraph } from '../moves/move-graph.js';
import type { MoveRows } from '../moves/move-rows.js';

/** Not in the set at any threshold. */
export const NONE = -128;

/** Called as a state enters W (inL false) or L at threshold t. */
export type Entered = (s: number, inL: boolean) => void;

/** Whether a pass to u, just gained for L, may win the state passing its place in W (default: always). */
export type PassAdmitted = (u: number) => boolean;

/** A pass rule: whether p's pass to u, just gained for L, may win p (no-cycle's forced bounds). */
interface PassRule {
  readonly passChild: Int32Array;
  readonly admitted: PassAdmitted;
}

export class ThresholdSets {
  /**
   * Per state (of the graph, or of a slice of it held from disk): the highest t with the state in
   * W (in L), or NONE; its moves (a game-ending pass among them) not yet known to lead into W; and
   * its ending (NO_ENDING unless a pass ends the game).
   */
  constructor(
    readonly highestW: Int8Array,
    readonly highestL: Int8Array,
    private readonly left: Uint8Array,
    private readonly ending: Int8Array,
    private readonly passRule?: PassRule,
  ) {}

  /** The sets of a whole graph, empty, before any threshold. */
  static of(graph: MoveGraph, passAdmitted?: PassAdmitted): ThresholdSets {
    const states = graph.states;
    const left = new Uint8Array(states);
    for (let s = 0; s < states; s++) left[s] = graph.moves(s);
    const passRule = passAdmitted && { passChild: graph.passChild, admitted: passAdmitted };
    return new ThresholdSets(new Int8Array(states).fill(NONE), new Int8Array(states).fill(NONE), left, graph.ending, passRule);
  }

  /** A state's value once every threshold is done: t where W holds it from t, -t for L, else 0. */
  value(s: number): number {
    return this.highestW[s] !== NONE ? this.highestW[s] : this.highestL[s] !== NONE ? -this.highestL[s] : 0;
  }

  /** Adds the states whose ending decides threshold t, calling entered for each; returns how many. */
  seed(t: number, entered: Entered): number {
    const { ending } = this;
    let gained = 0;
    for (let s = 0; s < ending.length; s++) {
      if (ending[s] === NO_ENDING) continue;
      if (ending[s] >= t && this.highestW[s] === NONE) {
        this.highestW[s] = t;
        entered(s, false);
        gained++;
      }
      // Passing, which ends this game, now loses t: one fewer way out.
      if (ending[s] === -t && --this.left[s] === 0 && this.highestL[s] === NONE) {
        this.highestL[s] = t;
        entered(s, true);
        gained++;
      }
    }
    return gained;
  }

  /** p moves to u, just gained for W (uInL false) or L at threshold t: whether p enters a set in turn. */
  reach(p: number, u: number, uInL: boolean, t: number, entered: Entered): boolean {
    if (!uInL) {
      // A move into a state its player wins: one fewer move of p escapes losing t.
      if (--this.left[p] === 0 && this.highestL[p] === NONE) {
        this.highestL[p] = t;
        entered(p, true);
        return true;
      }
      return false;
    }
    if (this.highestW[p] !== NONE) return false;
    if (this.passRule && this.passRule.passChild[p] === u && !this.passRule.admitted(u)) return false;
    this.highestW[p] = t;
    entered(p, false);
    return true;
  }
}

/**
 * Grows threshold t's sets from their seeds until nothing more is gained, the parents in memory: a
 * queue of the states gained, each with its set. `twice`: a state may enter both sets (thresholds
 * at or below 0), so the queue holds two entries a state.
 */
export function spreadByQueue(
  rows: MoveRows,
  parents: Uint32Array,
  sets: ThresholdSets,
  twice: boolean,
  entered: Entered = () => {},
): (t: number) => void {
  const queue = new Uint32Array(twice ? 2 * rows.states : rows.states);
  let tail = 0;
  const enter: Entered = (s, inL) => {
    queue[tail++] = twice ? s * 2 + (inL ? 1 : 0) : s;
    entered(s, inL);
  };
  return (t) => {
    let head = tail;
    sets.seed(t, enter);
    for (; head < tail; head++) {
      const u = twice ? queue[head] >>> 1 : queue[head];
      // With one entry a state, the set is the one it is in: at t >= 1 no state is in both.
      const uInL = twice ? (queue[head] & 1) === 1 : sets.highestW[u] === NONE;
      for (let e = rows.start[u]; e < rows.start[u + 1]; e++) sets.reach(parents[e], u, uInL, t, enter);
    }
  };
}

/**
 * The same with the parents on disk, for thresholds of at least 1 (a state in one set at most): the
 * states gained are taken round by round, one read of the parents a round.
 */
export function spreadByRounds(rows: MoveRows, sets: ThresholdSets): (t: number) => void {
  let frontier = new Uint8Array(rows.states);
  let next = new Uint8Array(rows.states);
  return (t) => {
    frontier.fill(0);
    const seeds = frontier;
    let gained = sets.seed(t, (s) => (seeds[s] = 1));
    while (gained > 0) {
      next.fill(0);
      gained = 0;
      const gain = next;
      const mark: Entered = (p) => (gain[p] = 1);
      for (const { first, last, offset, items } of rows.blocks()) {
        for (let u = first; u < last; u++) {
          if (!frontier[u]) continue;
          const uInL = sets.highestW[u] === NONE;
          for (let e = rows.start[u] - offset; e < rows.start[u + 1] - offset; e++) {
            if (sets.reach(items[e], u, uInL, t, mark)) gained++;
          }
        }
      }
      [frontier, next] = [next, frontier];
    }
  };
}
