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
 *
 * The loops over records (appending, combining, making sort keys and reading them back in order) run
 * in WebAssembly (lib/wasm/state-table.ts), where a state is one 64-bit integer; the records and the
 * chunk lists live in that module's memory. This class plans the buckets, sorts the keys and hands
 * the records to the sinks. A WebAssembly memory holds at most 4 GiB, so a table's records are
 * capped at MAX_TABLE_BYTES (2 GiB), leaving the rest for the per-bucket scratch.
 */

import { MemoryRun } from './memory-run.js';
import { align8 as align, instantiate, type WasmMemory } from '../wasm-module.js';
import { maxRecordBytes } from '../format/layout.js';

/** Distinct states a full table holds, as a share of its records: the rest is room to combine in. */
export const MAX_LOAD_FACTOR = 0.7;

/** Bytes per record (state, residues), and per distinct state for sorting and the index, for budget planning. */
export const tableSlotBytes = (residueCount: number): number => 4 * (2 + residueCount);
export const sortKeyBytes = 12;

/** The most bytes of records a table holds: half of what a WebAssembly memory can address. */
export const MAX_TABLE_BYTES = 2 ** 31;

/** Key prefix bits that choose a bucket. */
const PREFIX_BITS = 16;
/**
 * Distinct states a bucket should hold: at 11×11 its records and combining index then take about
 * 80 KB, well inside L2 cache. Buckets of 4,096 took 6–8 ns per state more to aggregate, of 512 no
 * less (docs/performance.md).
 */
const BUCKET_STATES = 1 << 10;
/** Share of each bucket's range spread evenly over all prefixes, for states the plan did not foresee. */
const UNIFORM_SHARE = 0.05;
/** Residues a record may carry, at most: room for their moduli in the module's memory. A count whose
 * moduli are more (boards of about 1,290 points and more) takes them in passes of this many. */
export const MOST_RESIDUES = 64;

export interface RecordSink {
  append(hi: number, lo: number, residues: Uint32Array, at: number): void;
}

/** A sink that also takes blocks of records already in the run file encoding: a RunWriter. */
interface EncodedSink extends RecordSink {
  continuation(): { hi: number; lo: number; first: boolean };
  appendEncoded(bytes: Uint8Array, records: number, lastHi: number, lastLo: number, sums: Uint32Array): void;
}

/** Addresses come back as i32: those past 2 GiB read as negative until `>>> 0`. */
interface TableExports {
  memory: WasmMemory;
  heapBase(): number;
  init(
    records: number,
    next: number,
    first: number,
    last: number,
    lastFill: number,
    count: number,
    distinct: number,
    bucketOf: number,
    seen: number,
    foreseen: number,
    moduli: number,
    buckets: number,
    chunkRecords: number,
    prefixShift: number,
    nextShift: number,
    prefixes: number,
    scratch: number,
  ): void;
  setRecord(residues: number, chunks: number): void;
  clear(chunks: number): void;
  distinctStates(): number;
  chunksInUse(): number;
  hasFreeChunk(): boolean;
  probeCount(): number;
  resetProbes(): void;
  stage(n: number): number;
  addBatch(n: number, start: number): number;
  settle(): void;
  gather(p: number): number;
  copyRecords(from: number, to: number): void;
  prepareKeys(p: number, room: number): number;
  orderKeys(n: number, b: number): void;
  encode(from: number, to: number, prevHi: number, prevLo: number, first: boolean): number;
  outAt(): number;
  outBytes(): number;
  blockSumsAt(): number;
  keysAt(): number;
  orderAt(): number;
}

export class StateTable {
  /** Records the table holds with this step's residues. */
  capacity: number;
  /** Distinct states a table at full capacity holds before it is full. */
  maxLoad: number;
  /** Residues a state carries in this step. */
  residueCount: number;
  /** Milliseconds spent sorting in drains since the last reset (the rest of a drain is writing). */
  sortMs = 0;

  private readonly kernel: TableExports;
  /** The module's memory as words, renewed when it grows. */
  private words = new Uint32Array(0);
  private readonly maxWords: number;
  private readonly width: number;
  private readonly chunkRecords: number;
  private full_ = false;
  private readonly buckets: number;

  // Word offsets of the module's fixed arrays.
  private readonly moduliAt: number;
  private readonly bucketOfAt: number;
  private readonly seenAt: number;
  private readonly foreseenAt: number;
  private readonly prefixes: number;

  /** seen of the latest step that made the states of each y, and the y of the current step. */
  private readonly seenOfY: Array<Uint32Array | undefined>;
  private stepY = -1;

