/**
 * A border state as one exact key, for maps and ordering in tests: a width-19 state has 57 bits,
 * more than a double holds exactly, so hi · 2^32 + lo would merge states that differ in low bits.
 */
export const stateKey = (hi: number, lo: number): bigint => (BigInt(hi) << 32n) | BigInt(lo);

/** The words (hi, lo) of a state key. */
export const stateWords = (key: bigint): [number, number] => [Number(key >> 32n), Number(key & 0xffffffffn)];

/** Increasing order of state keys, for sort. */
export const byStateKey = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);
