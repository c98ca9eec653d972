/**
 * AssemblyScript: the hot loops of a shard of lib/engine/state-table.ts (table-shard.ts loads this
 * module, one instance per shard), compiled to WebAssembly by `npm run build` (asc). The JavaScript class keeps the plan (bucket ranges, sizes, when to drain)
 * and the sinks; this module appends records to their buckets, combines equal states in a small
 * hash index per bucket, and turns a bucket into sort keys and back into records in key order.
 *
 * A state is held here as one 64-bit integer, s = hi · 2^30 + lo, so a key prefix is one shift.
 * Records are (hi, lo, residues…) u32 words, as in the JavaScript table; in memory the first two
 * words read as the u64 hi + lo · 2^32, which is as good as s for hashing and equality.
 *
 * The caller lays out the fixed arrays above heapBase() and passes their addresses to init(). Above
 * them, from `scratch`, this module keeps the regions whose size depends on the work: the staged
 * input batch (first, so that it never moves while a batch is being added), the combining index, the
 * sort keys with their record offsets, and the records of a bucket in order (`order`). They grow with memory.grow, which detaches the caller's
 * views: the caller renews them after each call that may grow (see the exports below).
 */

import { putKey } from './record-codec.as';
import { bucketOf as keyBucketOf, KEY_BUCKETS, sampledState, setStringKeys, setWindow, windowKey } from '../border/window-key.as';
import { addResidues, copyResidues, copyResiduesAndSum } from '../residues/residue-words.as';

const NONE: i32 = -1;
const LOW_BITS: u64 = 30;
const LOW_MASK: u64 = (1 << LOW_BITS) - 1;
const PAGE_BYTES: u64 = 65536;
/** Room for records copied or encoded for the caller, a slice of a bucket at a time: L2-sized. */
const OUT_BYTES: usize = 1 << 18;

// Fixed arrays (addresses set by init) and their shape.
let records: usize = 0;
let next: usize = 0;
let first: usize = 0;
let last: usize = 0;
let lastFill: usize = 0;
let count: usize = 0;
let distinct: usize = 0;
let bucketOf: usize = 0;
let foreseen: usize = 0;
let moduli: usize = 0;
let buckets: i32 = 0;
let chunkRecords: u32 = 0;
let prefixShift: u64 = 0;
let nextShift: u64 = 0;
let foreseenMask: u64 = 0;

// The record of this step: stride words, k residues.
let stride: u32 = 0;
let k: u32 = 0;

// Chunk bookkeeping and totals.
let freeChunk: i32 = NONE;
let chunksUsed: i32 = 0;
let size: i32 = 0;
let probes: f64 = 0;

// Growable scratch, from `scratch` on.
let scratch: usize = 0;
let stagingBytes: usize = 0;
let indexSlots: usize = 0;
let keyCapacity: usize = 0;
let index: usize = 0;
let keys: usize = 0;
let keyRecords: usize = 0;
let order: usize = 0;
let out: usize = 0;
/** The window keys sampled from the states drained while sampleKeys is on: u32 per key bucket. */
const keyHistogram = memory.data(4 * KEY_BUCKETS);
let sampling = false;
let sampleMask: u32 = 0;
/** sortKeys: bits of a digit, and the most keys it sorts by insertion instead. */
const DIGIT_BITS: i32 = 8;
const INSERTION_SORT_MOST: i32 = 24;

/** Where the caller's memory starts. */
export function heapBase(): usize {
  return __heap_base;
}

/** Takes the fixed arrays' addresses and shape; scratch starts at `scratchAt`. */
export function init(
  recordsAt: usize,
  nextAt: usize,
  firstAt: usize,
  lastAt: usize,
  lastFillAt: usize,
  countAt: usize,
  distinctAt: usize,
  bucketOfAt: usize,
  foreseenAt: usize,
  moduliAt: usize,
  bucketCount: i32,
  recordsPerChunk: u32,
  shift: u32,
  shiftOfNext: u32,
  prefixes: u32,
  scratchAt: usize,
): void {
  records = recordsAt;
  next = nextAt;
  first = firstAt;
  last = lastAt;
  lastFill = lastFillAt;
  count = countAt;
  distinct = distinctAt;
  bucketOf = bucketOfAt;
  foreseen = foreseenAt;
  moduli = moduliAt;
  buckets = bucketCount;
  chunkRecords = recordsPerChunk;
  prefixShift = <u64>shift;
  nextShift = <u64>shiftOfNext;
  foreseenMask = <u64>(prefixes - 1);
  scratch = (scratchAt + 7) & ~7;
  layOut(0, 0, 0);
}

