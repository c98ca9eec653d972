/**
 * Expander.expand over whole batches, in WebAssembly (lib/border/expander-kernel.as.ts, built by `npm run build`).
 *
 * The JavaScript expander spends most of its time on states split over two 32-bit words; the
 * WebAssembly build holds a state in one 64-bit integer and gives the same successors in the same
 * order about three times faster (docs/performance.md). It also hands each successor, with its
 * parent's residues, to the region of the worker that owns it, combining equal successors of the
 * batch, and tallies what goes to dropped successors, so that no record is touched one by one in
 * JavaScript. The parents are copied into the module's memory in one call; the callers read the
 * results through `words`.
 */

import type { ResidueExtender } from '../residues/growth.js';
import { BUCKETS } from './window-key.js';
import { align8 as align, instantiate, PAGE_BYTES, type WasmMemory } from '../shared/wasm-module.js';

interface KernelExports {
  memory: WasmMemory;
  heapBase(): number;
  expandBatch(parents: number, n: number, step: number, width: number, lastColumn: boolean, successors: number, counts: number): number;
  extendResidues(
    n: number,
    from: number,
    to: number,
    residues: number,
    moduli: number,
    inverse: number,
    reduced: number,
    scratch: number,
  ): void;
  keyWindow(r: number, rows: number, width: number, lastColumn: boolean, strings: boolean): void;
  fanOut(
    n: number,
    k: number,
    residues: number,
    successors: number,
    counts: number,
    parents: number,
    regionCount: number,
    self: number,
    owners: number,
    regions: number,
    regionBytes: number,
    residueOffset: number,
    sizes: number,
    moduli: number,
    dropped: number,
    index: number,
    indexBits: number,
  ): void;
}

/**
 * fanOut's cache holds at most 2^11 successors (24 KiB with their keys, within a 32 KiB L1 data
 * cache): 2^12 saves the table a little work at 14×14 and costs more than that in fanOut at 13×13
 * and below; 2^10 misses more repeats for no less cost (docs/performance.md).
 */
const CACHE_BITS = 11;

/** Byte offsets of the kernel's buffers for up to `parents` parents of k residues and `owners` owners. */
class Layout {
  readonly parents: number;
  readonly successors: number;
  readonly counts: number;
  readonly residues: number;
  readonly moduli: number;
  readonly dropped: number;
  /** Residue extension: inverses and reductions (k × k each, then their Shoup quotients) and scratch (4k words). */
  readonly inverse: number;
  readonly reduced: number;
  readonly scratch: number;
  readonly sizes: number;
  readonly regions: number;
  /** A region: 3 × parents records, states then residues. */
  readonly regionBytes: number;
  readonly residueOffset: number;
  /** fanOut's cache of the successors made last: 2^indexBits u32 slots, then their u64 keys. */
  readonly index: number;
  readonly indexBits: number;
  readonly end: number;

  constructor(
    base: number,
    readonly capacity: number,
    readonly k: number,
    readonly owners: number,
  ) {
    const records = 3 * capacity;
    this.parents = base;
    this.successors = this.parents + 8 * capacity;
    this.counts = this.successors + 8 * records;
    this.residues = this.counts + align(capacity);
    this.moduli = this.residues + 4 * k * capacity;
    this.dropped = this.moduli + 4 * k;
    this.inverse = this.dropped + align(4 * k);
    this.reduced = this.inverse + 8 * k * k;
    this.scratch = align(this.reduced + 8 * k * k);
    this.sizes = this.scratch + 16 * k;
    this.regions = this.sizes + align(4 * owners);
    this.residueOffset = 8 * records;
    this.regionBytes = this.residueOffset + 4 * k * records;
    // An index slot holds a record's place in its region above 8 bits, its owner below.
    if (records >= 2 ** 24 || owners > 256) throw new RangeError(`no index for ${capacity} parents and ${owners} owners`);
    this.index = this.regions + owners * this.regionBytes;
    this.indexBits = Math.min(Math.ceil(Math.log2(4 * capacity)), CACHE_BITS);
    // The slots (u32), then their keys (u64, 8-aligned: cacheKeys in the module).
    this.end = align(this.index + 4 * 2 ** this.indexBits) + 8 * 2 ** this.indexBits;
  }

