/**
 * Windows and their keys: who holds a state among several worker threads.
 *
 * A column's steps are cut into windows of `rows` consecutive rows (r … r + rows − 1, fewer at the
 * column's end). A step replaces one border field, and the point it places touches only the field
 * it replaces and the one above it, so no step of a window changes, outside the window's fields,
 * whether a field is EDGE, EMPTY or a stone, nor a stone's colour. The **window key** of a state is
 * just that, at the window's first step: each field outside by its kind and, for a stone, its
 * colour against the stone in the lowest slot outside (the class normalisation may flip every
 * colour of a state, never one against another). In the board's last column each step forgets the
 * field above the point it places, so the row above the window is left out there.
 *
 * So every state a window's first step leads to within the window has that state's key: the owner
 * given a key at a window's first step holds all of them, no successor inside a window changes
 * owner, and no state is held twice (spec/unit/window-key.spec checks it on every state of small
 * boards). A key that also told the strings' liberties and links apart would make more classes, but
 * it is not kept: a string with a member in the window can lose it, and then looks like one that
 * never had one, so two owners would make the same states. States change owner once a window, at
 * its first step, by the bucket of their key (bucketOf, 2^12 buckets), and the buckets are packed
 * onto the owners by weight (lib/engine/window-owners.ts). This file is the reference;
 * window-key.as.ts is the kernels'.
 */

import { BorderStates, DOWN, LIBERTYLESS, LIBERTYLESS_CODE, STONE, UP } from './border.js';
import { FIELD_BITS } from './layout.js';

const BUCKET_BITS = 12;
/** Key buckets: the kernels' BUCKET_BITS too (window-key.as.ts). */
export const BUCKETS = 2 ** BUCKET_BITS;

const GOLDEN = 0x9e3779b97f4a7c15n;

/**
 * Rows per window by default, for `workers` owners at a board `width` wide: longer windows move
 * fewer records (and a partitioned count's tasks write fewer steps), but leave fewer fields outside
 * the window to tell the keys apart, so that the heaviest ones weigh more than a share. Measured
 * (docs/performance.md, "Owners by window"): up to 4 owners, 4 rows at widths up to 10 and half the
 * width from 11 on (two windows a column, each with at least 5 fields outside); 2 for more owners.
 */
export function defaultWindowRows(width: number, workers: number): number {
  const rows = workers > 4 ? 2 : width >= 11 ? Math.ceil(width / 2) : 4;
  return Math.max(1, Math.min(width - 1, rows));
}

/** Whether the step that places row y is a window's first. */
export function isWindowStart(y: number, rows: number): boolean {
  return y % rows === 0;
}

/** The key of the state (hi, lo) at step r, the first of a window of `rows` rows, as a 64-bit integer. */
export function windowKey(hi: number, lo: number, r: number, rows: number, width: number, lastColumn: boolean): bigint {
  const border = new BorderStates(width);
  if (!border.decode(hi, lo, r)) throw new RangeError(`not a border state of width ${width} at step ${r}`);
  return keyOfBorder(border.kind, border.colour, r, rows, lastColumn);
}

/**
 * The window key of a decoded border (kind and colour per field, as BorderStates.decode leaves
 * them), for the window of `rows` rows from row r: the same at any step of the window.
 */
export function keyOfBorder(kind: Uint8Array, colour: Uint8Array, r: number, rows: number, lastColumn: boolean): bigint {
  const width = kind.length;
  const last = Math.min(width, r + rows); // the window is fields r … last − 1
  const slotOf = (i: number) => (i <= r ? r - i : r - i + width);
  const outside = (i: number) => (i < r || i >= last) && !(i === r - 1 && lastColumn);
  let reference = -1;
  let lowest = Infinity;
  for (let i = 0; i < width; i++) {
    if (outside(i) && kind[i] >= STONE && slotOf(i) < lowest) {
      lowest = slotOf(i);
      reference = colour[i];
    }
  }
  let key = 0n;
  for (let i = 0; i < width; i++) {
    if (!outside(i)) continue;
    const code = kind[i] >= STONE ? 2 + (colour[i] ^ reference) : kind[i];
    key |= BigInt(code) << BigInt(FIELD_BITS * slotOf(i));
  }
  return key;
}

/**
 * The string key of a decoded border (`group` too, as BorderStates.decode leaves it): the window
 * key, with each libertyless field outside whose string has no stone on fields r − 1 … r + rows − 1
 * (the fields a window's points touch) coded 4 + UP + DOWN by its links to its string's other
 * fields (above it, below it) instead of by its colour. It tells many more states apart, so that
 * many owners get even shares, but it is not the same at every step of a window: a string that
 * loses its last stone there looks like one that never had one. A partitioned count, which splits
 * every step's runs by the key of each state, uses it with more than STRING_KEYS_FROM owners:
 * then a state whose key changes moves, and none is held twice.
 */
export function stringKeyOfBorder(
  kind: Uint8Array,
  colour: Uint8Array,
  group: Uint8Array,
  r: number,
  rows: number,
  lastColumn: boolean,
): bigint {
  const width = kind.length;
  let key = keyOfBorder(kind, colour, r, rows, lastColumn);
  const last = Math.min(width, r + rows);
  const slotOf = (i: number) => (i <= r ? r - i : r - i + width);
  const outside = (i: number) => (i < r || i >= last) && !(i === r - 1 && lastColumn);
  const touched = new Set<number>();
  for (let i = Math.max(0, r - 1); i < last; i++) if (kind[i] === LIBERTYLESS) touched.add(group[i]);
  for (let i = 0; i < width; i++) {
    if (!outside(i) || kind[i] !== LIBERTYLESS || touched.has(group[i])) continue;
    let links = LIBERTYLESS_CODE;
    for (let j = 0; j < width; j++) {
      if (j !== i && kind[j] === LIBERTYLESS && group[j] === group[i]) links |= j < i ? UP : DOWN;
    }
    const at = BigInt(FIELD_BITS * slotOf(i));
    key = (key & ~(7n << at)) | (BigInt(links) << at);
  }
  return key;
}

/** Owners above which a partitioned count keys its states by their strings too (stringKeyOfBorder): a window key's classes are too few for more. */
export const STRING_KEYS_FROM = 16;

/** The bucket of a key: the high bits of a multiplicative hash, as window-key.as.ts's bucketOf. */
export function bucketOf(key: bigint): number {
  return Number(((key * GOLDEN) & 0xffffffffffffffffn) >> BigInt(64 - BUCKET_BITS));
}
