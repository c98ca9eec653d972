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
 * The ranges are cut from a histogram of key prefixes predicted from the step before (a
 * successor's high fields are its parent's, one field down). A poor guess only makes some buckets
 * larger than others; nothing depends on it for correctness.
 *
 * The record array is allocated once, at the capacity the budget allows, and never replaced: the
 * operating system backs its pages only when a chunk is first used (chunks are taken lowest first),
 * so a small count stays small, and no old array waits for the garbage collector beside a new one.
 * The table is full when, combined, its distinct states fill maxLoad records: then the caller drains
 * it in state order into a run file, or, at the end of a step that fit, into a MemoryRun.
 *
 * The loops over records (appending, combining, making sort keys and reading them back in order) run
 * in WebAssembly (lib/engine/table-shard.as.ts), where a state is one 64-bit integer; the records and the
 * chunk lists live in that module's memory. This class plans the buckets, sorts the keys and hands
 * the records to the sinks.
 *
 * A WebAssembly memory holds at most 4 GiB, so a table whose records are more than one memory's
 * share (shardBytes, at most MAX_SHARD_BYTES) is split into S shards (table-shard.ts): instances of
 * the module, each with its own memory. The buckets are dealt out to them in turn, so that draining
 * the buckets in key order, each from its shard, still gives the states in order. A batch of
 * successors is grouped by shard in WebAssembly (table-router.ts) and each shard takes its group in
 * one copy. When one shard is full the table is: it is drained whole, and the records of the batch
 * that shard could not take wait in the router until the drain has emptied it.
 */

import type { StepInMemory } from './memory-run.js';
import { maxRecordBytes } from '../format/layout.js';
import { MOST_RESIDUES, TableShard } from './table-shard.js';
import { TableRouter } from './table-router.js';
import { MAX_SHARD_BYTES, MIN_SHARD_BYTES } from './table-limits.js';
import { BUCKETS } from '../border/window-key.js';
import type { KeyWindow } from '../border/expander-kernel.js';

export { MOST_RESIDUES };

/** Distinct states a full table holds, as a share of its records: the rest is room to combine in. */
export const MAX_LOAD_FACTOR = 0.7;

/** Bytes per record (state, residues), and per distinct state for sorting and the index, for budget planning. */
export const tableSlotBytes = (residueCount: number): number => 4 * (2 + residueCount);
export const sortKeyBytes = 12;

/** Shards a table may have: each is an instance of the module, with about 1 MiB of fixed arrays. */
export const MAX_SHARDS = 1024;
/** Bytes each shard after the first adds beyond its records (its fixed arrays), for budget planning. */
export const SHARD_OVERHEAD_BYTES = 2 ** 20;

/** Records a shard stages at once: a successor batch's most (3 × 4,096), so staging stays small. */
const STAGED_RECORDS = 3 << 12;

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

/** Shards of a table of `capacity` records of `residueCount` residues, at most `shardBytes` of records each. */
export function shardsFor(capacity: number, residueCount: number, shardBytes: number): number {
  return Math.max(1, Math.ceil((capacity * tableSlotBytes(residueCount)) / shardBytes));
}

export interface RecordSink {
  append(hi: number, lo: number, residues: Uint32Array, at: number): void;
}

/** A sink that also takes blocks of records already in the run file encoding: a RunWriter. */
interface EncodedSink extends RecordSink {
  continuation(): { hi: number; lo: number; first: boolean };
  appendEncoded(bytes: Uint8Array, records: number, lastHi: number, lastLo: number, sums: Uint32Array): void;
}

/** A sink that takes blocks of records in increasing order: states as (hi, lo) pairs, then residues (lib/engine/owner-split.ts, memory-run.ts). */
interface SortedBlockSink extends RecordSink {
  appendSorted(states: Uint32Array, residues: Uint32Array, n: number): void;
}

export class StateTable {
  /** Records the table holds with this step's residues. */
  capacity = 0;
  /** Distinct states the table holds when every shard is at its load. */
  maxLoad = 0;
  /** Residues a state carries in this step. */
  residueCount: number;
  /** Milliseconds spent sorting in drains since the last reset (the rest of a drain is writing). */
  sortMs = 0;

