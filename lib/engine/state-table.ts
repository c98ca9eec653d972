/**
 * The in-memory buffer of one step's successors, where equal states are combined: cache-resident
 * aggregation by key range (radix-partitioned aggregation, as in Müller et al., "Cache-Efficient
 * Aggregation: Hashing Is Sorting", SIGMOD 2015, and DuckDB).
 *
 * A successor is not inserted into one large hash table, where nearly every insert is a cache miss;
 * it is appended to the bucket that owns its key range, a list of fixed-size chunks, so writes are
 * sequential. When the chunks run out, each bucket in turn is combined in a small hash index that
 * stays in cache while that bucket is worked on, and its distinct states are written back in
 * place. Buckets are key ranges in order, so a drain sorts each one alone, in cache, and their
 * concatenation is a sorted run: no global sort.
 *
 * The ranges are cut from a histogram of key prefixes: that of the same step in the previous column,
 * whose states are distributed much like this one's, or, where there is none, a prediction from the
 * step before (a successor's high fields are its parent's, one field down). A poor guess only makes
 * some buckets larger than others; nothing depends on it for correctness.
 *
 * The record array is allocated once, at the capacity the budget allows, and never replaced: the
 * operating system backs its pages only when a chunk is first used (chunks are taken lowest first),
 * so a small count stays small, and no old array waits for the garbage collector beside a new one.
 * The table is full when, combined, its distinct states fill maxLoad records: then the caller drains
 * it in state order into a run file, or, at the end of a step that fit, into a MemoryRun.
 */

import { MemoryRun } from './memory-run.js';
import { addModulo } from '../residues/sums.js';
import { LOW_MASK } from '../state/layout.js';

/** Distinct states a full table holds, as a share of its records: the rest is room to combine in. */
export const MAX_LOAD_FACTOR = 0.7;

/** Bytes per record (state, residues), and per distinct state for sorting and the index, for budget planning. */
export const tableSlotBytes = (residueCount: number): number => 4 * (2 + residueCount);
export const sortKeyBytes = 12;

/** Key prefix bits that choose a bucket. */
const PREFIX_BITS = 16;
/** Distinct states a bucket should hold: its index and sort keys then fit in L2 cache. */
const BUCKET_STATES = 1 << 12;
/** Share of each bucket's range spread evenly over all prefixes, for states the plan did not foresee. */
const UNIFORM_SHARE = 0.05;

const NONE = -1;

export interface RecordSink {
  append(hi: number, lo: number, residues: Uint32Array, at: number): void;
}

export class StateTable {
  /** Records the table holds with this step's residues. */
  capacity: number;
  /** Distinct states a table at full capacity holds before it is full. */
  maxLoad: number;
  /** Residues a state carries in this step. */
  residueCount: number;
  /** Distinct states held; exact after settle(). */
  size = 0;
  /** Milliseconds spent sorting in drains since the last reset (the rest of a drain is writing). */
  sortMs = 0;
  /** Slots the combining index probed beyond a state's home, since the last reset. */
  probes = 0;

  private records: Uint32Array;
  private readonly maxWords: number;
  private stride: number;
  private moduli: Float64Array;
  private readonly width: number;

  // Chunks: chunk c holds records [c·R, (c+1)·R); next[c] follows it in its bucket's list.
  private readonly chunkRecords: number;
  private next: Int32Array;
  private freeChunk = NONE;
  private chunksUsed = 0;
  private full_ = false;

  // Buckets: a list of chunks each, the last one filled to lastFill; the first `distinct` records
  // are known to be distinct states.
  private readonly buckets: number;
  private readonly first: Int32Array;
  private readonly last: Int32Array;
  private readonly lastFill: Int32Array;
  private readonly count: Int32Array;
  private readonly distinct: Int32Array;

  // Key prefixes: prefix = state / 2^prefixShift; bucketOf[prefix] is its bucket.
  private readonly prefixShift: number;
  private readonly nextShift: number;
  private readonly bucketOf: Uint16Array;
  /** States drained per prefix in this step, and per prefix the next step is expected to have. */
  private readonly seen: Uint32Array;
  private readonly foreseen: Uint32Array;
  /** seen of the latest step that made the states of each y, and the y of the current step. */
  private readonly seenAt: Array<Uint32Array | undefined>;
  private stepY = -1;

