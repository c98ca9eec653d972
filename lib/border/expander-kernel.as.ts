/**
 * AssemblyScript: the successor expansion of lib/border/expander.ts over whole batches
 * (expander-kernel.ts drives it), compiled to WebAssembly by `npm run build` (asc). One call expands
 * a batch of parents (expansion.as.ts expands each), then hands their successors with their
 * residues to their owners (fanOut).
 *
 * Memory belongs to the caller (lib/border/expander-kernel.ts), which places the parents, the
 * successors and the per-parent counts above heapBase().
 */

import { beginExpansion, expandState } from './expansion.as';
import { bucketOf, setStringKeys, setWindow, windowKey } from './window-key.as';
import { addResidues, copyResidues, extendResidue, reduceInto, sumTimes } from '../residues/residue-words.as';

/** An empty slot of fanOut's cache. */
const NONE_SLOT: u32 = 0xffffffff;
/** 2^64 / φ, for multiplicative hashing; in halves, since the linter reads a 64-bit literal as a JS number. */
const GOLDEN: u64 = ((<u64>0x9e3779b9) << 32) | 0x7f4a7c15;

const LOW_BITS: u64 = 30;
/** fanOut's tally of what parents send to dropped successors, unreduced: u64 × a pass's most residues (expander-kernel.ts refuses more). */
const droppedSums = memory.data(8 * 64);

/** Where the caller's memory starts. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * Expands the n parents at `parents` ((hi, lo) u32 pairs) for step `step` of a board `boardWidth`
 * wide (lastColumn: its last column). Writes the successors contiguously at `successors` as (hi, lo)
 * pairs for the next step, and each parent's number of successors as a byte at counts + i. Returns
 * the number of successors, or −1 when a parent in the last column still has a field above y − 1
 * on the border (a count reaches step y of that column only through its steps 0 … y − 1, which
 * forget them).
 */
export function expandBatch(parents: usize, n: i32, step: i32, boardWidth: i32, lastColumn: bool, successors: usize, counts: usize): i32 {
  const forgotten = beginExpansion(step, boardWidth, lastColumn);
  let out = successors;
  for (let i = 0; i < n; i++) {
    const at = parents + ((<usize>i) << 3);
    const s = ((<u64>load<u32>(at)) << LOW_BITS) | (<u64>load<u32>(at + 4));
    if ((s & forgotten) != 0) return -1;
    const made = inline.always(expandState(s, out));
    store<u8>(counts + i, <u8>made);
    out += (<usize>made) << 3;
  }
  return <i32>((out - successors) >> 3);
}

/**
 * Sets the window for fanOut's keys (window-key.as.ts): its first row, rows and whether in the
 * board's last column; `strings`: string keys (setStringKeys).
 */
export function keyWindow(r: i32, rows: i32, boardWidth: i32, lastColumn: bool, strings: bool): void {
  setWindow(r, rows, boardWidth, lastColumn);
  setStringKeys(strings);
}

/**
 * Sends the successors of the last expandBatch, each with its parent's k residues (at `residues`,
 * k words a parent), to the region of its owner. The region of owner d starts at regions +
 * d · regionBytes: its states as (hi, lo) pairs, then from `residueOffset` on its residues, k words
 * a record; sizes + 4d receives its number of records. Inside a window (lib/border/window-key.ts)
 * every successor stays with this worker, `self`; at a window's first step (`owners` ≠ 0, a u16
 * per key bucket) a parent's successors go to owners[bucketOf(windowKey(parent))], the keyWindow
 * set, which they share with it.
 * Equal successors met close together are combined on the way, their residues added modulo
 * moduli[r]: siblings (parents equal but for the field the step replaces) share most of their
 * successors, and a parent's siblings are near it in state order, so about two fifths of the
 * successors never reach the state table. The cache at `index` holds 2^indexBits slots (u32,
 * (record << 8) | owner), then their keys (cacheKeys).
 * What the parents send to dropped successors, times × residue for each missing successor, is added
 * modulo moduli[r] (u32 at `moduli`) to the u32 tally at `dropped`.
 */
