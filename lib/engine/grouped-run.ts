/**
 * A worker's in-memory step, held in groups of window keys (lib/engine/group-step.as.ts, which says
 * why), where the next step expands and combines it in one call: the group step. It stands where a
 * MemoryRun stands (the same methods, for the steps that run through the stream pipeline: one whose
 * successors outgrow it, or one that comes from files), and holds its states in the WebAssembly
 * module's memory, in two areas that take turns.
 *
 * States that come in from the state table are in no groups yet: the next group step puts them in
 * groups first (regroup), by their keys for its window; so does a step that starts a new window. At
 * a window's first step among several workers the states change owner first (sendAway, receive,
 * settle), and a group's parents are then this worker's own and those it received, side by side.
 */

import { Batch } from './batch.js';
import { adviseHugePages } from '../shared/huge-pages.js';
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
  legalModuliAt(): number;
  inverseAt(): number;
  reducedAt(): number;
  histogramAt(): number;
  foreseenAt(): number;
  ownersAt(): number;
  stagingAt(block: number): number;
  areaAt(area: number): number;
  groupStart(area: number, g: number): number;
  ownerStart(owner: number): number;
  successorsMade(): number;
  regroup(
    from: number,
    n: number,
    k: number,
    y: number,
    r: number,
    rows: number,
    width: number,
    lastColumn: boolean,
    to: number,
    at: number,
    dir: number,
  ): void;
  partition(
    from: number,
    n: number,
    k: number,
    y: number,
    r: number,
    rows: number,
    groupRows: number,
    width: number,
    lastColumn: boolean,
    self: number,
    workers: number,
  ): number;
  groupStep(
    from: number,
    received: boolean,
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
  importRecords(area: number, at: number, n: number, k: number, block: number): void;
}

/** A window of rows: the groups of a step are its states' key buckets for the window that holds it. */
export interface GroupWindow {
  readonly r: number;
  readonly rows: number;
  readonly lastColumn: boolean;
  /** The window's column: a window of another column is another window. */
  readonly column: number;
}

/** The most bytes an area may take: two of them, with the fixed arrays, the tags and the index, within one WebAssembly memory's 4 GiB. */
export const MAX_GROUPED_AREA_BYTES = 1.5 * 2 ** 30;
/** The directory of the states received at a window's first step (group-step.as.ts's RECEIVED). */
const RECEIVED = 2;
/** Staging blocks: what goes out (batches, sends), what comes in. */
const OUTGOING = 0;
const INCOMING = 1;

/** What a group step did. */
export interface GroupStepResult {
  readonly statesIn: number;
  readonly successors: number;
  /** False when the successors outgrew the area: nothing changed, and the step goes the usual way. */
  readonly done: boolean;
  /** Milliseconds putting the parents into groups (0 when they were). */
  readonly regroupMs: number;
}

/** A stretch of records: of an area, or, past the areas' room, kept aside in JavaScript. */
type Stretch =
  | { readonly area: number; readonly from: number; readonly n: number }
  | { readonly states: Uint32Array; readonly residues: Uint32Array; readonly n: number };