  // Scratch for one bucket: the combining index (record numbers) and the sort keys.
  private index = new Int32Array(0);
  private keys = new BigUint64Array(0);
  private keyWords = new Uint32Array(0);
  private keyRecords = new Int32Array(0);

  /**
   * maxCapacity is the most records of `moduli.length` residues; the table's words allow more
   * records in steps whose states carry fewer (beginStep).
   */
  constructor(maxCapacity: number, moduli: readonly number[], width: number) {
    this.residueCount = moduli.length;
    this.moduli = Float64Array.from(moduli);
    this.stride = 2 + moduli.length;
    // A typed array holds at most 2^32 − 1 elements.
    this.maxWords = Math.min(maxCapacity * this.stride, 2 ** 32 - 1);
    this.width = width;
    this.buckets = clamp((maxCapacity * MAX_LOAD_FACTOR) / BUCKET_STATES, 1, 1 << PREFIX_BITS);
    // Chunks no larger than a quarter of the table spread over the buckets' last chunks.
    this.chunkRecords = clamp(maxCapacity / (4 * this.buckets), 4, 1024);
    this.records = new Uint32Array(this.maxWords);
    // Room for the chunk list of the smallest records, those of one residue.
    this.next = new Int32Array(Math.floor(this.maxWords / 3 / this.chunkRecords) + 1);
    this.capacity = this.roundToChunks(this.maxWords / this.stride);
    this.maxLoad = Math.max(1, Math.floor(this.capacity * MAX_LOAD_FACTOR));
    const prefixBits = Math.max(0, Math.min(PREFIX_BITS, 3 * width - 3));
    this.prefixShift = 3 * width - prefixBits;
    this.nextShift = this.prefixShift - 3;
    const prefixes = 2 ** prefixBits;
    this.bucketOf = new Uint16Array(prefixes);
    this.seen = new Uint32Array(prefixes);
    this.foreseen = new Uint32Array(prefixes);
    this.seenAt = new Array(width).fill(undefined);
    const p = this.buckets;
    this.first = new Int32Array(p).fill(NONE);
    this.last = new Int32Array(p).fill(NONE);
    this.lastFill = new Int32Array(p);
    this.count = new Int32Array(p);
    this.distinct = new Int32Array(p);
    this.linkFreeChunks();
    this.planBuckets(this.seen);
  }

  /** Holding all it may: time to drain it into a run. */
  get full(): boolean {
    return this.full_;
  }

  /**
   * Starts a step whose successors, at y, carry the residues of `moduli` (a prefix of the pass's
   * moduli), and plans the buckets for them; lastColumn when the step forgets fields, which makes
   * the previous column a poor guess. The table must be empty.
   */
  beginStep(moduli: readonly number[], y: number, lastColumn: boolean): void {
    if (this.chunksUsed !== 0) throw new RangeError('a step begins with an empty state table');
    if (moduli.length !== this.residueCount) {
      // The emptied record array serves the new record size as it is: no allocation between steps.
      this.residueCount = moduli.length;
      this.moduli = Float64Array.from(moduli);
      this.stride = 2 + moduli.length;
      this.capacity = this.roundToChunks(this.maxWords / this.stride);
      this.maxLoad = Math.max(1, Math.floor(this.capacity * MAX_LOAD_FACTOR));
      this.linkFreeChunks();
    }
    if (this.stepY >= 0) (this.seenAt[this.stepY] ??= new Uint32Array(this.seen.length)).set(this.seen);
    const previousColumn = this.seenAt[y];
    this.planBuckets(previousColumn && !lastColumn ? previousColumn : this.foreseen);
    this.stepY = y;
    this.foreseen.fill(0);
    this.seen.fill(0);
  }