export function fanOut(
  n: i32,
  k: i32,
  residues: usize,
  successors: usize,
  counts: usize,
  parents: usize,
  regionCount: i32,
  self: i32,
  owners: usize,
  regions: usize,
  regionBytes: usize,
  residueOffset: usize,
  sizes: usize,
  moduli: usize,
  dropped: usize,
  index: usize,
  indexBits: i32,
): void {
  for (let d = 0; d < regionCount; d++) store<u32>(sizes + ((<usize>d) << 2), 0);
  // A direct-mapped cache of the last successors made, not an index of all: equal successors come
  // from siblings, near each other in a sorted batch, and a repeat that was pushed out combines in
  // the state table. A look-up reads one slot and its key, with no probing and not the regions.
  const shift = <u64>(64 - indexBits);
  memory.fill(index, 0xff, (<usize>1) << (<usize>indexBits + 2));
  const keys = cacheKeys(index, indexBits);
  const recordBytes = (<usize>k) << 2;
  memory.fill(droppedSums, 0, (<usize>k) << 3);
  let from = successors;
  for (let i = 0; i < n; i++) {
    const count = <i32>load<u8>(counts + i);
    const src = residues + <usize>i * recordBytes;
    let d = self;
    if (owners != 0 && count > 0) {
      const at = parents + ((<usize>i) << 3);
      const parent = ((<u64>load<u32>(at)) << LOW_BITS) | (<u64>load<u32>(at + 4));
      d = <i32>load<u16>(owners + ((<usize>bucketOf(windowKey(parent))) << 1));
    }
    for (let s = 0; s < count; s++, from += 8) {
      const key = load<u64>(from); // hi in its low half, lo in its high half
      const h = <usize>((key * GOLDEN) >> shift);
      const slot = index + (h << 2);
      const e = load<u32>(slot);
      if (e != NONE_SLOT && load<u64>(keys + (h << 3)) == key) {
        const region = regions + <usize>(e & 0xff) * regionBytes;
        addResidues(region + residueOffset + <usize>(e >> 8) * recordBytes, src, moduli, k);
        continue;
      }
      const sizeAt = sizes + ((<usize>d) << 2);
      const j = <usize>load<u32>(sizeAt);
      store<u32>(sizeAt, <u32>(j + 1));
      store<u32>(slot, ((<u32>j) << 8) | (<u32>d));
      store<u64>(keys + (h << 3), key);
      const region = regions + <usize>d * regionBytes;
      store<u64>(region + (j << 3), key);
      copyResidues(region + residueOffset + j * recordBytes, src, k);
    }
    if (count < 3) sumTimes(droppedSums, src, <u64>(3 - count), k);
  }
  // A batch's parents are far fewer than the 2^30 additions the sums take exactly.
  reduceInto(dropped, droppedSums, moduli, k);
}

/** Where fanOut's cache keeps its slots' keys: u64, after the 2^indexBits u32 slots, 8-aligned. */
function cacheKeys(index: usize, indexBits: i32): usize {
  return (index + ((<usize>1) << (<usize>indexBits + 2)) + 7) & ~(<usize>7);
}

/**
 * Extends the residues of n parents from the first `from` moduli to the first `to`, in place: parent
 * i's `from` words at residues + 4·from·i become its `to` words at residues + 4·to·i (the last parent
 * first, so no input is overwritten before it is read), by extendResidue (residue-words.as.ts).
 */
export function extendResidues(
  n: i32,
  from: i32,
  to: i32,
  residues: usize,
  moduli: usize,
  inverse: usize,
  reduced: usize,
  scratch: usize,
): void {
  for (let i = n - 1; i >= 0; i--) {
    extendResidue(residues + <usize>i * <usize>from * 4, residues + <usize>i * <usize>to * 4, from, to, moduli, inverse, reduced, scratch);
  }
}
