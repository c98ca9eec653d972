/**
 * AssemblyScript: a step kept in memory, in groups (lib/engine/grouped-run.ts drives it, one instance
 * per worker). A state's window key (lib/border/window-key.ts) is the same for every state the steps
 * of its window lead it to, so the states of one key, and of one bucket of keys, have their
 * successors among themselves. A step therefore expands a group's parents and combines their
 * successors in a hash index of that group alone, which is small enough to stay in cache, and writes
 * its distinct states straight into the other area: no batch index, no state table, no drain, and
 * no copy between modules (docs/design.md, "Groups").
 *
 * Memory: fixed arrays, then two areas of records (hi, lo, k residues: u32 words), which take turns
 * holding a step's parents and its successors, each with its directory (where each group starts),
 * then two staging blocks through which the caller's batches come and go (one for what it sends,
 * one for what it receives, which may come in the middle of a send), and the index, which grows
 * with the largest group.
 *
 * At a window's first step among several workers the states change owner (partition, then the
 * caller's exchange): a worker's own states are put in groups in the other area, and those it
 * receives after them, in groups of their own (the third directory), so that a group's parents lie
 * in two ranges of one area.
 */

import { beginExpansion, expandState } from '../border/expansion.as';
import {
  bucketOf,
  colouredAt,
  keyOfColouredIn,
  outsideMask,
  setStringKeys,
  setWindow,
  sampledState,
  windowKey,
  windowKeyAt,
} from '../border/window-key.as';
import {
  addResidueVectors,
  copyResidues,
  copyResidueVectors,
  extendResidue,
  padResidues,
  reduceInto,
  sumTimes,
} from '../residues/residue-words.as';

/** Groups: the window keys' buckets. */
const GROUPS: i32 = 4096;
const MOST_RESIDUES: i32 = 64;
const LOW_BITS: u64 = 30;
/** Bit 2 of every field slot: a libertyless stone. */
const FIELD_FOURS: u64 = (((<u64>0o1111111111) << LOW_BITS) | 0o1111111111) << 2;
const GOLDEN: u64 = ((<u64>0x9e3779b9) << 32) | 0x7f4a7c15;
const PAGE_BYTES: u64 = 65536;
/** The largest table of foreseen key prefixes the state table plans with (2^16 prefixes). */
const MOST_PREFIXES: i32 = 1 << 16;
/** Workers a count's threads may be: tags are u16, GROUPS + an owner. */
const MOST_WORKERS: i32 = 1024;
/** The directory of the records received at a window's first step. */
const RECEIVED: i32 = 2;
/** orderGroups: records a block holds on average, the fewest a group it orders, and the most blocks' bits. */
const BLOCK_RECORDS: u32 = 16;
const LEAST_ORDERED: u32 = 64;
const MOST_BLOCK_BITS: i32 = 16;

// Fixed arrays.
let moduli: usize = 0; // u32 × MOST_RESIDUES
let dropped: usize = 0; // u32 × MOST_RESIDUES
let droppedSums: usize = 0; // u64 × MOST_RESIDUES: a group's additions to dropped, unreduced
let legal: usize = 0; // u64 × MOST_RESIDUES
let legalModuli: usize = 0; // u32 × MOST_RESIDUES: the parents' moduli, which legal is reduced by
let inverse: usize = 0; // u32 × 2 · MOST_RESIDUES²: the inverses, then their Shoup quotients
let reduced: usize = 0; // u32 × 2 · MOST_RESIDUES²: the reductions, then theirs
let extendScratch: usize = 0; // u64 × 2 · MOST_RESIDUES
let extended: usize = 0; // u32 × MOST_RESIDUES: a parent's residues, extended
let padded: usize = 0; // u32 × MOST_RESIDUES: a parent's residues, then zeros to a whole vector of four
let histogram: usize = 0; // u32 × GROUPS
let blockCursor: usize = 0; // u32 × 2^MOST_BLOCK_BITS: orderGroups' blocks of a group
let foreseen: usize = 0; // u32 × MOST_PREFIXES
let cursor: usize = 0; // u32 × (GROUPS + MOST_WORKERS + 1): each tag's next place
let tagStarts: usize = 0; // u32 × (GROUPS + MOST_WORKERS + 1): each tag's first place
let successors: usize = 0; // u64 × 3
let directory: usize = 0; // u32 × (GROUPS + 1) × 3: each area's group starts, then its record count; then the received records'
let owners: usize = 0; // u16 × GROUPS: each group's owner at a window's first step
let ownerStarts: usize = 0; // u32 × (MOST_WORKERS + 1): where each owner's records start after partition
let tags: usize = 0; // u16 per record of an area
let areas: usize = 0;
let areaBytes: usize = 0;
let staging: usize = 0;
let stagingBytes: usize = 0;
let index: usize = 0;
let indexSlots: usize = 0;