  /**
   * Adds records [from, to) of a batch (K = residueCount residues a record) and returns the index
   * where it stopped: `to`, or earlier when the table is full.
   */
  addBatch(states: Uint32Array, src: Uint32Array, from: number, to: number): number {
    const { bucketOf, last, lastFill, count, chunkRecords: R } = this;
    const k = this.residueCount;
    const shift = this.prefixShift;
    let i = from;
    while (i < to) {
      if (this.full_) return i;
      const records = this.records;
      const stride = this.stride;
      for (; i < to; i++) {
        const hi = states[2 * i];
        const lo = states[2 * i + 1];
        const p = bucketOf[shift >= 30 ? hi >>> (shift - 30) : (hi << (30 - shift)) | (lo >>> shift)];
        let fill = lastFill[p];
        let chunk = last[p];
        if (fill === R || chunk === NONE) {
          chunk = this.takeChunk(p);
          if (chunk === NONE) break; // the table made room, grew or is full: records may have moved
          fill = 0;
        }
        let at = (chunk * R + fill) * stride;
        records[at++] = hi;
        records[at++] = lo;
        for (let r = 0, s = i * k; r < k; r++) records[at++] = src[s++];
        lastFill[p] = fill + 1;
        count[p]++;
      }
    }
    return i;
  }

  /** Combines every bucket, so that size is exact and every record distinct. */
  settle(): void {
    for (let p = 0; p < this.buckets; p++) this.combine(p);
  }

  /** Sends every state to `sink` in increasing order, then empties the table. */
  drainSorted(sink: RecordSink): void {
    const room = Math.min(32, 64 - 3 * this.width);
    for (let p = 0; p < this.buckets; p++) {
      const n = this.combine(p);
      if (n === 0) continue;
      this.ensureScratch(n);
      this.gather(p);
      this.emitSorted(sink, n, n <= 2 ** room ? room : 0);
    }
    this.clear();
  }

  /** Copies every state into `run` (sorted when asked), then empties the table. */
  drainTo(run: MemoryRun, sorted: boolean): void {
    run.reset(this.residueCount);
    if (sorted) {
      this.drainSorted(run);
      return;
    }
    // Bucket by bucket: the next step reads its states in key order at the grain of buckets.
    const { records, stride, chunkRecords: R } = this;
    for (let p = 0; p < this.buckets; p++) {
      let left = this.combine(p);
      for (let c = this.first[p]; left > 0; c = this.next[c]) {
        const n = Math.min(R, left);
        for (let j = 0, at = c * R * stride; j < n; j++, at += stride) {
          this.tally(records[at], records[at + 1]);
          run.append(records[at], records[at + 1], records, at + 2);
        }
        left -= n;
      }
    }
    this.clear();
  }

  /** Empties the table. */
  clear(): void {
    this.first.fill(NONE);
    this.last.fill(NONE);
    this.lastFill.fill(0);
    this.count.fill(0);
    this.distinct.fill(0);
    this.size = 0;
    this.full_ = false;
    this.linkFreeChunks();
  }

  /** Bytes of the record array: allocated once, whatever the steps' residues. */
  get recordBytes(): number {
    return this.records.byteLength;
  }

  /**
   * A free chunk appended to bucket p, or NONE when there was none. Then the table has combined
   * every bucket to make room, or it is full.
   */
  private takeChunk(p: number): number {
    const c = this.freeChunk;
    if (c === NONE) {
      this.settle();
      // Full when the distinct states reach the load, or no chunk is left to take new ones.
      if (this.size >= this.maxLoad || this.freeChunk === NONE) this.full_ = true;
      return NONE;
    }
    this.freeChunk = this.next[c];
    this.next[c] = NONE;
    this.chunksUsed++;
    if (this.last[p] === NONE) this.first[p] = c;
    else this.next[this.last[p]] = c;
    this.last[p] = c;
    this.lastFill[p] = 0;
    return c;
  }

  /** Records in whole chunks, at least one chunk. */
  private roundToChunks(records: number): number {
    return Math.max(1, Math.floor(records / this.chunkRecords)) * this.chunkRecords;
  }

