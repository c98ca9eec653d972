/**
 * A worker's in-memory step, held in groups of window keys (lib/engine/group-step.as.ts, which says
 * why), where the next step expands and combines it in one call: the group step. It stands where a
 * MemoryRun stands (the same methods, for the steps that run through the stream pipeline: a
 * window's first step among several workers, or a step that outgrows it), and holds its states in
 * the WebAssembly module's memory, in two areas that take turns.
 *
 * States that come in from the state table are in no groups yet: the next group step puts them in
 * groups first (regroup), by their keys for its window; so does a step that starts a new window.
 */

import { Batch } from './batch.js';
import { instantiate, type WasmMemory } from '../shared/wasm-module.js';
import type { ResidueExtender } from '../residues/growth.js';
import { BUCKETS } from '../border/window-key.js';

interface GroupExports {
  memory: WasmMemory;
  heapBase(): number;
  init(areaWords: number, leastWords: number, stageWords: number): boolean;
  moduliAt(): number;
  droppedAt(): number;
  legalAt(): number;
  inverseAt(): number;
  reducedAt(): number;
  histogramAt(): number;
  foreseenAt(): number;
  stagingAt(): number;
  areaAt(area: number): number;
  groupStart(area: number, g: number): number;
  successorsMade(): number;
  regroup(from: number, n: number, k: number, y: number, r: number, rows: number, width: number, lastColumn: boolean): void;
  groupStep(
    from: number,
    kIn: number,
    kOut: number,
    y: number,
    width: number,
    lastColumn: boolean,
    sumLegal: boolean,
    capacity: number,
  ): number;
  sampleKeys(area: number, n: number, k: number, mask: number, r: number, rows: number, width: number, lastColumn: boolean): void;
  foresee(area: number, n: number, k: number, shift: number, mask: number): void;
  exportRecords(area: number, from: number, n: number, k: number): void;
  importRecords(area: number, at: number, n: number, k: number): void;
}

/** A window of rows: the groups of a step are its states' key buckets for the window that holds it. */
export interface GroupWindow {
  readonly r: number;
  readonly rows: number;
  readonly lastColumn: boolean;
  /** The window's column: a window of another column is another window. */
  readonly column: number;
}

/** The most bytes both areas may take: with the fixed arrays, within one WebAssembly memory. */
export const MAX_GROUPED_AREA_BYTES = 1.75 * 2 ** 30;

/** What a group step did. */
export interface GroupStepResult {
  readonly statesIn: number;
  readonly successors: number;
  /** False when the successors outgrew the area: nothing changed, and the step goes the usual way. */
  readonly done: boolean;
  /** Milliseconds putting the parents into groups (0 when they were). */
  readonly regroupMs: number;
}

export class GroupedRun {
  count = 0;
  /** States the run holds with this step's residues. */
  capacity: number;
  residueCount: number;
  private readonly kernel: GroupExports;
  private readonly areaWords: number;
  private readonly stageRecords: number;
  /** The most residues a state carries: the pass's. */
  private readonly maxResidues: number;
  private words = new Uint32Array(0);
  /** The area that holds the states. */
  private area = 0;
  /** The window whose key buckets the states are grouped by, if they are. */
  private grouping?: GroupWindow;

  /** Room for `capacity` states of `residueCount` residues in each area; batches of up to `batchRecords` come and go. */
  constructor(capacity: number, residueCount: number, batchRecords: number) {
    this.areaWords = capacity * (2 + residueCount);
    if (8 * this.areaWords > MAX_GROUPED_AREA_BYTES * 2)
      throw new RangeError(`grouped run of ${capacity} states is larger than one memory`);
    this.stageRecords = Math.max(1, batchRecords);
    this.maxResidues = residueCount;
    this.kernel = instantiate<GroupExports>(new URL('./group-step.wasm', import.meta.url), 'the group step');
    if (!this.kernel.init(this.areaWords, 3, this.stageRecords * (2 + residueCount)))
      throw new RangeError(`no memory for a grouped run of ${capacity} states`);
    this.residueCount = residueCount;
    this.capacity = capacity;
    this.renew();
  }

  /** States of `residueCount` residues an area holds. */
  capacityFor(residueCount: number): number {
    return Math.floor(this.areaWords / (2 + residueCount));
  }

  /** Empties the run for states of `residueCount` residues. */
  reset(residueCount: number): void {
    if (residueCount > this.maxResidues) throw new RangeError(`a grouped run holds at most ${this.maxResidues} residues`);
    this.residueCount = residueCount;
    this.capacity = this.capacityFor(residueCount);
    this.count = 0;
    this.grouping = undefined;
  }

  append(hi: number, lo: number, src: Uint32Array, at: number): void {
    const k = this.residueCount;
    const states = new Uint32Array([hi, lo]);
    this.appendBlock(states, src.subarray(at, at + k), 1);
  }

  /** Appends n records: states as (hi, lo) pairs, residues residueCount each. */
  appendBlock(states: Uint32Array, residues: Uint32Array, n: number): void {
    if (this.count + n > this.capacity) throw new RangeError(`in-memory run full at ${this.capacity} states`);
    const k = this.residueCount;
    for (let done = 0; done < n;) {
      const m = Math.min(this.stageRecords, n - done);
      const words = this.renew();
      const stage = this.kernel.stagingAt() / 4;
      words.set(states.subarray(2 * done, 2 * (done + m)), stage);
      words.set(residues.subarray(k * done, k * (done + m)), stage + 2 * m);
      this.kernel.importRecords(this.area, this.count, m, k);
      this.count += m;
      done += m;
    }
    this.grouping = undefined;
  }

