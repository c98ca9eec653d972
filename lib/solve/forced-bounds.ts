/**
 * Bounds on the no-cycle value of every state that hold whatever the game's history, where a check
 * against the history allows them: the results each player can force while ignoring repetitions.
 *
 * For each t from the board's size down to 1 - size, `W` gains the states whose player to move
 * can force the game to end with at least t points, and `L` the states whose opponent can force
 * that against them (the counting retrograde of threshold games, play that never ends failing the
 * forcing player). A state's lower bound is the highest t with it in W, its upper bound minus the
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

import { NO_ENDING, type MoveGraph } from './move-graph.js';

const NONE = -128;

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
    this.points = graph.space.board.points;
    this.highestW = new Int8Array(states).fill(NONE);
    this.highestL = new Int8Array(states).fill(NONE);
    this.enteredW = new Uint32Array(states);
    this.enteredL = new Uint32Array(states);
    this.spread();
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
   * positions with the other player to move (any status).
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

  private spread(): void {
    const { graph, highestW, highestL, enteredW, enteredL } = this;
    const { ending, passChild, states } = graph;
    const { base, rankOf } = graph.space;
    const parents = graph.parents();
    const from = parents.start;
    const items = parents.items!;
    const left = new Uint8Array(states);
    for (let s = 0; s < states; s++) left[s] = graph.moves(s);
    // Each state enters each set once: a queue of 2 * states entries, (state << 1) | inL.
    const queue = new Uint32Array(2 * states);
    let entries = 0;
    let tail = 0;
    const enterW = (s: number, t: number) => {
      highestW[s] = t;
      enteredW[s] = ++entries;
      queue[tail++] = s * 2;
    };
    const enterL = (s: number, t: number) => {
      highestL[s] = t;
      enteredL[s] = ++entries;
      queue[tail++] = s * 2 + 1;
    };
    let head = 0;
    for (let t = this.points; t > -this.points; t--) {
      for (let s = 0; s < states; s++) {
        if (ending[s] === NO_ENDING) continue;
        if (ending[s] >= t && enteredW[s] === 0) enterW(s, t);
        // Passing, which ends the game, now loses t: one fewer way out.
        if (ending[s] === -t && --left[s] === 0 && enteredL[s] === 0) enterL(s, t);
      }
      for (; head < tail; head++) {
        const u = queue[head] >>> 1;
        const uInL = (queue[head] & 1) === 1;
        for (let e = from[u]; e < from[u + 1]; e++) {
          const p = items[e];
          if (!uInL) {
            // A move into a state its player wins: one fewer move of p escapes losing t.
            if (--left[p] === 0 && enteredL[p] === 0) enterL(p, t);
          } else if (enteredW[p] === 0) {
            if (passChild[p] === u) {
              const plain = base[rankOf[u]];
              if (enteredL[plain] !== 0 && enteredL[plain] < enteredL[u]) continue;
            }
            enterW(p, t);
          }
        }
      }
    }
  }
}
