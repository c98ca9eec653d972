/**
 * The moves between the states of a solve, in compressed rows: the children of state s are
 * children[start[s] .. start[s + 1]), the pass (if it does not end the game) last among them. A pass
 * after a pass ends the game: that state's `ending` is the final score from the view of the player
 * to move, and NO_ENDING elsewhere. Parents (the reverse rows) are built on demand.
 */

import { moverOf, opponentOf, swapKey } from './solve-board.js';
import { AFTER_PASS, KO, PhaseProgress, StateSpace } from './state-space.js';

export const NO_ENDING = 127;

export class MoveGraph {
  readonly space: StateSpace;
  readonly start: Uint32Array;
  readonly children: Uint32Array;
  /** Per state: the child reached by passing, or -1 when passing ends the game. */
  readonly passChild: Int32Array;
  readonly ending: Int8Array;
  private parentRows?: { start: Uint32Array; parents: Uint32Array };

  constructor(space: StateSpace, progress: PhaseProgress = () => {}) {
    this.space = space;
    const { board } = space;
    const states = space.states;
    this.start = new Uint32Array(states + 1);
    this.passChild = new Int32Array(states);
    this.ending = new Int8Array(states).fill(NO_ENDING);
    let children = new Uint32Array(Math.max(16, states * 4));
    let edges = 0;
    for (let s = 0; s < states; s++) {
      if ((s & 0xffff) === 0) progress(s, states);
      const key = space.keyOfState(s);
      const x = moverOf(key);
      const o = opponentOf(key);
      const status = space.statusOf[s];
      const ko = space.koOf[s];
      if (edges + board.points + 1 > children.length) {
        const grown = new Uint32Array(children.length * 2);
        grown.set(children);
        children = grown;
      }
      for (let p = 0; p < board.points; p++) {
        const after = board.play(x, o, p);
        if (after < 0) continue;
        if (status === KO && p === ko && board.captured === 1) continue; // the immediate retake
        const child = space.stateAfterMove(after, board.koPoint);
        if (child < 0) throw new Error(`no state for the position after a move (key ${after})`);
        children[edges++] = child;
      }
      if (status === AFTER_PASS) {
        this.passChild[s] = -1;
        this.ending[s] = board.score(x, o);
      } else {
        const child = space.stateOf(swapKey(key), AFTER_PASS);
        this.passChild[s] = child;
        children[edges++] = child;
      }
      this.start[s + 1] = edges;
    }
    this.children = children.slice(0, edges);
  }

  get states(): number {
    return this.space.states;
  }

  get edges(): number {
    return this.children.length;
  }

  /** Moves of state s, counting a pass that ends the game. */
  moves(s: number): number {
    return this.start[s + 1] - this.start[s] + (this.ending[s] === NO_ENDING ? 0 : 1);
  }

  /** The reverse rows: the parents of s are parents[start[s] .. start[s + 1]), once per move. */
  parents(): { start: Uint32Array; parents: Uint32Array } {
    if (this.parentRows) return this.parentRows;
    const states = this.states;
    const start = new Uint32Array(states + 1);
    for (let e = 0; e < this.children.length; e++) start[this.children[e] + 1]++;
    for (let s = 0; s < states; s++) start[s + 1] += start[s];
    const fill = start.slice(0, states);
    const parents = new Uint32Array(this.children.length);
    for (let s = 0; s < states; s++) {
      for (let e = this.start[s]; e < this.start[s + 1]; e++) parents[fill[this.children[e]]++] = s;
    }
    this.parentRows = { start, parents };
    return this.parentRows;
  }
}