  appendSorted(states: Uint32Array, residues: Uint32Array, n: number): void {
    this.appendBlock(states, residues, n);
  }

  /** The states as batches of at most `size` (copies: the run's records interleave states and residues). */
  *batches(size: number): Generator<Batch> {
    const k = this.residueCount;
    const most = Math.min(size, this.stageRecords);
    for (let start = 0; start < this.count; start += most) {
      const n = Math.min(most, this.count - start);
      this.kernel.exportRecords(this.area, start, n, k);
      const words = this.renew();
      const stage = this.kernel.stagingAt() / 4;
      yield new Batch(n, k, {
        states: words.slice(stage, stage + 2 * n),
        residues: words.slice(stage + 2 * n, stage + (2 + k) * n),
        size: n,
      });
    }
  }

  /**
   * The step that places point y (lastColumn: in the board's last column) on these states, by
   * groups of `window`: its successors replace them, carrying `outModuli` (one more than the
   * parents' where the extender is given). Puts the states in groups first when they are not in
   * those of `window`. Adds to `dropped` what went to dropped successors, and with `legal`, the
   * legal parents' residues to it (both reduced by the moduli).
   */
  step(
    y: number,
    width: number,
    window: GroupWindow,
    outModuli: readonly number[],
    extender: ResidueExtender | undefined,
    dropped: Float64Array,
    legal: Float64Array | undefined,
  ): GroupStepResult {
    const { kernel } = this;
    const kIn = this.residueCount;
    const kOut = outModuli.length;
    const statesIn = this.count;
    let regroupMs = 0;
    if (!sameWindow(this.grouping, window)) {
      const started = performance.now();
      kernel.regroup(this.area, this.count, kIn, y, window.r, window.rows, width, window.lastColumn);
      this.area = 1 - this.area;
      this.grouping = window;
      regroupMs = performance.now() - started;
    }
    let words = this.renew();
    const moduliAt = kernel.moduliAt() / 4;
    for (let r = 0; r < kOut; r++) words[moduliAt + r] = outModuli[r];
    words.fill(0, kernel.droppedAt() / 4, kernel.droppedAt() / 4 + kOut);
    words.fill(0, kernel.legalAt() / 4, kernel.legalAt() / 4 + 2 * kIn);
    if (extender) {
      words.set(extender.tables.inverse, kernel.inverseAt() / 4);
      words.set(extender.tables.reduced, kernel.reducedAt() / 4);
    }
    const capacity = Math.floor(this.areaWords / (2 + kOut));
    const written = kernel.groupStep(this.area, kIn, kOut, y, width, window.lastColumn, legal !== undefined, capacity);
    if (written === -2) throw new RangeError(`a state of the last column's step ${y} has fields above ${y - 1} on its border`);
    if (written < 0) return { statesIn, successors: 0, done: false, regroupMs };
    words = this.renew();
    for (let r = 0; r < kOut; r++) {
      const sum = dropped[r] + words[kernel.droppedAt() / 4 + r];
      dropped[r] = sum >= outModuli[r] ? sum - outModuli[r] : sum;
    }
    if (legal) {
      // The kernel's sums are u64, reduced: below 2^32, in their low words.
      const at = kernel.legalAt() / 4;
      for (let r = 0; r < kIn; r++) legal[r] = words[at + 2 * r];
    }
    this.area = 1 - this.area;
    this.count = written;
    this.residueCount = kOut;
    this.capacity = capacity;
    // The successors are in the parents' groups: those of the window while it lasts.
    this.grouping = window.r + window.rows > y + 1 ? window : undefined;
    return { statesIn, successors: kernel.successorsMade(), done: true, regroupMs };
  }

  /** The key weights of the next window (BUCKETS u32), one state in mask + 1, for packing its owners; the states are at its first step. */
  sampleKeys(window: GroupWindow, width: number, mask: number): Uint32Array {
    const { kernel } = this;
    const at = kernel.histogramAt() / 4;
    this.renew().fill(0, at, at + BUCKETS);
    kernel.sampleKeys(this.area, this.count, this.residueCount, mask, window.r, window.rows, width, window.lastColumn);
    return this.renew().slice(at, at + BUCKETS);
  }

  /** Tallies into `into` each state's successors' expected key prefix, (state >> shift) & (prefixes − 1), for the state table's plan. */
  foresee(into: Uint32Array, shift: number): void {
    const { kernel } = this;
    const at = kernel.foreseenAt() / 4;
    this.renew().fill(0, at, at + into.length);
    kernel.foresee(this.area, this.count, this.residueCount, shift, into.length - 1);
    into.set(this.renew().subarray(at, at + into.length));
  }

  /**
   * Where each group starts among the states batches() gives, BUCKETS + 1 entries, the last their
   * count; and the window whose key buckets the groups are. Undefined when the states are in no
   * groups (brought in from the table, or not yet put in the next window's).
   */
  groups(): { readonly starts: Uint32Array; readonly window: GroupWindow } | undefined {
    const window = this.grouping;
    if (!window) return undefined;
    const starts = new Uint32Array(BUCKETS + 1);
    for (let g = 0; g <= BUCKETS; g++) starts[g] = this.kernel.groupStart(this.area, g);
    return { starts, window };
  }

  /** The module's memory as words; a new view when it grew since. */
  private renew(): Uint32Array {
    const { buffer } = this.kernel.memory;
    if (this.words.buffer !== buffer) this.words = new Uint32Array(buffer);
    return this.words;
  }
}

function sameWindow(a: GroupWindow | undefined, b: GroupWindow): boolean {
  return a !== undefined && a.r === b.r && a.rows === b.rows && a.column === b.column && a.lastColumn === b.lastColumn;
}