/** Records of `residues` residues from now on; the moduli are at moduliAt. Links every chunk free. */
export function setRecord(residues: u32, chunks: i32): void {
  k = residues;
  stride = 2 + residues;
  clear(chunks);
}

/** Empties the table: every bucket empty, `chunks` chunks free, lowest first. */
export function clear(chunks: i32): void {
  memory.fill(first, 0xff, (<usize>buckets) << 2);
  memory.fill(last, 0xff, (<usize>buckets) << 2);
  memory.fill(lastFill, 0, (<usize>buckets) << 2);
  memory.fill(count, 0, (<usize>buckets) << 2);
  memory.fill(distinct, 0, (<usize>buckets) << 2);
  freeChunk = NONE;
  for (let c = chunks - 1; c >= 0; c--) {
    store<i32>(next + ((<usize>c) << 2), freeChunk);
    freeChunk = c;
  }
  chunksUsed = 0;
  size = 0;
}

export function distinctStates(): i32 {
  return size;
}

export function chunksInUse(): i32 {
  return chunksUsed;
}

export function hasFreeChunk(): bool {
  return freeChunk != NONE;
}

export function probeCount(): f64 {
  return probes;
}

export function resetProbes(): void {
  probes = 0;
}

/** Room to stage n records; returns the staging address (states, then residues from n · 8 on). */
export function stage(n: i32): usize {
  const bytes = <usize>n * ((<usize>k + 2) << 2);
  if (bytes > stagingBytes) layOut(max(bytes, stagingBytes << 1), indexSlots, keyCapacity);
  return scratch;
}

/**
 * Appends staged records [start, n) to their buckets and returns where it stopped: n, or earlier
 * when no chunk is free (the caller then combines to make room, or drains).
 */
export function addBatch(n: i32, start: i32): i32 {
  const states = scratch;
  const residues = scratch + ((<usize>n) << 3);
  const R = chunkRecords;
  for (let i = start; i < n; i++) {
    const at = states + ((<usize>i) << 3);
    const hi = load<u32>(at);
    const lo = load<u32>(at, 4);
    const s = ((<u64>hi) << LOW_BITS) | (<u64>lo);
    const p = <usize>load<u16>(bucketOf + ((<usize>(s >> prefixShift)) << 1));
    let fill = load<u32>(lastFill + (p << 2));
    let chunk = load<i32>(last + (p << 2));
    if (fill == R || chunk == NONE) {
      chunk = takeChunk(<i32>p);
      if (chunk == NONE) return i;
      fill = 0;
    }
    const to = records + (((<usize>chunk * R + fill) * stride) << 2);
    store<u32>(to, hi);
    store<u32>(to, lo, 4);
    copyResidues(to + 8, residues + ((<usize>i * k) << 2), <i32>k);
    store<u32>(lastFill + (p << 2), fill + 1);
    store<i32>(count + (p << 2), load<i32>(count + (p << 2)) + 1);
  }
  return n;
}

/** Combines every bucket, so that the size is exact and every record distinct. */
export function settle(): void {
  for (let p = 0; p < buckets; p++) combine(p);
}

/**
 * From now on, until stopSampling(), adds 1 to keyHistogramAt()'s bucket of the window key of one in
 * mask + 1 of the states drained (gather; picked by a hash of the state, sampledState), for the
 * window of `rows` rows from row r (strings: string keys, lib/border/window-key.ts). At the step before a window's first, these are the
 * weights its owners are packed by (lib/engine/window-owners.ts): the states themselves, each
 * once a drain, where the successors as the expansion makes them would count a state once for
 * each of its parents, as often as the key's states combine.
 */
export function sampleKeys(r: i32, rows: i32, width: i32, lastColumn: bool, strings: bool, mask: u32): void {
  setWindow(r, rows, width, lastColumn);
  setStringKeys(strings);
  memory.fill(keyHistogram, 0, 4 * KEY_BUCKETS);
  sampling = true;
  sampleMask = mask;
}