  /** Every chunk is free, lowest first (its pages are the ones already touched); the table holds nothing. */
  private linkFreeChunks(): void {
    const chunks = Math.floor(this.capacity / this.chunkRecords);
    this.freeChunk = NONE;
    for (let c = chunks - 1; c >= 0; c--) {
      this.next[c] = this.freeChunk;
      this.freeChunk = c;
    }
    this.chunksUsed = 0;
  }

  /**
   * Combines equal states of bucket p in place: its distinct states move to the front of its
   * chunks, in first-seen order, and emptied chunks go back to the free list. Returns their number.
   */
  private combine(p: number): number {
    const n = this.count[p];
    const known = this.distinct[p];
    if (n === known) return n;
    const { records, stride, chunkRecords: R, next, moduli } = this;
    const k = moduli.length;
    let bits = 4;
    while (1 << bits < 2 * n) bits++;
    const mask = (1 << bits) - 1;
    if (this.index.length < mask + 1) this.index = new Int32Array(mask + 1);
    const index = this.index;
    index.fill(NONE, 0, mask + 1);
    let probes = 0;
    // Read and write cursors walk the chunk list; the write cursor never passes the read cursor.
    let writeChunk = this.first[p];
    let written = 0;
    let readChunk = writeChunk;
    for (let j = 0; j < n; j++) {
      if (j > 0 && j % R === 0) readChunk = next[readChunk];
      const from = (readChunk * R + (j % R)) * stride;
      const hi = records[from];
      const lo = records[from + 1];
      let h = slotHash(hi, lo) & mask;
      for (;;) {
        const e = index[h];
        if (e === NONE) {
          if (written > 0 && written % R === 0) writeChunk = next[writeChunk];
          const to = (writeChunk * R + (written % R)) * stride;
          if (to !== from) for (let w = 0; w < stride; w++) records[to + w] = records[from + w];
          index[h] = to / stride;
          written++;
          break;
        }
        const at = e * stride;
        if (records[at] === hi && records[at + 1] === lo) {
          for (let r = 0; r < k; r++) records[at + 2 + r] = addModulo(records[at + 2 + r], records[from + 2 + r], moduli[r]);
          break;
        }
        probes++;
        h = (h + 1) & mask;
      }
    }
    this.probes += probes;
    // Chunks after the write cursor's are free again.
    const keep = written === 0 ? NONE : writeChunk;
    let c = keep === NONE ? this.first[p] : next[keep];
    while (c !== NONE) {
      const after = next[c];
      next[c] = this.freeChunk;
      this.freeChunk = c;
      this.chunksUsed--;
      c = after;
    }
    if (keep === NONE) {
      this.first[p] = this.last[p] = NONE;
      this.lastFill[p] = 0;
    } else {
      next[keep] = NONE;
      this.last[p] = keep;
      this.lastFill[p] = written - Math.floor((written - 1) / R) * R;
    }
    this.size += written - known;
    this.count[p] = this.distinct[p] = written;
    return written;
  }

  /** Puts the record offsets of bucket p's (combined) states into keyRecords, and tallies them. */
  private gather(p: number): void {
    const { stride, chunkRecords: R, keyRecords, records } = this;
    let left = this.count[p];
    let j = 0;
    for (let c = this.first[p]; left > 0; c = this.next[c]) {
      const n = Math.min(R, left);
      for (let i = 0, at = c * R * stride; i < n; i++, at += stride) {
        keyRecords[j++] = c * R + i;
        this.tally(records[at], records[at + 1]);
      }
      left -= n;
    }
  }

