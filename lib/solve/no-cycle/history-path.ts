/**
 * The path of a no-cycle history search: the game's positions so far, each a situation (its
 * position's rank, and the parity of the moves since the search's start: which player is to move),
 * kept so that every question the search asks of its history costs the same however long it is.
 *
 * - `depthOf`: where a situation first occurs on the path, or -1: the superko rule.
 * - `filter`: the situations on the path as a bit set (hashed on large boards), to test at once
 *   whether any of them lies in a set of situations a stored result reached (lib/solve/no-cycle/history-table.ts).
 * - `breaks`: whether the path threatens a forced bound (lib/solve/cycle-draw/forced-bounds.ts): for each
 *   parity and each threshold t, the earliest entry into L among the plain states of the path's
 *   positions that are in L at threshold t or above.
 */

import type { ForcedBounds } from '../cycle-draw/forced-bounds.js';
import type { StateSpace } from '../rules/state-space.js';
import { NONE } from '../cycle-draw/threshold-sets.js';

/**
 * The most situations whose filters are exact, a bit each: 1×11's 101,982 (12.5 KiB a filter). Above
 * it a filter hashes them into 2,048 bits, and a stored result is often refused for a situation
 * its proof never met, which stalls long searches: 1×9 (13,298 situations), hashed, had not valued
 * 1% of its states in 600 s; exact, its whole database takes 4 s.
 */
export const EXACT_SITUATIONS = 2 ** 17;
/** The bits a hashed filter has. */
export const HASHED_BITS = 2048;

/**
 * How situations map to the bits of a filter: exact up to exactUpTo situations, hashed above into
 * hashedBits (a power of two).
 */
export class SituationBits {
  readonly words: number;
  readonly exact: boolean;
  private readonly shift: number;

  constructor(situations: number, exactUpTo = EXACT_SITUATIONS, hashedBits = HASHED_BITS) {
    this.exact = situations <= exactUpTo;
    // Exact filters take whole groups of words, not a power of two: 1×11's 101,982 situations
    // fit in 3,200 words where a power of two takes 4,096, and the same budget holds more entries.
    this.words = this.exact ? wholeGroups(Math.ceil(situations / 32)) : hashedBits >>> 5;
    this.shift = 32 - Math.log2(hashedBits >>> 1);
  }

  /** A situation's bit; the parity is the lowest bit, so swapping parities swaps adjacent bits. */
  bitOf(situation: number): number {
    if (this.exact) return situation;
    return ((Math.imul(situation >>> 1, 0x9e3779b1) >>> this.shift) << 1) | (situation & 1);
  }
}

/**
 * Words per group of a filter of this many words, as a shift: a 32nd of the filter, rounded up
 * to a power of two, or one word. A record marks the groups it has touched in one 32-bit word.
 */
export function groupShiftOf(words: number): number {
  return Math.max(0, Math.ceil(Math.log2(words)) - 5);
}

/** At least this many words, in whole groups. */
function wholeGroups(words: number): number {
  const size = 2 ** groupShiftOf(words);
  return Math.ceil(words / size) * size;
}

/** A filter word with the parities of its situations swapped. */
export function swapParities(word: number): number {
  return ((word & 0x55555555) << 1) | ((word >>> 1) & 0x55555555);
}

export class HistoryPath {
  /** Where each situation first occurs on the path, or -1. */
  readonly depthOf: Int32Array;
  /** The situations on the path, by bit (see SituationBits). */
  readonly filter: Uint32Array;
  /** How many situations of the path are on the path: its length. */
  length = 0;
  private readonly counts: Uint32Array;
  /** The situations on the path, in order: [0, length). */
  situations = new Int32Array(64);
  /** Per parity, a stack of arrays by threshold (t + points): the earliest entry into L. */
  private earliest: [Uint32Array, Uint32Array];
  private readonly tops = [0, 0];
  private readonly thresholds: number;
  private readonly points: number;

  constructor(
    private readonly space: StateSpace,
    readonly bits: SituationBits,
    private readonly bounds?: ForcedBounds,
  ) {
    this.depthOf = new Int32Array(space.positions * 2).fill(-1);
    this.filter = new Uint32Array(bits.words);
    this.counts = new Uint32Array(bits.words * 32);
    this.points = space.board.points;
    this.thresholds = 2 * this.points + 1;
    this.earliest = [new Uint32Array(this.thresholds * 16).fill(0xffffffff), new Uint32Array(this.thresholds * 16).fill(0xffffffff)];
  }

  situation(s: number, parity: number): number {
    return this.space.rankOfState(s) * 2 + parity;
  }

  push(s: number, parity: number): void {
    const situation = this.situation(s, parity);
    if (this.length === this.situations.length) this.situations = grown(this.situations);
    this.situations[this.length] = situation;
    if (this.depthOf[situation] < 0) this.depthOf[situation] = this.length;
    this.length++;
    const bit = this.bits.bitOf(situation);
    if (this.counts[bit]++ === 0) this.filter[bit >>> 5] |= 1 << (bit & 31);
    if (this.bounds) this.pushThreats(s, parity);
  }

  pop(): void {
    const situation = this.situations[--this.length];
    if (this.depthOf[situation] === this.length) this.depthOf[situation] = -1;
    const bit = this.bits.bitOf(situation);
    if (--this.counts[bit] === 0) this.filter[bit >>> 5] &= ~(1 << (bit & 31));
    if (this.bounds) this.tops[situation & 1]--;
  }

  /**
   * Whether a position of the path with this parity has a plain state that entered L at threshold
   * t or above before `entered`: then a forcing strategy that entered its set at `entered` may have
   * to recreate it.
   */
  breaks(parity: number, t: number, entered: number): boolean {
    return this.earliest[parity][this.tops[parity] * this.thresholds + t + this.points] < entered;
  }

  private pushThreats(s: number, parity: number): void {
    const plain = this.space.base[this.space.rankOfState(s)];
    const { highestL, enteredL } = this.bounds!;
    const width = this.thresholds;
    const top = this.tops[parity];
    if ((top + 2) * width > this.earliest[parity].length) this.earliest[parity] = grown(this.earliest[parity]);
    const stack = this.earliest[parity];
    stack.copyWithin((top + 1) * width, top * width, (top + 1) * width);
    this.tops[parity] = top + 1;
    if (highestL[plain] === NONE) return;
    const at = (top + 1) * width;
    const last = highestL[plain] + this.points;
    const entered = enteredL[plain];
    for (let i = 0; i <= last; i++) if (entered < stack[at + i]) stack[at + i] = entered;
  }
}

type GrowableArray = Int32Array | Uint32Array | Int16Array | Uint16Array | Uint8Array | Int8Array;

/** A copy of a typed array with room for `length` items (by default twice as many). */
export function grown<T extends GrowableArray>(array: T, length = array.length * 2): T {
  const bigger = new (array.constructor as new (length: number) => T)(length);
  bigger.set(array);
  return bigger;
}
