/**
 * The rules of `gocount solve` on a board of at most 16 points, each colour's stones one 16-bit
 * mask. A position is seen from the player to move: x holds their stones, o the opponent's; its key
 * is x + o · 2^16. Suicide is illegal; a move captures every opponent string it leaves without a
 * liberty. Written for speed (no allocation per move), apart from lib/paper/go/rules.ts, which allows
 * suicide and serves the game graph of `gocount games`.
 */

import { UsageError } from '../../shared/errors.js';
import type { Scoring } from '../defaults.js';

export const MAX_SOLVE_POINTS = 16;

/** Key of the position x (player to move), o (opponent). */
export const keyOf = (x: number, o: number): number => (x | (o << 16)) >>> 0;
export const moverOf = (key: number): number => key & 0xffff;
export const opponentOf = (key: number): number => key >>> 16;
/** The same board seen from the other player. */
export const swapKey = (key: number): number => keyOf(opponentOf(key), moverOf(key));

/** The lowest point of a non-empty mask. */
export const lowest = (mask: number): number => 31 - Math.clz32(mask & -mask);

export class SolveBoard {
  readonly m: number;
  readonly n: number;
  readonly points: number;
  readonly full: number;
  /** Per point, the mask of its neighbours. Point p is row ⌊p / n⌋, column p mod n. */
  readonly neighbours: Uint16Array;
  /** After play(): stones captured, and where the last one stood. */
  captured = 0;
  capturedAt = -1;
  /** After play(): the point the opponent may not take back at once (simple ko), or -1. */
  koPoint = -1;

  constructor(
    m: number,
    n: number,
    readonly scoring: Scoring = 'tromp-taylor',
  ) {
    if (!Number.isInteger(m) || !Number.isInteger(n) || m < 1 || n < 1 || m * n > MAX_SOLVE_POINTS) {
      throw new UsageError(`board ${m}x${n}: solve handles boards of up to ${MAX_SOLVE_POINTS} points`, 'GOCOUNT_INVALID_SIZE');
    }
    this.m = m;
    this.n = n;
    this.points = m * n;
    this.full = (1 << this.points) - 1;
    this.neighbours = new Uint16Array(this.points);
    for (let p = 0; p < this.points; p++) {
      const r = Math.floor(p / n);
      const c = p % n;
      let mask = 0;
      if (r > 0) mask |= 1 << (p - n);
      if (r < m - 1) mask |= 1 << (p + n);
      if (c > 0) mask |= 1 << (p - 1);
      if (c < n - 1) mask |= 1 << (p + 1);
      this.neighbours[p] = mask;
    }
  }

  /** The points next to any point of mask. */
  around(mask: number): number {
    let result = 0;
    for (let rest = mask; rest !== 0; rest &= rest - 1) result |= this.neighbours[lowest(rest)];
    return result;
  }

  /** The string of `stones` through point p. */
  stringAt(stones: number, p: number): number {
    let string = 1 << p;
    for (;;) {
      const grown = string | (this.around(string) & stones);
      if (grown === string) return string;
      string = grown;
    }
  }

  /** Whether every string of `stones` touches `empty`. */
  allBreathe(stones: number, empty: number): boolean {
    for (let rest = stones; rest !== 0;) {
      const string = this.stringAt(stones, lowest(rest));
      if ((this.around(string) & empty) === 0) return false;
      rest &= ~string;
    }
    return true;
  }

  /** Whether every string of either colour has a liberty. */
  legal(x: number, o: number): boolean {
    const empty = this.full & ~(x | o);
    return this.allBreathe(x, empty) && this.allBreathe(o, empty);
  }

  /**
   * The player to move (x) plays at p: returns the key of the position after it, seen from the
   * opponent, or -1 when p is taken or the move is suicide. Sets captured, capturedAt and koPoint.
   */
  play(x: number, o: number, p: number): number {
    const stone = 1 << p;
    this.captured = 0;
    this.capturedAt = -1;
    this.koPoint = -1;
    if (((x | o) & stone) !== 0) return -1;
    const mine = x | stone;
    let theirs = o;
    for (let rest = this.neighbours[p] & o; rest !== 0; rest &= rest - 1) {
      const q = lowest(rest);
      if ((theirs & (1 << q)) === 0) continue; // already captured with an earlier neighbour
      const string = this.stringAt(theirs, q);
      if ((this.around(string) & this.full & ~(mine | theirs)) !== 0) continue;
      theirs &= ~string;
      this.captured += popcount(string);
      this.capturedAt = lowest(string);
    }
    const empty = this.full & ~(mine | theirs);
    const own = this.stringAt(mine, p);
    const liberties = this.around(own) & empty;
    if (liberties === 0) return -1;
    // One stone took one stone and is left in atari at that point: an immediate retake would repeat.
    if (this.captured === 1 && own === stone && liberties === 1 << this.capturedAt) this.koPoint = this.capturedAt;
    return keyOf(theirs, mine);
  }

  /**
   * The final score of a game the player to move (x) ends by passing second, from their view: their
   * stones and the empty points that reach only their stones, minus the opponent's; under
   * split-shared an odd point among those reaching both goes to the opponent, who passed first.
   */
  score(x: number, o: number): number {
    let total = popcount(x) - popcount(o);
    let shared = 0;
    let empty = this.full & ~(x | o);
    while (empty !== 0) {
      const region = this.stringAt(empty, lowest(empty));
      const border = this.around(region);
      const touchesX = (border & x) !== 0;
      const touchesO = (border & o) !== 0;
      if (touchesX && !touchesO) total += popcount(region);
      else if (touchesO && !touchesX) total -= popcount(region);
      else if (touchesO) shared += popcount(region);
      empty &= ~region;
    }
    return this.scoring === 'split-shared' ? total - (shared & 1) : total;
  }

  /** A point's name: column letter (a, b, …) and row number from 1, as on a diagram. */
  pointName(p: number): string {
    return `${String.fromCharCode(97 + (p % this.n))}${Math.floor(p / this.n) + 1}`;
  }

  /** A move's name: its point's, or 'pass' for a pass (p < 0, as forEachMove gives it). */
  moveName(p: number): string {
    return p < 0 ? 'pass' : this.pointName(p);
  }
}

export function popcount(mask: number): number {
  let v = mask - ((mask >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
