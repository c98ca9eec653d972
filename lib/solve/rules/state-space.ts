/**
 * The states of a solve, densely numbered: every legal position (seen from the player to move)
 * with each status it can have. A position's rank is its place among the legal positions in key
 * order (keys are generated in order, so a rank is a binary search); the states of rank r are
 * numbered from base[r]: first the plain state, then the state after a pass, then, under the
 * cycle-draw rule, one state per point the player to move may not retake at once (simple ko).
 * The colour-reversed position, the other player to move, is the same state: values are from the
 * view of the player to move. With a BoardSymmetry, only the canonical position of each orbit is
 * kept, and a state is looked up by the canonical form of its position (a ko point mapped with it).
 */

import { keyOf, lowest, moverOf, opponentOf, popcount, SolveBoard } from './solve-board.js';
import type { BoardSymmetry } from './symmetry.js';
import type { CycleRule } from '../defaults.js';

/** How far a phase of a solve has come: done of total, and what else shows it moving (`detail`). */
export type PhaseProgress = (done: number, total: number, detail?: string) => void;

/** A state's status. */
export const PLAIN = 0;
export const AFTER_PASS = 1;
export const KO = 2;

export class StateSpace {
  readonly board: SolveBoard;
  readonly rule: CycleRule;
  /** The symmetries folded, if any. */
  readonly symmetry: BoardSymmetry | undefined;
  /** The legal positions' keys (the canonical ones, when folded), increasing. */
  readonly keys: Uint32Array;
  /** Every legal position, each position of an orbit counted: L(m, n). */
  readonly legalPositions: number;
  /** First state of each rank; base[positions] is the number of states. */
  readonly base: Uint32Array;
  private decoded?: { rankOf: Uint32Array; statusOf: Uint8Array; koOf: Int8Array };

  constructor(board: SolveBoard, rule: CycleRule, progress: PhaseProgress = () => {}, symmetry?: BoardSymmetry) {
    this.board = board;
    this.rule = rule;
    this.symmetry = symmetry;
    this.keys = legalKeys(board, progress, symmetry);
    const positions = this.keys.length;
    let legal = 0;
    for (let r = 0; r < positions; r++) legal += symmetry ? symmetry.orbitSize(this.keys[r]) : 1;
    this.legalPositions = legal;
    this.base = new Uint32Array(positions + 1);
    for (let r = 0; r < positions; r++) this.base[r + 1] = this.base[r] + 2 + popcount(this.koMask(this.keys[r]));
  }

  /**
   * Per state: its rank, its status, and for a KO state the point that may not be retaken (else
   * -1). Six bytes a state, built when first asked for: a solve whose states are on disk never asks.
   */
  get rankOf(): Uint32Array {
    return this.perState().rankOf;
  }

  get statusOf(): Uint8Array {
    return this.perState().statusOf;
  }

  get koOf(): Int8Array {
    return this.perState().koOf;
  }

  private perState(): { rankOf: Uint32Array; statusOf: Uint8Array; koOf: Int8Array } {
    if (this.decoded) return this.decoded;
    const states = this.states;
    const rankOf = new Uint32Array(states);
    const statusOf = new Uint8Array(states);
    const koOf = new Int8Array(states).fill(-1);
    for (let r = 0; r < this.positions; r++) {
      const at = this.base[r];
      rankOf.fill(r, at, this.base[r + 1]);
      statusOf[at + 1] = AFTER_PASS;
      if (this.base[r + 1] - at === 2) continue;
      for (let mask = this.koMask(this.keys[r]), j = 0; mask !== 0; mask &= mask - 1, j++) {
        statusOf[at + 2 + j] = KO;
        koOf[at + 2 + j] = lowest(mask);
      }
    }
    this.decoded = { rankOf, statusOf, koOf };
    return this.decoded;
  }