  private readonly shards: TableShard[];
  /** Present when there are several shards. */
  private readonly router?: TableRouter;
  private readonly width: number;
  private full_ = false;
  private sampling_ = false;
  private readonly buckets: number;
  private readonly prefixes: number;
  /** Per shard, the records of the router's last batch it has not taken yet: [pendingFrom, pendingTo). */
  private readonly pendingFrom: Uint32Array;
  private readonly pendingTo: Uint32Array;
  /** Records routed at once: few enough that every shard, emptied, takes its group whole. */
  private sliceRecords = 0;

  /** Every shard's foreseen tallies, summed. */
  private readonly foreseenSum: Uint32Array;
  /** The shift that turns a state into its successors' expected key prefix (with prefixes − 1 as mask). */
  private readonly nextShift: number;

  /**
   * maxCapacity is the most records of `moduli.length` residues; the table's words allow more
   * records in steps whose states carry fewer (beginStep). shardBytes: the most bytes of records in
   * one WebAssembly memory.
   */
  constructor(maxCapacity: number, moduli: readonly number[], width: number, shardBytes = MAX_SHARD_BYTES) {
    if (moduli.length > MOST_RESIDUES) throw new RangeError(`a state table holds at most ${MOST_RESIDUES} residues`);
    if (!(shardBytes >= MIN_SHARD_BYTES && shardBytes <= MAX_SHARD_BYTES))
      throw new RangeError(`a state table's shards hold ${MIN_SHARD_BYTES} to ${MAX_SHARD_BYTES} bytes of records`);
    this.residueCount = moduli.length;
    this.width = width;
    const prefixBits = Math.max(0, Math.min(PREFIX_BITS, 3 * width - 3));
    const prefixShift = 3 * width - prefixBits;
    this.prefixes = 2 ** prefixBits;
    this.nextShift = prefixShift - 3;
    // Each shard owns at least one prefix and one bucket.
    const shards = Math.min(shardsFor(maxCapacity, moduli.length, shardBytes), this.prefixes);
    if (shards > MAX_SHARDS) throw new RangeError(`a state table has at most ${MAX_SHARDS} shards, not ${shards}`);
    const words = Math.ceil((maxCapacity * (2 + moduli.length)) / shards);
    this.buckets = clamp((maxCapacity * MAX_LOAD_FACTOR) / BUCKET_STATES, shards, 1 << PREFIX_BITS);
    // Chunks no larger than a quarter of the table spread over the buckets' last chunks.
    const chunkRecords = clamp(maxCapacity / (4 * this.buckets), 4, 1024);
    // Bucket g is bucket ⌊g / S⌋ of shard g mod S: dealt out in turn, so that a region of keys the
    // plan underestimated is spread over every shard, and no shard fills long before the others.
    this.shards = Array.from({ length: shards }, (_, j) => {
      const buckets = Math.ceil((this.buckets - j) / shards);
      return new TableShard({ words, buckets, chunkRecords, prefixShift, prefixes: this.prefixes }, moduli, MAX_LOAD_FACTOR);
    });
    if (shards > 1) this.router = new TableRouter(shards, prefixShift, this.prefixes);
    this.pendingFrom = new Uint32Array(shards);
    this.pendingTo = new Uint32Array(shards);
    this.foreseenSum = new Uint32Array(this.prefixes);
    this.setRecord(moduli);
    this.planBuckets(this.foreseenSum);
  }

  /** Holding all it may: time to drain it into a run. */
  get full(): boolean {
    return this.full_;
  }

  /** Distinct states held; exact after settle(). */
  get size(): number {
    let size = 0;
    for (const shard of this.shards) size += shard.kernel.distinctStates();
    return size;
  }

  /** WebAssembly memories the records take. */
  get shardCount(): number {
    return this.shards.length;
  }

  /** Slots the combining index probed beyond a state's home, since the last resetProbes(). */
  get probes(): number {
    let probes = 0;
    for (const shard of this.shards) probes += shard.kernel.probeCount();
    return probes;
  }