export function stopSampling(): void {
  sampling = false;
}

export function keyHistogramAt(): usize {
  return keyHistogram;
}

/**
 * Combines bucket p and puts the word offsets of its states' records (from `records`) into
 * keyRecords, tallying the prefixes their successors are expected to have (foreseen), and, while
 * sampling, their window keys. Returns their number.
 */
export function gather(p: i32): i32 {
  const n = combine(p);
  if (n == 0) return 0;
  ensureKeys(<usize>n);
  const R = chunkRecords;
  let left = n;
  let j: usize = 0;
  for (let c = load<i32>(first + ((<usize>p) << 2)); left > 0; c = load<i32>(next + ((<usize>c) << 2))) {
    const m = min(<i32>R, left);
    let word = <u32>c * R * stride;
    for (let i = 0; i < m; i++, word += stride) {
      store<u32>(keyRecords + (j++ << 2), word);
      const s = stateAt(word);
      tally(s);
      if (sampling && sampledState(s, sampleMask)) {
        const b = keyHistogram + ((<usize>keyBucketOf(windowKey(s))) << 2);
        store<u32>(b, load<u32>(b) + 1);
      }
    }
    left -= m;
  }
  return n;
}

/**
 * gather(p), then the sort key of each state: s · 2^b + j, with j its place in keyRecords; b is
 * `room` (the bits below s in a key) when j fits there, else 0 and the key is s alone. Returns the
 * number of keys, for sortKeys.
 */
export function prepareKeys(p: i32, room: u32): i32 {
  const n = gather(p);
  const b: u64 = <u64>n <= (<u64>1) << room ? <u64>room : 0;
  for (let j: usize = 0; j < <usize>n; j++) {
    const s = stateAt(load<u32>(keyRecords + (j << 2)));
    store<u64>(keys + (j << 3), b == 0 ? s : (s << b) | j);
  }
  return n;
}

/** Counts of one digit's values, for sortKeys. */
const digitCounts = memory.data(4 << DIGIT_BITS);

/**
 * Sorts the n keys of prepareKeys(…, b) in place, least significant digit first, on the bits from
 * b up where they differ (the states are distinct, so those give the order), through the order
 * area as scratch. A bucket's states share their high bits, so two or three passes of 8 bits do at
 * 13×13, where this halved the sort phase that a comparison sort of the keys took (docs/performance.md).
 */
