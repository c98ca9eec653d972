/** Nouns that agree with their count: "1 point", "2 points", "1 modulus", "5 moduli". */

/** The noun for `count` of it: `one` for exactly 1, else `many` (by default `one` with an s). */
export function plural(count: number | bigint, one: string, many = `${one}s`): string {
  return count === 1 || count === 1n ? one : many;
}

/** The count and its noun: "1 point", "81 steps". */
export function counted(count: number | bigint, one: string, many = `${one}s`): string {
  return `${count} ${plural(count, one, many)}`;
}
