/**
 * One shard of a worker's state table (state-table.ts): an instance of the table's WebAssembly module
 * (lib/engine/table-shard.as.ts) with its own memory, holding the records of a range of the table's
 * buckets. A WebAssembly memory addresses 4 GiB, so a table larger than one shard spans several.
 */

import { adviseHugePages } from '../shared/huge-pages.js';
import { align8 as align, instantiate, type WasmMemory } from '../shared/wasm-module.js';
import { BUCKETS } from '../border/window-key.js';

/** Residues a record may carry, at most: room for their moduli in the module's memory. */
export const MOST_RESIDUES = 64;

/** Addresses come back as i32: those past 2 GiB read as negative until `>>> 0`. */
export interface TableExports {
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
  copyOrdered(from: number, to: number): void;
  prepareKeys(p: number, room: number): number;
  sortKeys(n: number, b: number): void;
  orderKeys(n: number, b: number): void;
  encode(from: number, to: number, prevHi: number, prevLo: number, first: boolean): number;
  outAt(): number;
  outBytes(): number;
  blockSumsAt(): number;
  orderAt(): number;
  sampleKeys(r: number, rows: number, width: number, lastColumn: boolean, strings: boolean, mask: number): void;
  stopSampling(): void;
  keyHistogramAt(): number;
}

/** The shape every shard of a table shares. */
export interface ShardShape {
  /** Words of records. */
  readonly words: number;
  readonly buckets: number;
  readonly chunkRecords: number;
  readonly prefixShift: number;
  readonly prefixes: number;
}

export class TableShard {
  readonly kernel: TableExports;
  readonly buckets: number;
  /** Records of this step's residues the shard holds, and the distinct states that make it full. */
  capacity = 0;
  maxLoad = 0;
  private readonly maxWords: number;
  private readonly chunkRecords: number;
  private readonly prefixes: number;
  /** The module's memory as words, renewed when it grows. */
  private words = new Uint32Array(0);

  // Word offsets of the module's fixed arrays.
  private readonly moduliAt: number;
  private readonly bucketOfAt: number;
  private readonly foreseenAt: number;

  constructor(shape: ShardShape, moduli: readonly number[], loadFactor: number) {
    const { words, buckets, chunkRecords, prefixShift, prefixes } = shape;
    this.maxWords = words;
    this.buckets = buckets;
    this.chunkRecords = chunkRecords;
    this.prefixes = prefixes;
    // Room for the chunk list of the smallest records, those of one residue.
    const chunks = Math.floor(words / 3 / chunkRecords) + 1;
    this.kernel = instantiate<TableExports>(new URL('./table-shard.wasm', import.meta.url), 'the state table');
    // Byte offsets, 8-aligned: moduli, five arrays of one word per bucket, the bucket of each
    // prefix (u16), the foreseen tally, the chunk list, the records, then scratch.
    let at = align(this.kernel.heapBase());
    const take = (bytes: number) => {
      const start = at;
      at = align(at + bytes);
      return start;
    };
    this.moduliAt = take(4 * MOST_RESIDUES) / 4;
    const [first, last, lastFill, count, distinct] = [0, 1, 2, 3, 4].map(() => take(4 * buckets));
    this.bucketOfAt = take(2 * prefixes) / 2;
    this.foreseenAt = take(4 * prefixes) / 4;
    const nextAt = take(4 * chunks);
    const recordsAt = take(4 * words);
    this.kernel.init(
      recordsAt,
      nextAt,
      first,
      last,
      lastFill,
      count,
      distinct,
      this.bucketOfAt * 2,
      this.foreseenAt * 4,
      this.moduliAt * 4,
      buckets,
      chunkRecords,
      prefixShift,
      prefixShift - 3,
      prefixes,
      at,
    );
    this.setRecord(moduli, loadFactor);
  }

  /** Records of `moduli.length` residues from now on: capacity and load follow; the shard is emptied. */
  setRecord(moduli: readonly number[], loadFactor: number): void {
    this.renew().set(moduli, this.moduliAt);
    const R = this.chunkRecords;
    this.capacity = Math.max(1, Math.floor(this.maxWords / (2 + moduli.length) / R)) * R;
    this.maxLoad = Math.max(1, Math.floor(this.capacity * loadFactor));
    this.kernel.setRecord(moduli.length, this.capacity / R);
  }

  /**
   * Appends n records, states as (hi, lo) words and residues k a record, and returns how many it
   * took: n, or fewer when the shard is full (combined, it holds its load, or no chunk is free).
   */
  take(states: Uint32Array, residues: Uint32Array, n: number): number {
    const { kernel } = this;
    const staged = (kernel.stage(n) >>> 0) / 4;
    const words = this.renew();
    words.set(states, staged);
    words.set(residues, staged + 2 * n);
    for (let i = 0; ;) {
      i = kernel.addBatch(n, i);
      if (i === n) return n;
      // No chunk left: combine every bucket to make room, unless that leaves the shard full.
      kernel.settle();
      if (kernel.distinctStates() >= this.maxLoad || !kernel.hasFreeChunk()) return i;
    }
  }

  /** Bytes of the record array: allocated once, whatever the steps' residues. */
  get recordBytes(): number {
    return 4 * this.maxWords;
  }

  /** Empties the shard. */
  clear(): void {
    this.kernel.clear(this.capacity / this.chunkRecords);
  }

  /** The module's memory as words; a new view when it grew since the last call. */
  renew(): Uint32Array {
    const { buffer } = this.kernel.memory;
    if (this.words.buffer !== buffer) {
      this.words = new Uint32Array(buffer);
      // The records take most of the memory and are appended to at random buckets.
      adviseHugePages(buffer);
    }
    return this.words;
  }

  /** The local bucket of each prefix this shard owns (the others' entries are never read). */
  get bucketOf(): Uint16Array {
    return new Uint16Array(this.renew().buffer, 2 * this.bucketOfAt, this.prefixes);
  }

  /** The window keys sampled from the drained states since the module's sampleKeys (BUCKETS words). */
  get keyHistogram(): Uint32Array {
    const at = (this.kernel.keyHistogramAt() >>> 0) / 4;
    return this.renew().subarray(at, at + BUCKETS);
  }

  /** States per prefix the next step is expected to have, from this step's drained states. */
  get foreseen(): Uint32Array {
    return this.renew().subarray(this.foreseenAt, this.foreseenAt + this.prefixes);
  }
}