export function sortKeys(n: i32, b: u32): void {
  if (n < 2) return;
  if (n <= INSERTION_SORT_MOST) {
    for (let j: usize = 1; j < <usize>n; j++) {
      const key = load<u64>(keys + (j << 3));
      let i = j;
      for (; i > 0 && load<u64>(keys + ((i - 1) << 3)) > key; i--) store<u64>(keys + (i << 3), load<u64>(keys + ((i - 1) << 3)));
      store<u64>(keys + (i << 3), key);
    }
    return;
  }
  let any: u64 = 0;
  let every: u64 = ~(<u64>0);
  for (let j: usize = 0; j < <usize>n; j++) {
    const key = load<u64>(keys + (j << 3));
    any |= key;
    every &= key;
  }
  const varying = ((any ^ every) >> (<u64>b)) << (<u64>b);
  if (varying == 0) return;
  const top = <u64>(64 - clz(varying));
  const digits: u64 = ((<u64>1) << (<u64>DIGIT_BITS)) - 1;
  let from = keys;
  let to = order;
  for (let shift = ctz(varying); shift < top; shift += <u64>DIGIT_BITS) {
    memory.fill(digitCounts, 0, 4 << DIGIT_BITS);
    for (let j: usize = 0; j < <usize>n; j++) {
      const at = digitCounts + ((<usize>((load<u64>(from + (j << 3)) >> shift) & digits)) << 2);
      store<u32>(at, load<u32>(at) + 1);
    }
    // One value holds every key: this digit orders nothing.
    if (load<u32>(digitCounts + ((<usize>((load<u64>(from) >> shift) & digits)) << 2)) == <u32>n) continue;
    let start: u32 = 0;
    for (let d: usize = 0; d <= <usize>digits; d++) {
      const c = load<u32>(digitCounts + (d << 2));
      store<u32>(digitCounts + (d << 2), start);
      start += c;
    }
    for (let j: usize = 0; j < <usize>n; j++) {
      const key = load<u64>(from + (j << 3));
      const at = digitCounts + ((<usize>((key >> shift) & digits)) << 2);
      const place = load<u32>(at);
      store<u32>(at, place + 1);
      store<u64>(to + ((<usize>place) << 3), key);
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from != keys) memory.copy(keys, from, (<usize>n) << 3);
}

/**
 * After sortKeys (or the caller) sorted the n keys of prepareKeys(…, b): writes at orderAt() each
 * state in key order as (hi, lo, the address of its record in words).
 */
export function orderKeys(n: i32, b: u32): void {
  if (b == 0) {
    orderWideKeys(n);
    return;
  }
  const own: u64 = ((<u64>1) << b) - 1;
  for (let j: usize = 0; j < <usize>n; j++) {
    const key = load<u64>(keys + (j << 3));
    const s = key >> b;
    const at = order + j * 12;
    store<u32>(at, <u32>(s >> LOW_BITS));
    store<u32>(at, <u32>(s & LOW_MASK), 4);
    store<u32>(at, <u32>(records >> 2) + load<u32>(keyRecords + ((<usize>(key & own)) << 2)), 8);
  }
}

/**
 * After gather(): the records of keyRecords [from, to) copied out at outAt(): their states as
 * (hi, lo) pairs, then from (to − from) · 8 bytes on their residues, k words each, for the caller
 * to take in two copies. At most outBytes() in all.
 */
export function copyRecords(from: i32, to: i32): void {
  let states = out;
  let residues = out + ((<usize>(to - from)) << 3);
  const bytes = (<usize>k) << 2;
  for (let j = <usize>from; j < <usize>to; j++) {
    const record = records + ((<usize>load<u32>(keyRecords + (j << 2))) << 2);
    store<u64>(states, load<u64>(record));
    copyWords(residues, record + 8, <usize>k);
    states += 8;
    residues += bytes;
  }
}

/**
 * After orderKeys(): records [from, to) of the bucket in state order, copied out at outAt() as
 * copyRecords() copies them: their states as (hi, lo) pairs, then their residues, k words each.
 */
export function copyOrdered(from: i32, to: i32): void {
  let states = out;
  let residues = out + ((<usize>(to - from)) << 3);
  const bytes = (<usize>k) << 2;
  for (let j = <usize>from; j < <usize>to; j++) {
    const at = order + j * 12;
    store<u64>(states, load<u64>(at));
    copyWords(residues, ((<usize>load<u32>(at, 8)) << 2) + 8, <usize>k);
    states += 8;
    residues += bytes;
  }
}

/** Each residue's sum over the last encode() block, reduced by its modulus, and unreduced. */
const blockSums = memory.data(4 * 64);
const sumScratch = memory.data(8 * 64);

/**
 * Encodes records [from, to) of the last orderKeys() as a run file encodes them (putKey, then each
 * residue as 4 bytes, little-endian), continuing from (prevHi, prevLo),
 * or from (0, 0) as the run's first when `first`. The bytes go to outAt(); each residue's sum
 * over the block, reduced, to blockSumsAt(). Returns the number of bytes, at most outBytes() when
 * to − from ≤ outBytes() / (10 + 4k).
 */
export function encode(from: i32, to: i32, prevHi: u32, prevLo: u32, first: bool): i32 {
  let pos = out;
  const bytes = (<usize>k) << 2;
  for (let r: usize = 0; r < <usize>k; r++) store<u64>(sumScratch + (r << 3), 0);
  for (let j = <usize>from; j < <usize>to; j++) {
    const at = order + j * 12;
    const hi = load<u32>(at);
    const lo = load<u32>(at, 4);
    pos = putKey(pos, hi, lo, prevHi, prevLo, first);
    first = false;
    const from = ((<usize>load<u32>(at, 8)) << 2) + 8; // the record's residues
    copyResiduesAndSum(pos, from, sumScratch, k);
    pos += bytes;
    prevHi = hi;
    prevLo = lo;
  }
  for (let r: usize = 0; r < <usize>k; r++) {
    store<u32>(blockSums + (r << 2), <u32>(load<u64>(sumScratch + (r << 3)) % <u64>load<u32>(moduli + (r << 2))));
  }
  return <i32>(pos - out);
}

export function blockSumsAt(): usize {
  return blockSums;
}

export function outAt(): usize {
  return out;
}

export function outBytes(): usize {
  return OUT_BYTES;
}

export function orderAt(): usize {
  return order;
}

/** A free chunk appended to bucket p, or NONE when there is none. */
function takeChunk(p: i32): i32 {
  const c = freeChunk;
  if (c == NONE) return NONE;
  const at = next + ((<usize>c) << 2);
  freeChunk = load<i32>(at);
  store<i32>(at, NONE);
  chunksUsed++;
  const lastAt = last + ((<usize>p) << 2);
  const tail = load<i32>(lastAt);
  if (tail == NONE) store<i32>(first + ((<usize>p) << 2), c);
  else store<i32>(next + ((<usize>tail) << 2), c);
  store<i32>(lastAt, c);
  store<u32>(lastFill + ((<usize>p) << 2), 0);
  return c;
}

/**
 * Combines equal states of bucket p in place: its distinct states move to the front of its chunks,
 * in first-seen order, and emptied chunks go back to the free list. Returns their number.
 */
function combine(p: i32): i32 {
  const pAt = (<usize>p) << 2;
  const n = load<i32>(count + pAt);
  const known = load<i32>(distinct + pAt);
  if (n == known) return n;
  // At most a quarter full: fewer probes, each of which reads a record. Half full cost 2 ns a state more.
  let slots: usize = 16;
  while (slots < (<usize>n) << 2) slots <<= 1;
  ensureIndex(slots);
  const mask = <u32>slots - 1;
  memory.fill(index, 0xff, slots << 2);
  const R = chunkRecords;
  let probed = 0;
  // Read and write cursors walk the chunk list; the write cursor never passes the read cursor.
  let writeChunk = load<i32>(first + pAt);
  let readChunk = writeChunk;
  let readFill: u32 = 0;
  let writeFill: u32 = 0;
  let written = 0;
  for (let j = 0; j < n; j++) {
    if (readFill == R) {
      readChunk = load<i32>(next + ((<usize>readChunk) << 2));
      readFill = 0;
    }
    const fromWord = (<u32>readChunk * R + readFill++) * stride;
    const from = records + ((<usize>fromWord) << 2);
    const key = load<u64>(from);
    let h = slotHash(key) & mask;
    for (;;) {
      const slot = index + ((<usize>h) << 2);
      const e = load<i32>(slot);
      if (e == NONE) {
        if (writeFill == R) {
          writeChunk = load<i32>(next + ((<usize>writeChunk) << 2));
          writeFill = 0;
        }
        const toWord = (<u32>writeChunk * R + writeFill++) * stride;
        if (toWord != fromWord) copyWords(records + ((<usize>toWord) << 2), from, <usize>stride);
        store<i32>(slot, <i32>toWord);
        written++;
        break;
      }
      const at = records + ((<usize>e) << 2);
      if (load<u64>(at) == key) {
        addResidues(at + 8, from + 8, moduli, <i32>k);
        break;
      }
      probed++;
      h = (h + 1) & mask;
    }
  }
  probes += <f64>probed;
  // Chunks after the write cursor's are free again.
  const keep = written == 0 ? NONE : writeChunk;
  let c = keep == NONE ? load<i32>(first + pAt) : load<i32>(next + ((<usize>keep) << 2));
  while (c != NONE) {
    const at = next + ((<usize>c) << 2);
    const after = load<i32>(at);
    store<i32>(at, freeChunk);
    freeChunk = c;
    chunksUsed--;
    c = after;
  }
  if (keep == NONE) {
    store<i32>(first + pAt, NONE);
    store<i32>(last + pAt, NONE);
    store<u32>(lastFill + pAt, 0);
  } else {
    store<i32>(next + ((<usize>keep) << 2), NONE);
    store<i32>(last + pAt, keep);
    store<u32>(lastFill + pAt, writeFill);
  }
  size += written - known;
  store<i32>(count + pAt, written);
  store<i32>(distinct + pAt, written);
  return written;
}

/** Wide states: the sorted keys are the states themselves; each finds its record through the index. */
function orderWideKeys(n: i32): void {
  let slots: usize = 16;
  while (slots < (<usize>n) << 1) slots <<= 1;
  ensureIndex(slots);
  const mask = <u32>slots - 1;
  memory.fill(index, 0xff, slots << 2);
  for (let j: usize = 0; j < <usize>n; j++) {
    const word = load<u32>(keyRecords + (j << 2));
    let h = slotHash(load<u64>(records + ((<usize>word) << 2))) & mask;
    while (load<i32>(index + ((<usize>h) << 2)) != NONE) h = (h + 1) & mask;
    store<u32>(index + ((<usize>h) << 2), word);
  }
  for (let j: usize = 0; j < <usize>n; j++) {
    const s = load<u64>(keys + (j << 3));
    const hi = <u32>(s >> LOW_BITS);
    const lo = <u32>(s & LOW_MASK);
    const key = (<u64>hi) | ((<u64>lo) << 32);
    let h = slotHash(key) & mask;
    let word = load<u32>(index + ((<usize>h) << 2));
    while (load<u64>(records + ((<usize>word) << 2)) != key) {
      h = (h + 1) & mask;
      word = load<u32>(index + ((<usize>h) << 2));
    }
    const at = order + j * 12;
    store<u32>(at, hi);
    store<u32>(at, lo, 4);
    store<u32>(at, <u32>(records >> 2) + word, 8);
  }
}

/** The state of the record at word offset `word`, as s = hi · 2^30 + lo. */
function stateAt(word: u32): u64 {
  const at = records + ((<usize>word) << 2);
  return ((<u64>load<u32>(at)) << LOW_BITS) | (<u64>load<u32>(at, 4));
}

/** Counts the prefix a drained state's successors are expected to have, for the next step's bucket plan. */
function tally(s: u64): void {
  const b = foreseen + ((<usize>((s >> nextShift) & foreseenMask)) << 2);
  store<u32>(b, load<u32>(b) + 1);
}

// 64-bit mixing constants (the golden ratio's and SplitMix64's), in halves: a JavaScript linter
// reads these files too, and a 64-bit literal is not exact as a JavaScript number.
const GOLDEN: u64 = ((<u64>0x9e3779b9) << 32) | 0x7f4a7c15;
const MIX: u64 = ((<u64>0xbf58476d) << 32) | 0x1ce4e5b9;

/**
 * Copies `words` 32-bit words from `from` up to `to` (forward: `to` below `from` or clear of it).
 * memory.copy is a call into the engine, which costs more than a record of a few words.
 */
function copyWords(to: usize, from: usize, words: usize): void {
  copyResidues(to, from, <i32>words);
}

/** A 32-bit mix of a record's two state words. */
function slotHash(key: u64): u32 {
  let h = key * GOLDEN;
  h ^= h >> 29;
  h *= MIX;
  return <u32>(h >> 32);
}

function ensureIndex(slots: usize): void {
  if (slots > indexSlots) layOut(stagingBytes, max(slots, indexSlots << 1), keyCapacity);
}

function ensureKeys(n: usize): void {
  if (n > keyCapacity) layOut(stagingBytes, indexSlots, max(n, keyCapacity << 1));
}

/**
 * Places the scratch regions for the given sizes, growing the memory when they need it. The staging
 * region stays first, so a staged batch survives a new layout. Aborts when memory cannot grow.
 */
function layOut(staging: usize, slots: usize, keyCount: usize): void {
  const stagingSize = ((<u64>staging + 7) >> 3) << 3;
  const indexAt = <u64>scratch + stagingSize;
  const keysAt = ((indexAt + ((<u64>slots) << 2) + 7) >> 3) << 3;
  // Per key: 8 bytes of key, 4 of record offset, 12 of (hi, lo, offset); then the out region.
  const end = keysAt + <u64>keyCount * 24 + <u64>OUT_BYTES;
  const have = <u64>memory.size() * PAGE_BYTES;
  if (end > have && (end > (<u64>1) << 32 || memory.grow(<i32>((end - have + PAGE_BYTES - 1) / PAGE_BYTES)) < 0)) abort();
  stagingBytes = <usize>stagingSize;
  indexSlots = slots;
  keyCapacity = keyCount;
  index = <usize>indexAt;
  keys = <usize>keysAt;
  keyRecords = keys + (keyCount << 3);
  order = keyRecords + (keyCount << 2);
  out = order + keyCount * 12;
}