  resetProbes(): void {
    for (const shard of this.shards) shard.kernel.resetProbes();
  }

  /**
   * Starts a step whose successors carry the residues of `moduli` (a prefix of the pass's moduli),
   * and plans the buckets for them from the prefixes the step before foresaw. The table must be
   * empty.
   */
  beginStep(moduli: readonly number[]): void {
    if (this.shards.some((shard) => shard.kernel.chunksInUse() !== 0) || this.pendingCount() > 0)
      throw new RangeError('a step begins with an empty state table');
    // The emptied record arrays serve the new record size as they are: no allocation between steps.
    if (moduli.length !== this.residueCount) this.setRecord(moduli);
    // Not the previous column's histogram at the same row: its errors crowded a few buckets, up to
    // 100–500 times the mean at 13×13 (docs/design.md).
    this.planBuckets(this.sum(this.foreseenSum, (shard) => shard.foreseen));
    for (const shard of this.shards) shard.foreseen.fill(0);
  }

  /**
   * Plans the next step's buckets from the states it will expand held elsewhere (a grouped run):
   * `tally` counts into its array, for each, the key prefix its successors are expected to have,
   * (state >> shift) & (length − 1), as a drain from this table would have.
   */
  foresee(tally: (into: Uint32Array, shift: number) => void): void {
    for (const shard of this.shards) shard.foreseen.fill(0);
    tally(this.shards[0].foreseen, this.nextShift);
  }

  /**
   * Adds records [from, to) of a batch (K = residueCount residues a record) and returns the index
   * where it stopped: `to`, or earlier when the table is full. With several shards, the records
   * before that index that a full shard could not take wait in the router: the drain that empties
   * the table takes them in first.
   */
  addBatch(states: Uint32Array, src: Uint32Array, from: number, to: number): number {
    if (this.full_ || from >= to) return from;
    const k = this.residueCount;
    if (!this.router) {
      // A slice at a time: the shard stages what it is given, and a peer's ring hands over many batches at once.
      for (let at = from; at < to;) {
        const end = Math.min(to, at + STAGED_RECORDS);
        const taken = this.shards[0].take(states.subarray(2 * at, 2 * end), src.subarray(k * at, k * end), end - at);
        at += taken;
        if (at < end) {
          this.full_ = true;
          return at;
        }
      }
      return to;
    }
    for (let at = from; at < to;) {
      const end = Math.min(to, at + this.sliceRecords);
      this.router.route(states.subarray(2 * at, 2 * end), src.subarray(k * at, k * end), end - at, k);
      for (let j = 0; j < this.shards.length; j++) {
        this.pendingFrom[j] = this.router.start(j);
        this.pendingTo[j] = this.router.start(j + 1);
      }
      this.takePending();
      at = end;
      if (this.full_) return at;
    }
    return to;
  }

  /**
   * From now on, until stopSampling(), weighs one in mask + 1 of the states each drain sends
   * out by the bucket of their key for `window` (lib/border/window-key.ts): at the step before a
   * window's first, the weights its owners are packed by (lib/engine/window-owners.ts). The states
   * are weighed once a drain, not as the expansion makes them, where a state counts once for each
   * parent and the keys whose states combine most weigh the most: so weighed, 13×13's windows gave
   * one of two workers up to 11% more states than the other, and the other waited for it.
   */
  sampleKeys(window: KeyWindow, mask: number): void {
    for (const shard of this.shards)
      shard.kernel.sampleKeys(window.r, window.rows, this.width, window.lastColumn, window.strings ?? false, mask);
    this.sampling_ = true;
  }

  /** Whether drains weigh the states by their window keys (since sampleKeys, until stopSampling). */
  get sampling(): boolean {
    return this.sampling_;
  }

  /** The weights sampled since sampleKeys, summed over the shards. */
  keyHistogram(): Uint32Array {
    const sum = new Uint32Array(BUCKETS);
    for (const shard of this.shards) {
      const histogram = shard.keyHistogram;
      for (let b = 0; b < BUCKETS; b++) sum[b] += histogram[b];
    }
    return sum;
  }

