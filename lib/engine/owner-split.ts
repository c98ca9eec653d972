/**
 * A partitioned worker's run split by owner, in WebAssembly (lib/engine/owner-split.as.ts): the state
 * table drains its sorted records in blocks (appendSorted), the module puts each record into its
 * owner's chunk, encoded, and every full chunk goes to a SplitRunWriter, written from the module's
 * memory. No JavaScript runs per record. One instance per worker, its chunks allocated once.
 */

import { instantiate, align8 as align, type WasmMemory, PAGE_BYTES } from '../shared/wasm-module.js';
import type { SplitRunWriter } from '../format/split-run-writer.js';
import { BUCKETS } from '../border/window-key.js';
import { MOST_RESIDUES } from './table-shard.js';
import type { RecordSink } from './state-table.js';
import { sumInPlace } from '../format/run-sum.js';

interface SplitExports {
  memory: WasmMemory;
  heapBase(): number;
  init(moduli: number, state: number, stateStride: number, chunks: number, owners: number, chunkBytes: number, staging: number): void;
  begin(residues: number): void;
  stage(n: number): number;
  split(n: number, from: number): number;
  fullOwner(): number;
  chunkAt(owner: number): number;
  chunkFill(owner: number): number;
  chunkRecords(owner: number): number;
  taken(owner: number): void;
  sumsAt(owner: number): number;
  routeByWindow(tableAt: number, r: number, rows: number, width: number, lastColumn: number, y: number, all: number, strings: number): void;
  windowOwnerOfState(hi: number, lo: number): number;
  sumBlocks(lanes: number, at: number, n: number): void;
}

/** The window a run's records are split by: its first row, rows and column, and the step whose slots the records' fields lie in. */
export interface SplitWindow {
  readonly r: number;
  readonly rows: number;
  readonly lastColumn: boolean;
  readonly y: number;
  /** The owner of each key bucket. */
  readonly owners: Uint16Array;
  /** String keys (lib/border/window-key.ts, stringKeyOfBorder). */
  readonly strings?: boolean;
  /**
   * Every record to this owner, without its key: the successors, inside the window, of parents all
   * of which this owner held, whose keys are theirs (lib/border/window-key.ts).
   */
  readonly everyTo?: number;
}

/** Bytes of an owner's state in the module: fill, records, previous state, started, then a u64 sum per residue. */
export const splitStateBytes = (mostResidues: number): number => 24 + 8 * mostResidues;

/** Records staged at once when they come one by one (append). */
const BLOCK_RECORDS = 1024;

export class OwnerSplit implements RecordSink {
  readonly owners: number;
  readonly chunkBytes: number;
  private readonly kernel: SplitExports;
  private readonly moduliAt: number;
  private readonly tableAt: number;
  private readonly width: number;
  /** 64 bytes the run sum's lanes use while it reads the chunks in place (sumInPlace). */
  private readonly lanesAt: number;
  private words = new Uint32Array(0);
  private k = 0;
  private writer?: SplitRunWriter;
  /** Records written to each owner's sections since it was made. */
  readonly recordsTo: Float64Array;
  // Records that come one by one, gathered into a block.
  private readonly blockStates = new Uint32Array(2 * BLOCK_RECORDS);
  private blockResidues = new Uint32Array(0);
  private blockSize = 0;

  /** Chunks of `chunkBytes` for each of `owners` owners, for records of up to `mostResidues` residues of a board `width` wide. */
  constructor(owners: number, width: number, chunkBytes: number, mostResidues: number) {
    if (mostResidues > MOST_RESIDUES) throw new RangeError(`an owner split holds at most ${MOST_RESIDUES} residues`);
    this.owners = owners;
    this.chunkBytes = chunkBytes;
    this.recordsTo = new Float64Array(owners);
    this.kernel = instantiate<SplitExports>(new URL('./owner-split.wasm', import.meta.url), 'the owner split');
    let at = align(this.kernel.heapBase());
    const take = (bytes: number) => {
      const start = at;
      at = align(at + bytes);
      return start;
    };
    this.moduliAt = take(4 * MOST_RESIDUES);
    this.tableAt = take(2 * BUCKETS);
    this.lanesAt = take(64);
    this.width = width;
    const stride = splitStateBytes(mostResidues);
    const stateAt = take(owners * stride);
    const chunksAt = take(owners * chunkBytes);
    const { memory } = this.kernel;
    const pages = Math.ceil(at / PAGE_BYTES) - memory.buffer.byteLength / PAGE_BYTES;
    if (pages > 0) memory.grow(pages);
    this.kernel.init(this.moduliAt, stateAt, stride, chunksAt, owners, chunkBytes, at);
    this.renew();
  }