  /**
   * The points where the player to move of position `key` may be barred from retaking, as a mask
   * (cycle-draw only; 0 else). The position's KO states follow its other two, one per point of the
   * mask in point order. `last`: the last point looked at (default: every point).
   */
  koMask(key: number, last = this.board.points - 1): number {
    let mask = 0;
    if (this.rule !== 'cycle-draw') return mask;
    for (let q = 0; q <= last; q++) if (this.koShape(moverOf(key), opponentOf(key), q)) mask |= 1 << q;
    return mask;
  }

  get positions(): number {
    return this.keys.length;
  }

  get states(): number {
    return this.base[this.keys.length];
  }

  keyOfState(state: number): number {
    return this.keys[this.rankOfState(state)];
  }

  /**
   * A state's rank and status. Without ko states every position has two (plain, after a pass), so
   * no per-state array is needed: a no-cycle solve whose moves do not fit in memory builds none.
   */
  rankOfState(state: number): number {
    return this.rule === 'cycle-draw' ? this.rankOf[state] : state >>> 1;
  }

  statusOfState(state: number): number {
    return this.rule === 'cycle-draw' ? this.statusOf[state] : state & 1;
  }

  /** The rank of a legal position's key, or -1. */
  rank(key: number): number {
    const { keys } = this;
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid];
      if (k === key) return mid;
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The state of position `key` with a status (and the ko point of a KO status), or -1. */
  stateOf(key: number, status: number, ko = -1): number {
    const { symmetry } = this;
    if (symmetry) {
      key = symmetry.canonical(key);
      if (ko >= 0) ko = symmetry.point(symmetry.last, ko);
    }
    const r = this.rank(key);
    if (r < 0) return -1;
    if (status !== KO) return this.base[r] + status;
    const mask = this.koMask(key, ko);
    return (mask >>> ko) & 1 ? this.base[r] + 2 + popcount(mask & ((1 << ko) - 1)) : -1;
  }

  /**
   * The state after a move that left position `key` (seen from the next player) and the ko point
   * SolveBoard.play set: a KO state under cycle-draw when there is one, else the plain state; -1
   * when the position is not legal.
   */
  stateAfterMove(key: number, koPoint: number): number {
    return this.rule === 'cycle-draw' && koPoint >= 0 ? this.stateOf(key, KO, koPoint) : this.stateOf(key, PLAIN);
  }

  /**
   * Whether the player to move may be barred from retaking at q: q is empty, every neighbour of q
   * is the opponent's, and one of them is a lone stone whose only liberty is q (it just took a
   * lone stone at q). This is exactly the shape SolveBoard.play leaves with koPoint = q.
   */
  private koShape(x: number, o: number, q: number): boolean {
    const { board } = this;
    const point = 1 << q;
    const around = board.neighbours[q];
    if (((x | o) & point) !== 0 || (around & ~o) !== 0) return false;
    const empty = board.full & ~(x | o);
    for (let rest = around; rest !== 0; rest &= rest - 1) {
      const p = lowest(rest);
      if ((board.neighbours[p] & o) === 0 && (board.neighbours[p] & empty) === point) return true;
    }
    return false;
  }
}

/**
 * Every legal position's key (only the canonical ones, with a symmetry), in increasing order: o
 * outer, x over the subsets of its complement.
 */
function legalKeys(board: SolveBoard, progress: PhaseProgress, symmetry: BoardSymmetry | undefined): Uint32Array {
  let found = new Uint32Array(1024);
  let count = 0;
  const { full } = board;
  for (let o = 0; o <= full; o++) {
    if ((o & 0xfff) === 0) progress(o, full + 1);
    const free = full & ~o;
    // Subsets of free in increasing order: x = (x - free) & free steps to the next one.
    for (let x = 0; ; x = (x - free) & free) {
      if (board.legal(x, o) && (!symmetry || symmetry.canonical(keyOf(x, o)) === keyOf(x, o))) {
        if (count === found.length) {
          const grown = new Uint32Array(count * 2);
          grown.set(found);
          found = grown;
        }
        found[count++] = keyOf(x, o);
      }
      if (x === free) break;
    }
  }
  return found.slice(0, count);
}