  stopSampling(): void {
    for (const shard of this.shards) shard.kernel.stopSampling();
    this.sampling_ = false;
  }

  /** Combines every bucket, so that size is exact and every record distinct. */
  settle(): void {
    for (const shard of this.shards) shard.kernel.settle();
  }

  /**
   * Sends every state to `sink` in increasing order, then empties the table. A run writer takes
   * each bucket encoded in the module, an owner split its records in blocks; other sinks take the
   * records one by one.
   */
  drainSorted(sink: RecordSink): void {
    const encoded = 'appendEncoded' in sink ? (sink as EncodedSink) : undefined;
    const blocks = 'appendSorted' in sink ? (sink as SortedBlockSink) : undefined;
    // Bits below a state in its sort key, for the key's place among the bucket's records.
    const room = Math.min(32, 64 - 3 * this.width);
    const k = this.residueCount;
    const { shards } = this;
    const S = shards.length;
    for (let g = 0; g < this.buckets; g++) {
      const shard = shards[g % S];
      const { kernel } = shard;
      const started = performance.now();
      const n = kernel.prepareKeys(Math.floor(g / S), room);
      if (n === 0) continue;
      const b = n <= 2 ** room ? room : 0;
      kernel.sortKeys(n, b);
      kernel.orderKeys(n, b);
      this.sortMs += performance.now() - started;
      const o = (kernel.orderAt() >>> 0) / 4;
      if (encoded) {
        const slice = Math.floor(kernel.outBytes() / maxRecordBytes(k));
        for (let from = 0; from < n; from += slice) {
          const to = Math.min(n, from + slice);
          const previous = encoded.continuation();
          const bytes = kernel.encode(from, to, previous.hi, previous.lo, previous.first);
          const words = shard.renew();
          const sums = (kernel.blockSumsAt() >>> 0) / 4;
          const last = o + 3 * (to - 1);
          encoded.appendEncoded(
            new Uint8Array(words.buffer, kernel.outAt() >>> 0, bytes),
            to - from,
            words[last],
            words[last + 1],
            words.subarray(sums, sums + k),
          );
        }
      } else if (blocks) {
        const slice = Math.floor(kernel.outBytes() / tableSlotBytes(k));
        for (let from = 0; from < n; from += slice) {
          const to = Math.min(n, from + slice);
          kernel.copyOrdered(from, to);
          const at = (kernel.outAt() >>> 0) / 4;
          const words = shard.renew();
          blocks.appendSorted(
            words.subarray(at, at + 2 * (to - from)),
            words.subarray(at + 2 * (to - from), at + (2 + k) * (to - from)),
            to - from,
          );
        }
      } else {
        const words = shard.renew();
        for (let j = 0, at = o; j < n; j++, at += 3) sink.append(words[at], words[at + 1], words, words[at + 2] + 2);
      }
    }
    this.empty();
  }

  /** Copies every state into `run` (sorted when asked), then empties the table. */
  drainTo(run: StepInMemory, sorted: boolean): void {
    run.reset(this.residueCount);
    if (sorted) {
      this.drainSorted(run);
      return;
    }
    // Bucket by bucket: the next step reads its states in key order at the grain of buckets.
    const k = this.residueCount;
    const { shards } = this;
    const S = shards.length;
    for (let g = 0; g < this.buckets; g++) {
      const { kernel } = shards[g % S];
      const slice = Math.floor(kernel.outBytes() / tableSlotBytes(k));
      const n = kernel.gather(Math.floor(g / S));
      for (let from = 0; from < n; from += slice) {
        const to = Math.min(n, from + slice);
        kernel.copyRecords(from, to);
        const at = (kernel.outAt() >>> 0) / 4;
        const words = shards[g % S].renew();
        run.appendBlock(
          words.subarray(at, at + 2 * (to - from)),
          words.subarray(at + 2 * (to - from), at + (2 + k) * (to - from)),
          to - from,
        );
      }
    }
    this.empty();
  }

  /** Empties the table, dropping any records waiting for a drain. */
  clear(): void {
    this.pendingTo.set(this.pendingFrom);
    for (const shard of this.shards) shard.clear();
    this.full_ = false;
  }