/** Successors the last step made, before combining. */
let made: f64 = 0;

export function heapBase(): usize {
  return __heap_base;
}

/**
 * Lays out the memory: two areas of `areaWords` u32 words each, whose records are at least
 * `leastWords` words, and a staging block of `stageWords` words. Returns false when the memory
 * cannot grow that far (4 GiB at most).
 */
export function init(areaWords: usize, leastWords: usize, stageWords: usize): bool {
  layoutEnd = (__heap_base + 15) & ~15;
  moduli = take(4 * MOST_RESIDUES);
  dropped = take(4 * MOST_RESIDUES);
  droppedSums = take(8 * MOST_RESIDUES);
  legal = take(8 * MOST_RESIDUES);
  legalModuli = take(4 * MOST_RESIDUES);
  inverse = take(8 * MOST_RESIDUES * MOST_RESIDUES);
  reduced = take(8 * MOST_RESIDUES * MOST_RESIDUES);
  extendScratch = take(16 * MOST_RESIDUES);
  extended = take(4 * MOST_RESIDUES);
  padded = take(4 * MOST_RESIDUES);
  histogram = take(4 * GROUPS);
  blockCursor = take(4 << MOST_BLOCK_BITS);
  foreseen = take(4 * MOST_PREFIXES);
  cursor = take(4 * (GROUPS + MOST_WORKERS + 1));
  tagStarts = take(4 * (GROUPS + MOST_WORKERS + 1));
  successors = take(8 * 3);
  directory = take(12 * (GROUPS + 1));
  owners = take(2 * GROUPS);
  ownerStarts = take(4 * (MOST_WORKERS + 1));
  tags = take((areaWords / leastWords) << 1);
  // 16 bytes past the last record: its residues are written in whole vectors of four (expandRange).
  areaBytes = ((areaWords << 2) + 16 + 15) & ~15;
  areas = take(areaBytes << 1);
  stagingBytes = stageWords << 2;
  staging = take(stagingBytes << 1);
  index = layoutEnd;
  indexSlots = 0;
  return grow(<u64>layoutEnd);
}

/** The fixed layout's end while init() lays it out. */
let layoutEnd: usize = 0;

/** `bytes` from the layout's end, 16-aligned. */
function take(bytes: usize): usize {
  const start = layoutEnd;
  layoutEnd = (layoutEnd + bytes + 15) & ~15;
  return start;
}

export function moduliAt(): usize {
  return moduli;
}
export function droppedAt(): usize {
  return dropped;
}
export function legalAt(): usize {
  return legal;
}
export function legalModuliAt(): usize {
  return legalModuli;
}
export function inverseAt(): usize {
  return inverse;
}
export function reducedAt(): usize {
  return reduced;
}
export function histogramAt(): usize {
  return histogram;
}
export function foreseenAt(): usize {
  return foreseen;
}
/** The staging block for records going out (0) or coming in (1). */
export function stagingAt(block: i32): usize {
  return staging + <usize>block * stagingBytes;
}
export function ownersAt(): usize {
  return owners;
}
export function ownerStart(owner: i32): u32 {
  return load<u32>(ownerStarts + ((<usize>owner) << 2));
}
export function areaAt(area: i32): usize {
  return areas + <usize>area * areaBytes;
}
/** Where group g of `area` starts (g = GROUPS: the area's record count). */
export function groupStart(area: i32, g: i32): u32 {
  return load<u32>(directory + ((<usize>(area * (GROUPS + 1) + g)) << 2));
}
export function successorsMade(): f64 {
  return made;
}

/**
 * Puts the n records of area `from` (k residues) into groups in area `to` from record `at` on, with
 * directory `dir` (an area's, or RECEIVED): each by the bucket of its key for the window of `rows`
 * rows from row r, its fields in the slots of step y.
 */