  /**
   * maxCapacity is the most records of `moduli.length` residues; the table's words allow more
   * records in steps whose states carry fewer (beginStep).
   */
  constructor(maxCapacity: number, moduli: readonly number[], width: number) {
    if (moduli.length > MOST_RESIDUES) throw new RangeError(`a state table holds at most ${MOST_RESIDUES} residues`);
    this.residueCount = moduli.length;
    this.maxWords = Math.min(maxCapacity * (2 + moduli.length), MAX_TABLE_BYTES / 4);
    this.width = width;
    this.buckets = clamp((maxCapacity * MAX_LOAD_FACTOR) / BUCKET_STATES, 1, 1 << PREFIX_BITS);
    // Chunks no larger than a quarter of the table spread over the buckets' last chunks.
    this.chunkRecords = clamp(maxCapacity / (4 * this.buckets), 4, 1024);
    // Room for the chunk list of the smallest records, those of one residue.
    const chunks = Math.floor(this.maxWords / 3 / this.chunkRecords) + 1;
    const prefixBits = Math.max(0, Math.min(PREFIX_BITS, 3 * width - 3));
    const prefixShift = 3 * width - prefixBits;
    this.prefixes = 2 ** prefixBits;
    this.seenOfY = new Array(width).fill(undefined);

    this.kernel = instantiate<TableExports>('state-table', 'the state table');
    // Byte offsets, 8-aligned: moduli, five arrays of one word per bucket, the bucket of each
    // prefix (u16), the seen and foreseen tallies, the chunk list, the records, then scratch.
    let at = align(this.kernel.heapBase());
    const take = (bytes: number) => {
      const start = at;
      at = align(at + bytes);
      return start;
    };
    this.moduliAt = take(4 * MOST_RESIDUES) / 4;
    const bucketArrays = [0, 1, 2, 3, 4].map(() => take(4 * this.buckets));
    this.bucketOfAt = take(2 * this.prefixes) / 2;
    this.seenAt = take(4 * this.prefixes) / 4;
    this.foreseenAt = take(4 * this.prefixes) / 4;
    const nextAt = take(4 * chunks);
    const recordsAt = take(4 * this.maxWords);
    const [first, last, lastFill, count, distinct] = bucketArrays;
    this.kernel.init(
      recordsAt,
      nextAt,
      first,
      last,
      lastFill,
      count,
      distinct,
      this.bucketOfAt * 2,
      this.seenAt * 4,
      this.foreseenAt * 4,
      this.moduliAt * 4,
      this.buckets,
      this.chunkRecords,
      prefixShift,
      prefixShift - 3,
      this.prefixes,
      at,
    );
    this.capacity = 0;
    this.maxLoad = 0;
    this.setRecord(moduli);
    this.planBuckets(this.seen);
  }

  /** Holding all it may: time to drain it into a run. */
  get full(): boolean {
    return this.full_;
  }

  /** Distinct states held; exact after settle(). */
  get size(): number {
    return this.kernel.distinctStates();
  }

  /** Slots the combining index probed beyond a state's home, since the last resetProbes(). */
  get probes(): number {
    return this.kernel.probeCount();
  }

  resetProbes(): void {
    this.kernel.resetProbes();
  }

  /**
   * Starts a step whose successors, at y, carry the residues of `moduli` (a prefix of the pass's
   * moduli), and plans the buckets for them; lastColumn when the step forgets fields, which makes
   * the previous column a poor guess. The table must be empty.
   */
  beginStep(moduli: readonly number[], y: number, lastColumn: boolean): void {
    if (this.kernel.chunksInUse() !== 0) throw new RangeError('a step begins with an empty state table');
    // The emptied record array serves the new record size as it is: no allocation between steps.
    if (moduli.length !== this.residueCount) this.setRecord(moduli);
    const seen = this.seen;
    if (this.stepY >= 0) (this.seenOfY[this.stepY] ??= new Uint32Array(seen.length)).set(seen);
    const previousColumn = this.seenOfY[y];
    const foreseen = this.foreseen;
    this.planBuckets(previousColumn && !lastColumn ? previousColumn : foreseen);
    this.stepY = y;
    foreseen.fill(0);
    seen.fill(0);
  }

  /**
   * Adds records [from, to) of a batch (K = residueCount residues a record) and returns the index
   * where it stopped: `to`, or earlier when the table is full.
   */
  addBatch(states: Uint32Array, src: Uint32Array, from: number, to: number): number {
    if (this.full_ || from >= to) return from;
    const { kernel } = this;
    const k = this.residueCount;
    const n = to - from;
    const staged = (kernel.stage(n) >>> 0) / 4;
    const words = this.renew();
    words.set(states.subarray(2 * from, 2 * to), staged);
    words.set(src.subarray(k * from, k * to), staged + 2 * n);
    for (let i = 0; ;) {
      i = kernel.addBatch(n, i);
      if (i === n) return to;
      // No chunk left: combine every bucket to make room, unless that leaves the table full.
      kernel.settle();
      if (this.size >= this.maxLoad || !kernel.hasFreeChunk()) {
        this.full_ = true;
        return from + i;
      }
    }
  }

