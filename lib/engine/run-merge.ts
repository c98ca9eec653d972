/**
 * The engine's k-way merge of sorted runs, in WebAssembly (lib/engine/run-merge.as.ts): it decodes and
 * checks the records as RunReader.next() does in JavaScript a record at a time (verify and resuming
 * still read so), and merges them, equal states' residues added. The runs' read buffers live in the
 * module's memory, laid out once for the most runs a merge takes (--fan-in), so RunReader reads the
 * files straight into it; this class answers the module's requests for more bytes and turns what it
 * reports into the readers' errors and trailer checks.
 */

import { instantiate, align8 as align, type WasmMemory, PAGE_BYTES } from '../shared/wasm-module.js';
import { RECORD_PROBLEMS, residueProblem, type RecordWindow, type RecordReader } from '../format/run-reader.js';
import type { Batch } from './batch.js';
import type { RecordSink } from './state-table.js';
import { sumInPlace } from '../format/run-sum.js';

interface MergeExports {
  memory: WasmMemory;
  heapBase(): number;
  init(...addresses: number[]): void;
  begin(runs: number, residues: number): void;
  beginBatch(): void;
  fill(capacity: number): number;
  filledRecords(): number;
  needRun(): number;
  problemCode(): number;
  problemInRun(): number;
  /** A u32, which reaches JavaScript as an i32. */
  problemNumber(): number;
  problemResidueIndex(): number;
  reducedSums(): void;
  sumBlocks(lanes: number, at: number, n: number): void;
}

const DONE = 0;
const NEED_BYTES = 1;
/** Records the module puts out per call, at most. */
const OUT_RECORDS = 1024;

/** The module's code for a residue not below its modulus; its other codes are RECORD_PROBLEMS' keys. */
const RESIDUE_TOO_LARGE = 5;

export class RunMergeKernel {
  /** One read buffer per run, views into the module's memory: lend them to the readers. */
  readonly buffers: Buffer[];
  private readonly kernel: MergeExports;
  private readonly mostResidues: number;
  private readonly bufAt: Uint32Array;
  private readonly pos: Uint32Array;
  private readonly end: Uint32Array;
  private readonly more: Uint32Array;
  private readonly records: Float64Array;
  private readonly sums: Float64Array;
  private readonly moduli: Uint32Array;
  private readonly outStates: Uint32Array;
  private readonly outResidues: Uint32Array;

  constructor(mostRuns: number, bufferBytes: number, mostResidues: number) {
    this.kernel = instantiate<MergeExports>(new URL('./run-merge.wasm', import.meta.url), 'the run merge');
    this.mostResidues = mostResidues;
    let at = align(this.kernel.heapBase());
    const take = (bytes: number) => {
      const start = at;
      at = align(at + bytes);
      return start;
    };
    const perRun = [4, 4, 4, 4, 8, 8].map((bytes) => take(bytes * mostRuns));
    const currentAt = take(4 * mostRuns * mostResidues);
    const sumsAt = take(8 * mostRuns * mostResidues);
    const moduliAt = take(4 * mostResidues);
    const treeAt = take(4 * mostRuns);
    const outStatesAt = take(8 * OUT_RECORDS);
    const outResiduesAt = take(4 * OUT_RECORDS * mostResidues);
    const buffersAt = Array.from({ length: mostRuns }, () => take(bufferBytes));
    const lanesAt = take(64);
    // Grown once, to its final size: the views below stay valid.
    const { memory } = this.kernel;
    const pages = Math.ceil(at / PAGE_BYTES) - memory.buffer.byteLength / PAGE_BYTES;
    if (pages > 0) memory.grow(pages);
    const [bufAtAt, posAt, endAt, moreAt, keyAt, recordsAt] = perRun;
    this.kernel.init(bufAtAt, posAt, endAt, moreAt, keyAt, recordsAt, currentAt, sumsAt, moduliAt, treeAt, outStatesAt, outResiduesAt);
    const buffer = memory.buffer;
    this.bufAt = new Uint32Array(buffer, bufAtAt, mostRuns);
    this.bufAt.set(buffersAt);
    this.pos = new Uint32Array(buffer, posAt, mostRuns);
    this.end = new Uint32Array(buffer, endAt, mostRuns);
    this.more = new Uint32Array(buffer, moreAt, mostRuns);
    this.records = new Float64Array(buffer, recordsAt, mostRuns);
    this.sums = new Float64Array(buffer, sumsAt, mostRuns * mostResidues);
    this.moduli = new Uint32Array(buffer, moduliAt, mostResidues);
    this.outStates = new Uint32Array(buffer, outStatesAt, 2 * OUT_RECORDS);
    this.outResidues = new Uint32Array(buffer, outResiduesAt, OUT_RECORDS * mostResidues);
    this.buffers = buffersAt.map((start) => Buffer.from(buffer, start, bufferBytes));
    sumInPlace(memory, this.kernel, lanesAt);
  }

