/**
 * Which worker owned a state before window ownership (lib/border/window-key.ts): a hash of the
 * state, by which counts of earlier versions shared their states out. `gocount verify` checks the
 * split runs of such a count (version 1) by it, and a count resumed from one reads them.
 */

/**
 * Low bits of a state that its owner does not depend on, at a board `width` wide: the fields the
 * last steps placed and the next ones replace (slot 0 is the field the next step replaces, slot 1
 * the one just placed, …). States that differ only there have many successors in common, and the
 * parents of one class are neighbours in state order: one worker then expands them together and
 * their successors combine in its batches (lib/border/expander-kernel.as.ts, fanOut) instead of in two tables.
 * The classes must stay many for the workers to get about equal shares: the rest of the border
 * keeps at least seven fields. At 11×11, leaving out four fields instead of one made the records
 * that reach the tables 6% fewer (docs/performance.md).
 */
export function ownerShift(width: number): number {
  return 3 * Math.min(4, Math.max(1, width - 7));
}

/**
 * Which worker owns a state: a multiplicative hash of the state without its ownerShift(width) low
 * bits, independent of the state table's slot hash, scaled to [0, workers) by its high bits (a
 * multiplication, where a remainder would cost a division for every successor in the kernel).
 */
export function ownerOf(hi: number, lo: number, workers: number, width: number): number {
  if (workers === 1) return 0;
  const h = Math.imul((lo >>> ownerShift(width)) ^ Math.imul(hi, 0x85ebca6b), 0x27d4eb2f) >>> 0;
  return Math.floor((h * workers) / 2 ** 32);
}