/** The legal parents' residue sums at a column's end, and the parents' moduli they are reduced by. */
export interface LegalSums {
  readonly sums: Float64Array;
  readonly moduli: readonly number[];
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
  /** After an exchange: this worker's own states (in `area`'s groups) and those received after them (in RECEIVED's). */
  private received = false;
  /** During an exchange, and after one whose states outgrew the areas: where the states are, in order. */
  private stretches?: Stretch[];
  /** During an exchange: this worker's own states, and where the received ones go. */
  private exchange?: { own: number; into: number; received: number; aside: Stretch[] };

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
    this.received = false;
    this.stretches = undefined;
  }

  append(hi: number, lo: number, src: Uint32Array, at: number): void {
    this.appendBlock(Uint32Array.of(hi, lo), src.subarray(at, at + this.residueCount), 1);
  }

  /** Appends n records: states as (hi, lo) pairs, residues residueCount each. */
  appendBlock(states: Uint32Array, residues: Uint32Array, n: number): void {
    if (this.count + n > this.capacity) throw new RangeError(`in-memory run full at ${this.capacity} states`);
    this.importInto(this.area, this.count, states, residues, 0, n);
    this.count += n;
    this.grouping = undefined;
    this.received = false;
  }

  appendSorted(states: Uint32Array, residues: Uint32Array, n: number): void {
    this.appendBlock(states, residues, n);
  }

  /** The states as batches of at most `size` (copies: the run's records interleave states and residues). */
  *batches(size: number): Generator<Batch> {
    const k = this.residueCount;
    const most = Math.min(size, this.stageRecords);
    for (const stretch of this.stretches ?? [{ area: this.area, from: 0, n: this.count }]) {
      for (let start = 0; start < stretch.n; start += most) {
        const n = Math.min(most, stretch.n - start);
        if ('states' in stretch) {
          const { states, residues } = stretch;
          yield new Batch(n, k, {
            states: states.slice(2 * start, 2 * (start + n)),
            residues: residues.slice(k * start, k * (start + n)),
            size: n,
          });
          continue;
        }
        this.kernel.exportRecords(stretch.area, stretch.from + start, n, k);
        const words = this.renew();
        const stage = this.stagingWord(OUTGOING);
        yield new Batch(n, k, {
          states: words.slice(stage, stage + 2 * n),
          residues: words.slice(stage + 2 * n, stage + (2 + k) * n),
          size: n,
        });
      }
    }
  }

  /**
   * The step that places point y (lastColumn: in the board's last column) on these states, by
   * groups of `window`: its successors replace them, carrying `outModuli` (more than the parents'
   * where the extender is given; fewer at a column's start, a prefix of theirs). Puts the states in
   * groups first when they are not in those of `window`. Adds to `dropped` what went to dropped successors, and with `legal`, the
   * legal parents' residues to its sums (both reduced by their moduli: legal's are the parents').
   */
  step(
    y: number,
    width: number,
    window: GroupWindow,
    outModuli: readonly number[],
    extender: ResidueExtender | undefined,
    dropped: Float64Array,
    legal: LegalSums | undefined,
  ): GroupStepResult {
    const { kernel } = this;
    const kIn = this.residueCount;
    const kOut = outModuli.length;
    const statesIn = this.count;
    if (this.stretches) return { statesIn, successors: 0, done: false, regroupMs: 0 };
    let regroupMs = 0;
    if (!sameWindow(this.grouping, window)) {
      const started = performance.now();
      this.putInGroups(y, width, window);
      regroupMs = performance.now() - started;
    }
    let words = this.renew();
    const moduliAt = kernel.moduliAt() / 4;
    for (let r = 0; r < kOut; r++) words[moduliAt + r] = outModuli[r];
    words.fill(0, kernel.droppedAt() / 4, kernel.droppedAt() / 4 + kOut);
    words.fill(0, kernel.legalAt() / 4, kernel.legalAt() / 4 + 2 * kIn);
    if (legal) words.set(legal.moduli.slice(0, kIn), kernel.legalModuliAt() / 4);
    if (extender) {
      words.set(extender.tables.inverse, kernel.inverseAt() / 4);
      words.set(extender.tables.reduced, kernel.reducedAt() / 4);
    }
    const capacity = this.capacityFor(kOut);
    const written = kernel.groupStep(this.area, this.received, kIn, kOut, y, width, window.lastColumn, legal !== undefined, capacity);
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
      for (let r = 0; r < kIn; r++) legal.sums[r] = words[at + 2 * r];
    }
    this.area = 1 - this.area;
    this.count = written;
    this.residueCount = kOut;
    this.capacity = capacity;
    this.received = false;
    // The successors are in the parents' groups: those of the window while it lasts.
    this.grouping = window.r + window.rows > y + 1 ? window : undefined;
    return { statesIn, successors: kernel.successorsMade(), done: true, regroupMs };
  }

  /**
   * Puts the states, at step y of a board `width` wide, in the groups of `window`'s key buckets,
   * each group in the order of its states' high bits (group-step.as.ts's orderGroups).
   */
  putInGroups(y: number, width: number, window: GroupWindow): void {
    const k = this.residueCount;
    this.kernel.regroup(this.area, this.count, k, y, window.r, window.rows, width, window.lastColumn, 1 - this.area, 0, 1 - this.area);
    this.area = 1 - this.area;
    this.grouping = window;
    this.received = false;
  }

  /**
   * At a window's first step among `workers` workers: puts this worker's (`self`) states in groups
   * of `window`, and sends the others to their owners (`owners`: each key bucket's, for the window
   * of `rows` rows that starts with `window`), those of one owner after another through `send`.
   * What the others send comes in through receive(), until settle(). Returns the states sent.
   */
  sendAway(
    y: number,
    width: number,
    window: GroupWindow,
    rows: number,
    owners: Uint16Array,
    self: number,
    workers: number,
    send: (to: number, states: Uint32Array, residues: Uint32Array, n: number) => void,
  ): number {
    const { kernel } = this;
    const k = this.residueCount;
    new Uint16Array(this.renew().buffer, kernel.ownersAt(), BUCKETS).set(owners);
    const own = kernel.partition(this.area, this.count, k, y, window.r, rows, window.rows, width, window.lastColumn, self, workers);
    const sending = 1 - this.area;
    // The parents' area is free: what comes in goes there.
    this.exchange = { own, into: this.area, received: 0, aside: [] };
    this.stretches = [{ area: sending, from: 0, n: own }];
    this.area = sending;
    this.grouping = window;
    this.received = false;
    let sent = 0;
    for (let to = 0; to < workers; to++) {
      if (to === self) continue;
      const end = kernel.ownerStart(to + 1);
      for (let start = kernel.ownerStart(to); start < end;) {
        const n = Math.min(this.stageRecords, end - start);
        kernel.exportRecords(sending, start, n, k);
        const words = this.renew();
        const stage = this.stagingWord(OUTGOING);
        send(to, words.subarray(stage, stage + 2 * n), words.subarray(stage + 2 * n, stage + (2 + k) * n), n);
        start += n;
        sent += n;
      }
    }
    this.count = own;
    return sent;
  }

  /** Takes in records [from, to) of what another worker sent (states as (hi, lo) pairs, residues k each). */
  receive(states: Uint32Array, residues: Uint32Array, from: number, to: number): void {
    const exchange = this.exchange;
    if (!exchange) throw new RangeError('records received outside an exchange');
    const k = this.residueCount;
    const room = Math.max(0, this.capacity - exchange.received);
    const n = Math.min(room, to - from);
    this.importInto(exchange.into, exchange.received, states, residues, from, n);
    exchange.received += n;
    // Beyond the area's room (an owner far heavier than its share): kept aside, and the step goes the usual way.
    if (from + n < to)
      exchange.aside.push({
        states: states.slice(2 * (from + n), 2 * to),
        residues: residues.slice(k * (from + n), k * to),
        n: to - from - n,
      });
  }

  /**
   * Ends an exchange, every worker's records in: the received states are put in groups after this
   * worker's own, when both fit in one area, for the group step; else both stay where they are, in
   * stretches, for the pipeline.
   */
  settle(y: number, width: number): void {
    const exchange = this.exchange!;
    this.exchange = undefined;
    const window = this.grouping!;
    const { own, into, received, aside } = exchange;
    const k = this.residueCount;
    if (aside.length === 0 && own + received <= this.capacity) {
      this.kernel.regroup(into, received, k, y, window.r, window.rows, width, window.lastColumn, this.area, own, RECEIVED);
      this.count = own + received;
      this.received = true;
      this.stretches = undefined;
      return;
    }
    this.stretches = [{ area: this.area, from: 0, n: own }, { area: into, from: 0, n: received }, ...aside];
    this.count = this.stretches.reduce((n, stretch) => n + stretch.n, 0);
    this.grouping = undefined;
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
   * groups (brought in from the table, or not yet put in the next window's), or after an exchange,
   * when a group's states lie in two ranges.
   */
  groups(): { readonly starts: Uint32Array; readonly window: GroupWindow } | undefined {
    const window = this.grouping;
    if (!window || this.received || this.stretches) return undefined;
    const starts = new Uint32Array(BUCKETS + 1);
    for (let g = 0; g <= BUCKETS; g++) starts[g] = this.kernel.groupStart(this.area, g);
    return { starts, window };
  }

  /** Records [from, from + n) of states and residues (k each) into `area` from record `at` on, through the incoming staging block. */
  private importInto(area: number, at: number, states: Uint32Array, residues: Uint32Array, from: number, n: number): void {
    const k = this.residueCount;
    for (let done = 0; done < n;) {
      const m = Math.min(this.stageRecords, n - done);
      const words = this.renew();
      const stage = this.stagingWord(INCOMING);
      words.set(states.subarray(2 * (from + done), 2 * (from + done + m)), stage);
      words.set(residues.subarray(k * (from + done), k * (from + done + m)), stage + 2 * m);
      this.kernel.importRecords(area, at + done, m, k, INCOMING);
      done += m;
    }
  }

  /**
   * The first word of staging block `block`. The blocks lie past both areas, beyond 2 GiB in a large
   * run, where the module's address (a signed i32 to JavaScript) reads as negative.
   */
  private stagingWord(block: number): number {
    return (this.kernel.stagingAt(block) >>> 0) / 4;
  }

  /** The module's memory as words; a new view when it grew since. */
  private renew(): Uint32Array {
    const { buffer } = this.kernel.memory;
    if (this.words.buffer !== buffer) {
      this.words = new Uint32Array(buffer);
      // The areas take most of the memory, and a step writes its successors into their groups at random.
      adviseHugePages(buffer);
    }
    return this.words;
  }
}

function sameWindow(a: GroupWindow | undefined, b: GroupWindow): boolean {
  return a !== undefined && a.r === b.r && a.rows === b.rows && a.column === b.column && a.lastColumn === b.lastColumn;
}