  /**
   * A merge of readers opened on this kernel's buffers (reader i on buffers[i]), with the moduli of
   * their records. One merge at a time: a new one ends the last.
   */
  merge(readers: RecordReader[], moduli: readonly number[]): KernelMerge {
    if (readers.length > this.buffers.length || moduli.length > this.mostResidues)
      throw new Error(`a merge of ${readers.length} runs of ${moduli.length} residues is beyond this kernel`);
    this.moduli.set(moduli);
    readers.forEach((reader, i) => this.setWindow(i, reader.recordWindow()));
    this.kernel.begin(readers.length, moduli.length);
    return new KernelMerge(this, readers, moduli.length);
  }

  /**
   * Fills up to `capacity` records, asking the readers for bytes as the module needs them; the
   * records are then in outStates and outResidues. Returns how many.
   */
  fillOut(readers: RecordReader[], capacity: number): number {
    const { kernel } = this;
    kernel.beginBatch();
    for (;;) {
      const answer = kernel.fill(Math.min(capacity, OUT_RECORDS));
      if (answer === DONE) break;
      if (answer === NEED_BYTES) {
        const i = kernel.needRun();
        this.setWindow(i, readers[i].readOn(this.pos[i]));
      } else this.fail(readers);
    }
    return kernel.filledRecords();
  }

  /** The module's output, `filled` records of k residues. */
  out(filled: number, k: number): { states: Uint32Array; residues: Uint32Array } {
    return { states: this.outStates.subarray(0, 2 * filled), residues: this.outResidues.subarray(0, k * filled) };
  }

  private setWindow(i: number, window: RecordWindow): void {
    this.pos[i] = window.start;
    this.end[i] = window.end;
    this.more[i] = window.more ? 1 : 0;
  }

  /** Every run is spent: each reader checks its trailer against the module's tallies. */
  endAll(readers: RecordReader[], k: number): void {
    this.kernel.reducedSums();
    readers.forEach((reader, i) => reader.endAt(this.pos[i], this.records[i], this.sums.subarray(i * k, i * k + k)));
  }

  private fail(readers: RecordReader[]): never {
    const { kernel } = this;
    const i = kernel.problemInRun();
    const code = kernel.problemCode();
    const problem =
      code === RESIDUE_TOO_LARGE
        ? residueProblem(kernel.problemNumber() >>> 0, this.moduli[kernel.problemResidueIndex()])
        : RECORD_PROBLEMS[code as keyof typeof RECORD_PROBLEMS];
    readers.forEach((reader, j) => j === i || reader.close());
    return readers[i].damaged(this.records[i], problem);
  }
}

/** One merge in progress. */
export class KernelMerge {
  private ended = false;

  constructor(
    private readonly kernel: RunMergeKernel,
    private readonly readers: RecordReader[],
    private readonly k: number,
  ) {}

  /** The next records into the kernel's output; 0 once every run is spent and its trailer checked. */
  private next(capacity: number): number {
    if (this.ended) return 0;
    const filled = this.kernel.fillOut(this.readers, capacity);
    if (filled === 0) {
      this.ended = true;
      this.kernel.endAll(this.readers, this.k);
    }
    return filled;
  }

  /** Fills `batch` with up to its capacity of distinct states; returns false once nothing is left. */
  fill(batch: Batch): boolean {
    batch.size = 0;
    const { k } = this;
    while (batch.size < batch.capacity) {
      const filled = this.next(batch.capacity - batch.size);
      if (filled === 0) break;
      const out = this.kernel.out(filled, k);
      batch.states.set(out.states, 2 * batch.size);
      batch.residues.set(out.residues, k * batch.size);
      batch.size += filled;
    }
    return batch.size > 0;
  }

  /** Sends every remaining state to `sink`, in order. */
  drainTo(sink: RecordSink): void {
    const { k } = this;
    for (;;) {
      const filled = this.next(OUT_RECORDS);
      if (filled === 0) return;
      const { states, residues } = this.kernel.out(filled, k);
      for (let i = 0; i < filled; i++) sink.append(states[2 * i], states[2 * i + 1], residues, i * k);
    }
  }
}