export function regroup(
  from: i32,
  n: u32,
  k: i32,
  y: i32,
  r: i32,
  rows: i32,
  width: i32,
  lastColumn: bool,
  to: i32,
  at: u32,
  dir: i32,
): void {
  setWindow(r, rows, width, lastColumn);
  setStringKeys(false);
  const stride = (<usize>(2 + k)) << 2;
  const source = areaAt(from);
  memory.fill(cursor, 0, (<usize>(GROUPS + 1)) << 2);
  for (let i: u32 = 0; i < n; i++) {
    const g = bucketOf(windowKeyAt(stateAt(source + <usize>i * stride), y));
    store<u16>(tags + ((<usize>i) << 1), <u16>g);
    const c = cursor + ((<usize>g) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
  placeByTag(source, n, stride, areaAt(to), at, directoryOf(dir), GROUPS);
  orderGroups(areaAt(to), directoryOf(dir), stride, source, width);
}

/**
 * At a window's first step among several workers: puts the n records of area `from` (k residues)
 * into the other area by their owner, the owner of their key's bucket for the window of `rows`
 * rows from row r (ownersAt(): each bucket's owner): this worker's (`self`) first, in groups by
 * their keys for the group window of `groupRows` rows from r, with that area's directory, then each
 * other owner's, from ownerStart(owner) on. Returns the number of this worker's.
 */
export function partition(
  from: i32,
  n: u32,
  k: i32,
  y: i32,
  r: i32,
  rows: i32,
  groupRows: i32,
  width: i32,
  lastColumn: bool,
  self: i32,
  workers: i32,
): u32 {
  setStringKeys(false);
  // Both windows start at row r: one decoding of a state serves both keys.
  setWindow(r, groupRows, width, lastColumn);
  const groupOutside = outsideMask();
  setWindow(r, rows, width, lastColumn);
  const ownerOutside = outsideMask();
  const stride = (<usize>(2 + k)) << 2;
  const source = areaAt(from);
  // Tags: this worker's groups 0 … GROUPS − 1, then GROUPS + each other owner.
  memory.fill(cursor, 0, (<usize>(GROUPS + workers + 1)) << 2);
  for (let i: u32 = 0; i < n; i++) {
    const coloured = colouredAt(stateAt(source + <usize>i * stride), y);
    const owner = <i32>load<u16>(owners + ((<usize>bucketOf(keyOfColouredIn(coloured, ownerOutside))) << 1));
    const tag = owner == self ? bucketOf(keyOfColouredIn(coloured, groupOutside)) : GROUPS + owner;
    store<u16>(tags + ((<usize>i) << 1), <u16>tag);
    const c = cursor + ((<usize>tag) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
  const to = 1 - from;
  placeByTag(source, n, stride, areaAt(to), 0, directoryOf(to), GROUPS + workers);
  orderGroups(areaAt(to), directoryOf(to), stride, source, width);
  // Each other owner's records start where its tag's did.
  for (let d = 0; d < workers; d++) store<u32>(ownerStarts + ((<usize>d) << 2), load<u32>(tagStarts + ((<usize>(GROUPS + d)) << 2)));
  store<u32>(ownerStarts + ((<usize>workers) << 2), n);
  return load<u32>(directoryOf(to) + ((<usize>GROUPS) << 2));
}

/**
 * Copies the n records at `source` (stride bytes) to `target` from record `at` on, ordered by their
 * tags (tags < tagCount, counted in cursor); writes the starts of tags 0 … GROUPS − 1 and, at
 * GROUPS, the start of tag GROUPS (the end of the groups), to `dir`. Leaves each tag's start in
 * tagStarts and its end in cursor.
 */
function placeByTag(source: usize, n: u32, stride: usize, target: usize, at: u32, dir: usize, tagCount: i32): void {
  let start = at;
  for (let t = 0; t < tagCount; t++) {
    const c = cursor + ((<usize>t) << 2);
    const size = load<u32>(c);
    store<u32>(c, start);
    store<u32>(tagStarts + ((<usize>t) << 2), start);
    if (t <= GROUPS) store<u32>(dir + ((<usize>t) << 2), start);
    start += size;
  }
  if (tagCount == GROUPS) store<u32>(dir + ((<usize>GROUPS) << 2), start);
  for (let i: u32 = 0; i < n; i++) {
    const c = cursor + ((<usize>load<u16>(tags + ((<usize>i) << 1))) << 2);
    const place = load<u32>(c);
    store<u32>(c, place + 1);
    copyResidues(target + <usize>place * stride, source + <usize>i * stride, <i32>(stride >> 2));
  }
}

/** Directory d: an area's (0, 1) or the received records' (RECEIVED). */
function directoryOf(d: i32): usize {
  return directory + ((<usize>(d * (GROUPS + 1))) << 2);
}

/**
 * Orders the records of each group of `dir` in `area` (stride bytes) by their states' high bits,
 * blocks of about BLOCK_RECORDS, as they came within a block: a counting sort through `scratch`
 * (the area the records came from, free by then), a group at a time. Parents alike in their high
 * fields then expand one after another: in 11×11's middle steps a group step took about 9% less
 * time in this order than in the order the records came in, while a hash of the states' other
 * fields, which puts siblings together in no order, took more (docs/performance.md, "In memory").
 * The order lasts through the window's steps: each writes its successors in its parents' order.
 */
function orderGroups(area: usize, dir: usize, stride: usize, scratch: usize, width: i32): void {
  const top = <u64>(3 * width);
  const words = <i32>(stride >> 2);
  for (let g = 0; g < GROUPS; g++) {
    const first = load<u32>(dir + ((<usize>g) << 2));
    const n = load<u32>(dir + ((<usize>(g + 1)) << 2)) - first;
    if (n < LEAST_ORDERED) continue;
    let bits = 1;
    while (bits < MOST_BLOCK_BITS && <u64>bits < top && (<u32>1) << bits < n / BLOCK_RECORDS) bits++;
    const shift = top - <u64>bits;
    const blocks = (<usize>1) << bits;
    memory.fill(blockCursor, 0, blocks << 2);
    const records = area + <usize>first * stride;
    for (let i: u32 = 0; i < n; i++) {
      const b = <u32>(stateAt(records + <usize>i * stride) >> shift);
      store<u16>(tags + ((<usize>i) << 1), <u16>b);
      const c = blockCursor + ((<usize>b) << 2);
      store<u32>(c, load<u32>(c) + 1);
    }
    let start: u32 = 0;
    for (let b: usize = 0; b < blocks; b++) {
      const c = blockCursor + (b << 2);
      const size = load<u32>(c);
      store<u32>(c, start);
      start += size;
    }
    for (let i: u32 = 0; i < n; i++) {
      const c = blockCursor + ((<usize>load<u16>(tags + ((<usize>i) << 1))) << 2);
      const place = load<u32>(c);
      store<u32>(c, place + 1);
      copyResidues(scratch + <usize>place * stride, records + <usize>i * stride, words);
    }
    memory.copy(records, scratch, <usize>n * stride);
  }
}

/**
 * The step that places point y of a board `width` wide (lastColumn: its last column), from the
 * records of area `from`, in groups, to the other area, in the same groups; with `received`, each
 * group's parents are also those of the RECEIVED directory, in the same area. Parents carry kIn
 * residues, successors kOut (kIn; more where the step needs more moduli: each parent's residues
 * are extended first, with the inverses and reductions at inverseAt() and reducedAt(); fewer at a
 * column's start: each successor takes its parent's first kOut).
 * Adds to droppedAt() what the parents send to dropped successors, and with sumLegal, to legalAt()
 * the residues of the legal parents, reduced by the kIn moduli at legalModuliAt(). Returns the successors' number; −1 when more than `capacity`
 * of them would be written, or a group's index cannot fit in the memory (the parents are left as
 * they were), −2 when a parent of the last column has a field above y − 1 on its border.
 */
export function groupStep(
  from: i32,
  received: bool,
  kIn: i32,
  kOut: i32,
  y: i32,
  width: i32,
  lastColumn: bool,
  sumLegal: bool,
  capacity: u32,
): i32 {
  forgotten = beginExpansion(y, width, lastColumn);
  stepIn = kIn;
  stepOut = kOut;
  strideIn = (<usize>(2 + kIn)) << 2;
  strideOut = (<usize>(2 + kOut)) << 2;
  source = areaAt(from);
  const to = 1 - from;
  target = areaAt(to);
  summingLegal = sumLegal;
  outOf = capacity;
  const dirIn = directoryOf(from);
  const dirMore = directoryOf(RECEIVED);
  const dirOut = directoryOf(to);
  written = 0;
  made = 0;
  memory.fill(droppedSums, 0, (<usize>kOut) << 3);
  // Moduli of 0 past the last leave the words they add to as they were (addResidueVectors).
  for (let r = kOut; r < ((kOut + 3) & ~3); r++) store<u32>(moduli + ((<usize>r) << 2), 0);
  for (let g = 0; g < GROUPS; g++) {
    store<u32>(dirOut + ((<usize>g) << 2), written);
    const first = load<u32>(dirIn + ((<usize>g) << 2));
    const end = load<u32>(dirIn + ((<usize>(g + 1)) << 2));
    const more = received ? load<u32>(dirMore + ((<usize>g) << 2)) : 0;
    const moreEnd = received ? load<u32>(dirMore + ((<usize>(g + 1)) << 2)) : 0;
    const n = end - first + moreEnd - more;
    if (n == 0) continue;
    // At most 3n distinct successors: 4n slots keep the index at most three quarters full.
    let bits = 4;
    while ((<usize>1) << bits < (<usize>n) << 2) bits++;
    const slots = (<usize>1) << bits;
    if (!ensureIndex(slots)) return -1;
    memory.fill(index, 0, slots << 2);
    groupFirst = written;
    const failed = expandRange(first, end, bits) || expandRange(more, moreEnd, bits);
    if (failed) return failure;
    // Reduced once a group, so that the sums stay exact: a group holds fewer than 2^30 states.
    reduceInto(dropped, droppedSums, moduli, kOut);
    if (sumLegal) {
      // Reduced once a group, so that the sums stay exact: a group holds fewer than 2^32 states.
      for (let r = 0; r < kIn; r++) {
        const sum = legal + ((<usize>r) << 3);
        store<u64>(sum, load<u64>(sum) % <u64>load<u32>(legalModuli + ((<usize>r) << 2)));
      }
    }
  }
  store<u32>(dirOut + ((<usize>GROUPS) << 2), written);
  return <i32>written;
}

// The step under way, for expandRange.
let forgotten: u64 = 0;
let stepIn: i32 = 0;
let stepOut: i32 = 0;
let strideIn: usize = 0;
let strideOut: usize = 0;
let source: usize = 0;
let target: usize = 0;
let summingLegal = false;
let outOf: u32 = 0;
let written: u32 = 0;
/** The first successor of the group under way. */
let groupFirst: u32 = 0;
/** Why expandRange stopped: −1 or −2, as groupStep returns. */
let failure: i32 = 0;

/**
 * Expands parents [first, end) of the step's source and combines their successors into the
 * group's, through the index of 2^bits slots. Returns true when it had to stop (failure says why).
 */
function expandRange(first: u32, end: u32, bits: i32): bool {
  const mask = <u32>(((<usize>1) << bits) - 1);
  const shift = <u64>(64 - bits);
  const kIn = stepIn;
  const kOut = stepOut;
  const vectors = (kOut + 3) >> 2;
  for (let i = first; i < end; i++) {
    const at = source + <usize>i * strideIn;
    const s = stateAt(at);
    if ((s & forgotten) != 0) {
      failure = -2;
      return true;
    }
    let residues = at + 8;
    if (summingLegal && (s & FIELD_FOURS) == 0) {
      for (let r = 0; r < kIn; r++) {
        const sum = legal + ((<usize>r) << 3);
        store<u64>(sum, load<u64>(sum) + <u64>load<u32>(residues + ((<usize>r) << 2)));
      }
    }
    if (kOut > kIn) {
      extendResidue(residues, extended, kIn, kOut, moduli, inverse, reduced, extendScratch);
      residues = extended;
    }
    // The parent's residues, then zeros: each successor's record takes them in whole vectors, the
    // words past its residues (the next record's, or the area's slack) kept or not yet used.
    padResidues(padded, residues, kOut, vectors);
    const m = inline.always(expandState(s, successors));
    made += <f64>m;
    if (m < 3) sumTimes(droppedSums, residues, <u64>(3 - m), kOut);
    for (let j = 0; j < m; j++) {
      const key = load<u64>(successors + ((<usize>j) << 3)); // hi in its low half, lo in its high half
      let h = <u32>((key * GOLDEN) >> shift);
      for (;;) {
        const slot = index + ((<usize>h) << 2);
        const e = load<u32>(slot);
        if (e == 0) {
          if (written >= outOf) {
            failure = -1;
            return true;
          }
          const record = target + <usize>written * strideOut;
          store<u64>(record, key);
          copyResidueVectors(record + 8, padded, vectors);
          written++;
          store<u32>(slot, written - groupFirst);
          break;
        }
        const record = target + <usize>(groupFirst + e - 1) * strideOut;
        if (load<u64>(record) == key) {
          addResidueVectors(record + 8, padded, moduli, vectors);
          break;
        }
        h = (h + 1) & mask;
      }
    }
  }
  return false;
}

/**
 * Adds 1 to histogram[bucketOf(windowKey(state))] for one in mask + 1 of the n records of `area`
 * (k residues; picked by a hash of the state, sampledState), for the window of `rows` rows from row r, the states' step: the weights by which
 * the owners of the next window are packed (lib/engine/window-owners.ts).
 */
export function sampleKeys(area: i32, n: u32, k: i32, mask: u32, r: i32, rows: i32, width: i32, lastColumn: bool): void {
  setWindow(r, rows, width, lastColumn);
  setStringKeys(false);
  const stride = (<usize>(2 + k)) << 2;
  const source = areaAt(area);
  for (let i: u32 = 0; i < n; i++) {
    const s = stateAt(source + <usize>i * stride);
    if (!sampledState(s, mask)) continue;
    const b = histogram + ((<usize>bucketOf(windowKey(s))) << 2);
    store<u32>(b, load<u32>(b) + 1);
  }
}

/**
 * Counts, for the state table's next bucket plan, the key prefix each of the n records' successors
 * is expected to have: (state >> shift) & mask, as the table tallies what it drains.
 */
export function foresee(area: i32, n: u32, k: i32, shift: u32, mask: u32): void {
  const stride = (<usize>(2 + k)) << 2;
  const source = areaAt(area);
  for (let i: u32 = 0; i < n; i++) {
    const b = foreseen + ((<usize>((stateAt(source + <usize>i * stride) >> shift) & mask)) << 2);
    store<u32>(b, load<u32>(b) + 1);
  }
}

/** Records [from, from + n) of `area` (k residues) to staging block 0: their (hi, lo) pairs, then their residues, k words each. */
export function exportRecords(area: i32, from: u32, n: u32, k: i32): void {
  const stride = (<usize>(2 + k)) << 2;
  let record = areaAt(area) + <usize>from * stride;
  let states = staging;
  let residues = staging + ((<usize>n) << 3);
  const bytes = (<usize>k) << 2;
  for (let i: u32 = 0; i < n; i++, record += stride, states += 8, residues += bytes) {
    store<u64>(states, load<u64>(record));
    copyResidues(residues, record + 8, k);
  }
}

/** Staging block `block`'s n records ((hi, lo) pairs, then k residues each) into `area` from record `at` on. */
export function importRecords(area: i32, at: u32, n: u32, k: i32, block: i32): void {
  const stride = (<usize>(2 + k)) << 2;
  let record = areaAt(area) + <usize>at * stride;
  let states = stagingAt(block);
  let residues = states + ((<usize>n) << 3);
  const bytes = (<usize>k) << 2;
  for (let i: u32 = 0; i < n; i++, record += stride, states += 8, residues += bytes) {
    store<u64>(record, load<u64>(states));
    copyResidues(record + 8, residues, k);
  }
}

/** A record's state as s = hi · 2^30 + lo. */
function stateAt(record: usize): u64 {
  return ((<u64>load<u32>(record)) << LOW_BITS) | (<u64>load<u32>(record, 4));
}

/** Room for an index of `slots` slots; false when the memory cannot grow that far (the step then goes the usual way). */
function ensureIndex(slots: usize): bool {
  if (slots <= indexSlots) return true;
  if (!grow(<u64>index + ((<u64>slots) << 2))) return false;
  indexSlots = slots;
  return true;
}

/** Grows the memory to hold `end` bytes; false past 4 GiB or when the engine refuses. */
function grow(end: u64): bool {
  const have = <u64>memory.size() * PAGE_BYTES;
  if (end <= have) return true;
  if (end > (<u64>1) << 32) return false;
  return memory.grow(<i32>((end - have + PAGE_BYTES - 1) / PAGE_BYTES)) >= 0;
}
