/**
 * The moves between the states of a solve, in compressed rows: the children of state s are
 * children[start[s] .. start[s + 1]), the pass (if it does not end the game) last among them. A pass
 * after a pass ends the game: that state's `ending` is the final score from the view of the player
 * to move, and NO_ENDING elsewhere. Parents (the reverse rows) are built on demand. Rows that
 * outgrow their share of memory are kept in files (lib/solve/moves/move-rows.ts).
 */

import { GocountError } from '../../shared/errors.js';
import { MoveRows, RowSpill, RowWriter } from './move-rows.js';
import { lowest, moverOf, opponentOf, swapKey } from '../rules/solve-board.js';
import { AFTER_PASS, KO, PhaseProgress, StateSpace } from '../rules/state-space.js';

export const NO_ENDING = 127;

/**
 * The moves from a position (x to move) with a status: visit(p, child) for each point p that may
 * be played, in point order, then visit(-1, child) for a pass that does not end the game; returns
 * the final score when a pass ends it, else NO_ENDING. The position need not be canonical: the
 * children are looked up through the space.
 */
export function forEachMove(space: StateSpace, key: number, status: number, ko: number, visit: (p: number, child: number) => void): number {
  const { board } = space;
  const x = moverOf(key);
  const o = opponentOf(key);
  for (let p = 0; p < board.points; p++) {
    const after = board.play(x, o, p);
    if (after < 0) continue;
    if (status === KO && p === ko && board.captured === 1) continue; // the immediate retake
    const child = space.stateAfterMove(after, board.koPoint);
    if (child < 0) throw new Error(`no state for the position after a move (key ${after})`);
    visit(p, child);
  }
  if (status === AFTER_PASS) return board.score(x, o);
  visit(-1, space.stateOf(swapKey(key), AFTER_PASS));
  return NO_ENDING;
}

/**
 * forEachMove for the j-th state of the position of rank r (plain, after a pass, then one per ko
 * point in point order), found from the position's key alone: what walks the states in order
 * without the space's per-state arrays calls this.
 */
export function forEachMoveOfRank(space: StateSpace, r: number, j: number, visit: (p: number, child: number) => void): number {
  const key = space.keys[r];
  if (j < 2) return forEachMove(space, key, j, -1, visit);
  let mask = space.koMask(key);
  for (let k = 2; k < j; k++) mask &= mask - 1;
  return forEachMove(space, key, KO, lowest(mask), visit);
}

export class MoveGraph {
  readonly space: StateSpace;
  readonly start: Uint32Array;
  readonly rows: MoveRows;
  /** Per state: the child reached by passing, or -1 when passing ends the game. */
  readonly passChild: Int32Array;
  readonly ending: Int8Array;
  private parentRows?: MoveRows;

  constructor(
    space: StateSpace,
    progress: PhaseProgress = () => {},
    private readonly spill?: RowSpill,
  ) {
    this.space = space;
    const states = space.states;
    this.start = new Uint32Array(states + 1);
    this.passChild = new Int32Array(states);
    this.ending = new Int8Array(states).fill(NO_ENDING);
    const children = new RowWriter(spill);
    let edges = 0;
    let s = 0;
    const visit = (p: number, child: number) => {
      if (p < 0) this.passChild[s] = child;
      children.push(child);
      edges++;
    };
    for (; s < states; s++) {
      if ((s & 0xffff) === 0) progress(s, states);
      this.passChild[s] = -1;
      this.ending[s] = forEachMove(space, space.keyOfState(s), space.statusOf[s], space.koOf[s], visit);
      this.start[s + 1] = edges;
    }
    this.rows = children.finish(this.start);
  }

  /** The children of every state, in memory; only the analyses that need them whole ask. */
  get children(): Uint32Array {
    if (this.rows.items) return this.rows.items;
    const { m, n } = this.space.board;
    throw new GocountError(
      `board ${m}x${n}, rule ${this.space.rule}: the history search needs the ${this.edges} moves in memory, more than --memory allows`,
      1,
      'GOCOUNT_TOO_LARGE',
    );
  }

  get states(): number {
    return this.space.states;
  }

  get edges(): number {
    return this.rows.length;
  }

  /** Moves of state s, counting a pass that ends the game. */
  moves(s: number): number {
    return this.start[s + 1] - this.start[s] + (this.ending[s] === NO_ENDING ? 0 : 1);
  }

  /**
   * The reverse rows: the parents of s, once per move. When the children are in a file, so are
   * the parents, filled a range of children at a time, each range's parents held in memory.
   */
  parents(): MoveRows {
    if (this.parentRows) return this.parentRows;
    const states = this.states;
    const start = new Uint32Array(states + 1);
    for (const { first, last, offset, items } of this.rows.blocks()) {
      for (let e = this.start[first]; e < this.start[last]; e++) start[items[e - offset] + 1]++;
    }
    for (let s = 0; s < states; s++) start[s + 1] += start[s];
    const { items: children } = this.rows;
    if (children) {
      const fill = start.slice(0, states);
      const parents = new Uint32Array(this.edges);
      for (let s = 0; s < states; s++) {
        for (let e = this.start[s]; e < this.start[s + 1]; e++) parents[fill[children[e]]++] = s;
      }
      this.parentRows = MoveRows.inMemory(start, parents);
      return this.parentRows;
    }
    const spill = this.spill!;
    const writer = new RowWriter({ ...spill, memoryItems: 0 }); // straight to a file
    for (let low = 0; low < states;) {
      let high = low + 1;
      while (high < states && start[high + 1] - start[low] <= spill.blockItems) high++;
      const range = new Uint32Array(start[high] - start[low]);
      const fill = start.slice(low, high);
      for (const { first, last, offset, items } of this.rows.blocks()) {
        for (let s = first; s < last; s++) {
          for (let e = this.start[s] - offset; e < this.start[s + 1] - offset; e++) {
            const c = items[e];
            if (c >= low && c < high) range[fill[c - low]++ - start[low]] = s;
          }
        }
      }
      for (let i = 0; i < range.length; i++) writer.push(range[i]);
      low = high;
    }
    this.parentRows = writer.finish(start);
    return this.parentRows;
  }

  /** Gives back the files of rows kept on disk. */
  dispose(): void {
    this.rows.dispose();
    this.parentRows?.dispose();
  }
}