  /** Bytes of the record arrays: allocated once, whatever the steps' residues. */
  get recordBytes(): number {
    return this.shards.reduce((bytes, shard) => bytes + shard.recordBytes, 0);
  }

  /** After a drain: every shard empty, then the records that waited for it. */
  private empty(): void {
    for (const shard of this.shards) shard.clear();
    this.full_ = false;
    this.takePending();
    // A group is at most half a shard, so an emptied shard takes it whole (sliceRecords).
    if (this.full_) throw new RangeError('an emptied state table shard did not take its waiting records');
  }

  /** Each shard takes what it can of its waiting records; the table is full when one cannot take all. */
  private takePending(): void {
    const router = this.router;
    if (!router) return;
    for (let j = 0; j < this.shards.length; j++) {
      const from = this.pendingFrom[j];
      const to = this.pendingTo[j];
      if (from === to) continue;
      this.pendingFrom[j] += this.shards[j].take(router.states(from, to), router.residues(from, to), to - from);
      if (this.pendingFrom[j] < to) this.full_ = true;
    }
  }

  private pendingCount(): number {
    let n = 0;
    for (let j = 0; j < this.shards.length; j++) n += this.pendingTo[j] - this.pendingFrom[j];
    return n;
  }

  /** Records of `moduli.length` residues from now on: capacity and load follow; the table is emptied. */
  private setRecord(moduli: readonly number[]): void {
    this.residueCount = moduli.length;
    for (const shard of this.shards) shard.setRecord(moduli, MAX_LOAD_FACTOR);
    this.capacity = this.shards.reduce((sum, shard) => sum + shard.capacity, 0);
    this.maxLoad = this.shards.reduce((sum, shard) => sum + shard.maxLoad, 0);
    this.sliceRecords = Math.max(1, Math.floor(Math.min(...this.shards.map((shard) => shard.capacity)) / 2));
    this.full_ = false;
  }

  /** The tallies of every shard, summed into `into`. */
  private sum(into: Uint32Array, of: (shard: TableShard) => Uint32Array): Uint32Array {
    into.set(of(this.shards[0]));
    for (let j = 1; j < this.shards.length; j++) {
      const tally = of(this.shards[j]);
      for (let q = 0; q < into.length; q++) into[q] += tally[q];
    }
    return into;
  }

  /**
   * Cuts the prefixes into `buckets` consecutive ranges of about equal expected states, and the
   * buckets into the shards' ranges. It runs in every worker at every step over all 65,536
   * prefixes, so the loop keeps to one multiply-add and a truncation a prefix.
   */
  private planBuckets(plan: Uint32Array): void {
    const { buckets, prefixes } = this;
    const S = this.shards.length;
    let total = 0;
    for (let q = 0; q < prefixes; q++) total += plan[q];
    const even = total === 0 ? 1 : UNIFORM_SHARE;
    // Shares in buckets: a prefix's share of the whole, times the number of buckets.
    const evenShare = (even / prefixes) * buckets;
    const perCount = total === 0 ? 0 : ((1 - even) / total) * buckets;
    const last = buckets - 1;
    let at = 0;
    if (S === 1) {
      const bucketOf = this.shards[0].bucketOf;
      for (let q = 0; q < prefixes; q++) {
        const share = evenShare + plan[q] * perCount;
        // A prefix belongs to the bucket where the middle of its share falls.
        const bucket = (at + share * 0.5) | 0;
        bucketOf[q] = bucket < last ? bucket : last;
        at += share;
      }
      return;
    }
    const bucketOf = this.shards.map((shard) => shard.bucketOf);
    const shardOf = this.router!.shardOf;
    for (let q = 0; q < prefixes; q++) {
      const share = evenShare + plan[q] * perCount;
      let bucket = (at + share * 0.5) | 0;
      if (bucket > last) bucket = last;
      const j = bucket % S;
      bucketOf[j][q] = (bucket - j) / S;
      shardOf[q] = j;
      at += share;
    }
  }
}

const clamp = (value: number, least: number, most: number) => Math.min(most, Math.max(least, Math.floor(value)));