  /** Bytes of the module's memory beside the staging: what the memory plan charges for it. */
  static fixedBytes(owners: number, chunkBytes: number, mostResidues: number): number {
    return owners * (chunkBytes + splitStateBytes(mostResidues)) + 2 * BUCKETS;
  }

  /**
   * Splits the runs from now on by window (lib/border/window-key.ts): each record to the owner of
   * its key's bucket in `window.owners`, its fields in the slots of step `window.y`.
   */
  routeBy(window: SplitWindow): void {
    new Uint16Array(this.kernel.memory.buffer, this.tableAt, BUCKETS).set(window.owners);
    const { r, rows, lastColumn, y, everyTo, strings } = window;
    this.kernel.routeByWindow(this.tableAt, r, rows, this.width, lastColumn ? 1 : 0, y, everyTo ?? -1, strings ? 1 : 0);
  }

  /** Starts splitting a run of records of `moduli`'s residues into `writer`: every owner's section empty. */
  begin(writer: SplitRunWriter, moduli: readonly number[]): void {
    this.writer = writer;
    this.k = moduli.length;
    this.renew().set(moduli, this.moduliAt / 4);
    this.kernel.begin(moduli.length);
    if (this.blockResidues.length < BLOCK_RECORDS * this.k) this.blockResidues = new Uint32Array(BLOCK_RECORDS * this.k);
    this.blockSize = 0;
  }

  /** n records in increasing order, after any appended before: states as (hi, lo) pairs, then residues, k a record. */
  appendSorted(states: Uint32Array, residues: Uint32Array, n: number): void {
    this.flushBlock();
    this.split(states, residues, n);
  }

  private split(states: Uint32Array, residues: Uint32Array, n: number): void {
    const { kernel } = this;
    const staged = (kernel.stage(n) >>> 0) / 4;
    const words = this.renew();
    words.set(states.subarray(0, 2 * n), staged);
    words.set(residues.subarray(0, this.k * n), staged + 2 * n);
    for (let i = 0; i < n;) {
      i = kernel.split(n, i);
      const full = kernel.fullOwner();
      if (full >= 0) this.writeOut(full);
    }
  }

  /** One record, in increasing order (gathered into blocks). */
  append(hi: number, lo: number, residues: Uint32Array, at: number): void {
    const n = this.blockSize++;
    this.blockStates[2 * n] = hi;
    this.blockStates[2 * n + 1] = lo;
    for (let r = 0; r < this.k; r++) this.blockResidues[n * this.k + r] = residues[at + r];
    if (this.blockSize === BLOCK_RECORDS) this.flushBlock();
  }

  /** Writes out every chunk that holds records, and returns each owner's residue sums over the run. */
  end(): (owner: number) => Uint32Array {
    this.flushBlock();
    for (let owner = 0; owner < this.owners; owner++) if (this.kernel.chunkFill(owner) > 0) this.writeOut(owner);
    this.writer = undefined;
    return (owner) => {
      const at = (this.kernel.sumsAt(owner) >>> 0) / 4;
      const words = this.renew();
      // Reduced, each u64 sum is below its modulus: its low word is all of it.
      return Uint32Array.from({ length: this.k }, (_, r) => words[at + 2 * r]);
    };
  }

  /** The module's owner of (hi, lo) by the window of the last routeBy, for the tests. */
  windowOwnerOf(hi: number, lo: number): number {
    return this.kernel.windowOwnerOfState(hi, lo);
  }

  private flushBlock(): void {
    if (this.blockSize === 0) return;
    const n = this.blockSize;
    this.blockSize = 0;
    this.split(this.blockStates, this.blockResidues, n);
  }

  private writeOut(owner: number): void {
    const { kernel } = this;
    const at = kernel.chunkAt(owner) >>> 0;
    const bytes = new Uint8Array(this.kernel.memory.buffer, at, kernel.chunkFill(owner));
    this.writer!.writeChunk(owner, bytes, kernel.chunkRecords(owner));
    this.recordsTo[owner] += kernel.chunkRecords(owner);
    kernel.taken(owner);
  }

  private renew(): Uint32Array {
    const { buffer } = this.kernel.memory;
    if (this.words.buffer !== buffer) {
      this.words = new Uint32Array(buffer);
      // A grown memory is a new buffer: lent to the run sum again, so that it still reads the chunks in place.
      sumInPlace(this.kernel.memory, this.kernel, this.lanesAt);
    }
    return this.words;
  }
}