  fits(n: number, k: number, owners: number): boolean {
    return n <= this.capacity && k === this.k && owners === this.owners;
  }
}

/**
 * How a step's successors are routed: all to `self` inside a window; at a window's first step
 * (`owners`, an owner per key bucket) by their parent's key for the window of `rows` rows from
 * row r.
 */
export interface StepRouting {
  readonly self: number;
  readonly owners?: Uint16Array;
  readonly window?: KeyWindow;
}

export interface KeyWindow {
  readonly r: number;
  readonly rows: number;
  readonly lastColumn: boolean;
  /** String keys (lib/border/window-key.ts, stringKeyOfBorder). */
  readonly strings?: boolean;
}

/** Bytes of the fixed area below the batch buffers: the owner table (u16). */
const OWNER_TABLE_BYTES = 2 * BUCKETS;

export class ExpanderKernel {
  readonly width: number;
  /** The module's memory as words; word offsets below are into it. */
  words = new Uint32Array(0);
  /** The module's memory as bytes. */
  private bytes = new Uint8Array(0);
  private readonly kernel: KernelExports;
  private readonly base: number;
  private layout?: Layout;
  /** The fixed area: the owner table of a window's first step. */
  private readonly ownerTableAt: number;
  private routing: StepRouting = { self: 0 };

  constructor(width: number) {
    this.width = width;
    this.kernel = instantiate<KernelExports>(new URL('./expander-kernel.wasm', import.meta.url), 'the expansion kernel');
    this.ownerTableAt = align(this.kernel.heapBase());
    this.base = this.ownerTableAt + OWNER_TABLE_BYTES;
    const { memory } = this.kernel;
    const pages = Math.ceil(this.base / PAGE_BYTES) - memory.buffer.byteLength / PAGE_BYTES;
    if (pages > 0) memory.grow(pages);
    this.words = new Uint32Array(memory.buffer);
    this.bytes = new Uint8Array(memory.buffer);
  }

  /** Sets how the next fanOuts route (see StepRouting). */
  route(routing: StepRouting): void {
    this.routing = routing;
    const { owners, window } = routing;
    if (owners) {
      if (!window) throw new RangeError('an owner table needs its window');
      new Uint16Array(this.words.buffer, this.ownerTableAt, BUCKETS).set(owners);
      this.kernel.keyWindow(window.r, window.rows, this.width, window.lastColumn, window.strings ?? false);
    }
  }

  /**
   * Expands parents states[0 .. 2n) at step y (lastColumn: in the board's last column) and returns the
   * number of successors. They are then in `words` from successorStart, in the order
   * Expander.expand gives them parent by parent, and parent i's count is countOf(i).
   */
  expand(states: Uint32Array, n: number, y: number, lastColumn: boolean, k = 0, owners = 1): number {
    const layout = this.reserve(n, k, owners);
    this.words.set(states.subarray(0, 2 * n), layout.parents / 4);
    const made = this.kernel.expandBatch(layout.parents, n, y, this.width, lastColumn, layout.successors, layout.counts);
    if (made < 0) throw new RangeError(`a state of the last column's step ${y} has fields above ${y - 1} on its border`);
    return made;
  }

  get successorStart(): number {
    return this.layout!.successors / 4;
  }

  countOf(i: number): number {
    return this.bytes[this.layout!.counts + i];
  }