  /** Combines every bucket, so that size is exact and every record distinct. */
  settle(): void {
    this.kernel.settle();
  }

  /**
   * Sends every state to `sink` in increasing order, then empties the table. A run writer takes
   * each bucket encoded in the module; other sinks take the records one by one.
   */
  drainSorted(sink: RecordSink): void {
    const { kernel } = this;
    const encoded = 'appendEncoded' in sink ? (sink as EncodedSink) : undefined;
    // Bits below a state in its sort key, for the key's place among the bucket's records.
    const room = Math.min(32, 64 - 3 * this.width);
    for (let p = 0; p < this.buckets; p++) {
      const started = performance.now();
      const n = kernel.prepareKeys(p, room);
      if (n === 0) continue;
      const b = n <= 2 ** room ? room : 0;
      new BigUint64Array(this.renew().buffer, kernel.keysAt() >>> 0, n).sort();
      kernel.orderKeys(n, b);
      this.sortMs += performance.now() - started;
      const o = (kernel.orderAt() >>> 0) / 4;
      if (encoded) {
        const slice = Math.floor(kernel.outBytes() / maxRecordBytes(this.residueCount));
        for (let from = 0; from < n; from += slice) {
          const to = Math.min(n, from + slice);
          const previous = encoded.continuation();
          const bytes = kernel.encode(from, to, previous.hi, previous.lo, previous.first);
          const words = this.renew();
          const sums = (kernel.blockSumsAt() >>> 0) / 4;
          const last = o + 3 * (to - 1);
          encoded.appendEncoded(
            new Uint8Array(words.buffer, kernel.outAt() >>> 0, bytes),
            to - from,
            words[last],
            words[last + 1],
            words.subarray(sums, sums + this.residueCount),
          );
        }
      } else {
        const words = this.renew();
        for (let j = 0, at = o; j < n; j++, at += 3) sink.append(words[at], words[at + 1], words, words[at + 2] + 2);
      }
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
    const { kernel } = this;
    const k = this.residueCount;
    const slice = Math.floor(kernel.outBytes() / tableSlotBytes(k));
    for (let p = 0; p < this.buckets; p++) {
      const n = kernel.gather(p);
      for (let from = 0; from < n; from += slice) {
        const to = Math.min(n, from + slice);
        kernel.copyRecords(from, to);
        const at = (kernel.outAt() >>> 0) / 4;
        const words = this.renew();
        run.appendBlock(
          words.subarray(at, at + 2 * (to - from)),
          words.subarray(at + 2 * (to - from), at + (2 + k) * (to - from)),
          to - from,
        );
      }
    }
    this.clear();
  }

  /** Empties the table. */
  clear(): void {
    this.kernel.clear(this.capacity / this.chunkRecords);
    this.full_ = false;
  }

  /** Bytes of the record array: allocated once, whatever the steps' residues. */
  get recordBytes(): number {
    return 4 * this.maxWords;
  }

  /** Records of `moduli.length` residues from now on: capacity and load follow; the table is emptied. */
  private setRecord(moduli: readonly number[]): void {
    this.residueCount = moduli.length;
    this.renew().set(moduli, this.moduliAt);
    this.capacity = Math.max(1, Math.floor(this.maxWords / (2 + moduli.length) / this.chunkRecords)) * this.chunkRecords;
    this.maxLoad = Math.max(1, Math.floor(this.capacity * MAX_LOAD_FACTOR));
    this.kernel.setRecord(moduli.length, this.capacity / this.chunkRecords);
    this.full_ = false;
  }

  /** The module's memory as words; a new view when it grew since the last call. */
  private renew(): Uint32Array {
    const { buffer } = this.kernel.memory;
    if (this.words.buffer !== buffer) this.words = new Uint32Array(buffer);
    return this.words;
  }

  /** States drained per prefix in this step, and per prefix the next step is expected to have. */
  private get seen(): Uint32Array {
    return this.renew().subarray(this.seenAt, this.seenAt + this.prefixes);
  }

  private get foreseen(): Uint32Array {
    return this.renew().subarray(this.foreseenAt, this.foreseenAt + this.prefixes);
  }

  /** Cuts the prefixes into `buckets` consecutive ranges of about equal expected states. */
  private planBuckets(plan: Uint32Array): void {
    const { buckets, prefixes } = this;
    const bucketOf = new Uint16Array(this.renew().buffer, 2 * this.bucketOfAt, prefixes);
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
}

const clamp = (value: number, least: number, most: number) => Math.min(most, Math.max(least, Math.floor(value)));