  /** Sorts the n states whose records are at keyRecords[0..n) and sends them to sink. */
  private emitSorted(sink: RecordSink, n: number, b: number): void {
    const started = performance.now();
    const { keyWords, keyRecords, records, stride } = this;
    for (let j = 0; j < n; j++) {
      const at = keyRecords[j] * stride;
      const hi = records[at];
      const lo = records[at + 1];
      if (b === 32) {
        keyWords[2 * j] = j; // widths up to 10: the state is lo alone
        keyWords[2 * j + 1] = lo;
      } else if (b > 0) {
        keyWords[2 * j] = ((lo << b) | j) >>> 0;
        keyWords[2 * j + 1] = ((lo >>> (32 - b)) | (hi << (b - 2))) >>> 0;
      } else {
        keyWords[2 * j] = ((hi << 30) | lo) >>> 0;
        keyWords[2 * j + 1] = hi >>> 2;
      }
    }
    this.keys.subarray(0, n).sort();
    if (b === 0) this.matchSortedKeys(n);
    this.sortMs += performance.now() - started;
    for (let j = 0; j < n; j++) {
      const low = keyWords[2 * j];
      const high = keyWords[2 * j + 1];
      if (b === 32) sink.append(0, high, records, keyRecords[low] * stride + 2);
      else if (b > 0) {
        const lo = ((low >>> b) | (high << (32 - b))) & LOW_MASK;
        sink.append(high >>> (b - 2), lo, records, keyRecords[low & ((1 << b) - 1)] * stride + 2);
      } else {
        sink.append((high << 2) | (low >>> 30), low & LOW_MASK, records, keyRecords[j] * stride + 2);
      }
    }
  }

  /**
   * Wide states leave no room for a record number in the sort key: after sorting the bare keys,
   * keyRecords is rebuilt in key order through the combining index, which still maps each state.
   */
  private matchSortedKeys(n: number): void {
    const { keyWords, keyRecords, records, index, stride } = this;
    let mask = 15;
    while (mask + 1 < 2 * n) mask = 2 * mask + 1;
    index.fill(NONE, 0, mask + 1);
    for (let j = 0; j < n; j++) {
      const at = keyRecords[j] * stride;
      let h = slotHash(records[at], records[at + 1]) & mask;
      while (index[h] !== NONE) h = (h + 1) & mask;
      index[h] = keyRecords[j];
    }
    for (let j = 0; j < n; j++) {
      const low = keyWords[2 * j];
      const high = keyWords[2 * j + 1];
      const hi = (high << 2) | (low >>> 30);
      const lo = low & LOW_MASK;
      let h = slotHash(hi, lo) & mask;
      while (records[index[h] * stride] !== hi || records[index[h] * stride + 1] !== lo) h = (h + 1) & mask;
      keyRecords[j] = index[h];
    }
  }

  /** Counts a drained state's prefix, and the prefix its successors are expected to have. */
  private tally(hi: number, lo: number): void {
    const shift = this.prefixShift;
    this.seen[shift >= 30 ? hi >>> (shift - 30) : (hi << (30 - shift)) | (lo >>> shift)]++;
    const next = this.nextShift;
    this.foreseen[(next >= 30 ? hi >>> (next - 30) : (hi << (30 - next)) | (lo >>> next)) & (this.foreseen.length - 1)]++;
  }

  /** Cuts the prefixes into `buckets` consecutive ranges of about equal expected states. */
  private planBuckets(plan: Uint32Array): void {
    const { bucketOf, buckets } = this;
    const prefixes = bucketOf.length;
    let total = 0;
    for (let q = 0; q < prefixes; q++) total += plan[q];
    const even = total === 0 ? 1 : UNIFORM_SHARE;
    const perCount = total === 0 ? 0 : (1 - even) / total;
    let at = 0;
    for (let q = 0; q < prefixes; q++) {
      const share = even / prefixes + plan[q] * perCount;
      // A prefix belongs to the bucket where the middle of its share falls.
      bucketOf[q] = Math.min(buckets - 1, Math.floor((at + share / 2) * buckets));
      at += share;
    }
  }

  private ensureScratch(n: number): void {
    if (this.keys.length < n) {
      const size = Math.max(n, 2 * this.keys.length);
      this.keys = new BigUint64Array(size);
      this.keyWords = new Uint32Array(this.keys.buffer);
      this.keyRecords = new Int32Array(size);
    }
    let slots = 16;
    while (slots < 2 * n) slots *= 2;
    if (this.index.length < slots) this.index = new Int32Array(slots);
  }
}

const clamp = (value: number, least: number, most: number) => Math.min(most, Math.max(least, Math.floor(value)));

/** A 32-bit mix of both words of a state. */
function slotHash(hi: number, lo: number): number {
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae3d);
  h ^= h >>> 13;
  return h;
}