  /**
   * After expand(states, n, y, k, owners): gives each successor its parent's residues
   * (residues[0 .. k·n)) and puts it in its owner's region, equal successors combined into one
   * record (in the order of their first appearance); adds what went to dropped successors to
   * `dropped` modulo `moduli`.
   */
  fanOut(residues: Uint32Array | undefined, n: number, moduli: Float64Array, dropped: Float64Array): void {
    const layout = this.layout!;
    const { k, owners } = layout;
    const words = this.words;
    if (residues) words.set(residues.subarray(0, k * n), layout.residues / 4);
    for (let r = 0; r < k; r++) {
      words[layout.moduli / 4 + r] = moduli[r];
      words[layout.dropped / 4 + r] = 0;
    }
    const { regions, regionBytes, residueOffset, sizes } = layout;
    const { self } = this.routing;
    if (self >= owners) throw new RangeError(`worker ${self} routes among ${owners} owners`);
    this.kernel.fanOut(
      n,
      k,
      layout.residues,
      layout.successors,
      layout.counts,
      layout.parents,
      owners,
      self,
      this.routing.owners ? this.ownerTableAt : 0,
      regions,
      regionBytes,
      residueOffset,
      sizes,
      layout.moduli,
      layout.dropped,
      layout.index,
      layout.indexBits,
    );
    for (let r = 0; r < k; r++) {
      const sum = dropped[r] + words[layout.dropped / 4 + r];
      dropped[r] = sum >= moduli[r] ? sum - moduli[r] : sum;
    }
  }

  /**
   * After expand(…, k, owners): puts the n parents' residues in place for fanOut(undefined, …),
   * each extended from extender.from residues (residues[0 .. from·n)) to extender.to = k.
   */
  extendResidues(residues: Uint32Array, n: number, extender: ResidueExtender): void {
    const layout = this.layout!;
    const { from, to } = extender;
    if (to !== layout.k) throw new RangeError(`residues extended to ${to}, but the batch carries ${layout.k}`);
    const words = this.words;
    words.set(residues.subarray(0, from * n), layout.residues / 4);
    const { moduli, inverse, reduced } = extender.tables;
    for (let j = 0; j < to; j++) words[layout.moduli / 4 + j] = moduli[j];
    words.set(inverse, layout.inverse / 4);
    words.set(reduced, layout.reduced / 4);
    this.kernel.extendResidues(n, from, to, layout.residues, layout.moduli, layout.inverse, layout.reduced, layout.scratch);
  }

  /**
   * After expand(…, k, owners): puts the n parents' residues in place for fanOut(undefined, …), each
   * cut from `from` residues (residues[0 .. from·n)) to its first k, which hold its count exactly.
   */
  narrowResidues(residues: Uint32Array, n: number, from: number): void {
    const { k } = this.layout!;
    if (from < k) throw new RangeError(`residues narrowed from ${from} to ${k}`);
    const words = this.words;
    const at = this.layout!.residues / 4;
    for (let i = 0; i < n; i++) {
      const src = i * from;
      const dst = at + i * k;
      for (let r = 0; r < k; r++) words[dst + r] = residues[src + r];
    }
  }

  /** The word offset of the parents' residues, where extendResidues leaves them. */
  get layoutResidues(): number {
    return this.layout!.residues / 4;
  }

  /** Records owner d received in the last fanOut. */
  sizeOf(d: number): number {
    return this.words[this.layout!.sizes / 4 + d];
  }

  /** Word offsets of owner d's states and residues. */
  statesOf(d: number): number {
    const layout = this.layout!;
    return (layout.regions + d * layout.regionBytes) / 4;
  }

  residuesOf(d: number): number {
    const layout = this.layout!;
    return (layout.regions + d * layout.regionBytes + layout.residueOffset) / 4;
  }

  /** Room for n parents of k residues and `owners` owners; the views are renewed when the memory grows. */
  private reserve(n: number, k: number, owners: number): Layout {
    // fanOut sums the dropped tally in room for 64 residues, a pass's most (lib/count/options.ts).
    if (k > 64) throw new RangeError(`the expansion kernel carries at most 64 residues, not ${k}`);
    if (this.layout?.fits(n, k, owners)) return this.layout;
    const layout = new Layout(this.base, Math.max(n, this.layout?.capacity ?? 0, 1024), k, owners);
    const { memory } = this.kernel;
    const pages = Math.ceil(layout.end / PAGE_BYTES) - memory.buffer.byteLength / PAGE_BYTES;
    if (pages > 0) memory.grow(pages);
    this.words = new Uint32Array(memory.buffer);
    this.bytes = new Uint8Array(memory.buffer);
    this.layout = layout;
    return layout;
  }
}
