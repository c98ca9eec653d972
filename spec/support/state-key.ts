import { HIGH_UNIT } from '../../lib/border/layout.js';

/**
 * A border state as one exact key, for maps and ordering in tests: a width-19 state has 57 bits,
 * more than a double holds exactly, so hi · 2^32 + lo would merge states that differ in low bits.
 */
export const stateKey = (hi: number, lo: number): bigint => (BigInt(hi) << 32n) | BigInt(lo);

/** The words (hi, lo) of a state key. */
export const stateWords = (key: bigint): [number, number] => [Number(key >> 32n), Number(key & 0xffffffffn)];

/**
 * A state as one number, hi · 2^30 + lo, its value as the layout packs it: exact up to width
 * MAX_EXACT_NUMBER_WIDTH (17), and a Map key that costs no string or BigInt per state.
 */
export const stateNumber = (hi: number, lo: number): number => hi * HIGH_UNIT + lo;

/** The words (hi, lo) of a state number. */
export function numberWords(state: number): [number, number] {
  const hi = Math.floor(state / HIGH_UNIT);
  return [hi, state - hi * HIGH_UNIT];
}

/** Increasing order of state keys, for sort. */
export const byStateKey = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);
