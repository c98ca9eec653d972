/**
 * One pass of the count: all m·n steps for one set of moduli (paper §5.5). Each step is a stream
 * pipeline, merge → expand → accumulate (buffer, combine, flush sorted runs) → collect runs, and
 * ends with a manifest when its states went to files. The buffers are allocated once per pass.
 */

import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fse from 'fs-extra';
import { RunFileError } from '../errors.js';
import { FORMAT_VERSION, RunHeader } from '../format/layout.js';
import { buildManifest, MANIFEST_FILE, StepManifest, writeManifest } from '../format/manifest.js';
import { RunReader } from '../format/run-reader.js';
import { RunSummary, RunWriter } from '../format/run-writer.js';
import { isLegalFinal, MAX_SUCCESSORS, START_HI, START_LO } from '../state/border.js';
import { accumulateTransform } from './accumulate-stage.js';
import { Batch, BatchPool } from './batch.js';
import type { MemoryPlan } from './budget.js';
import { ExpandStage, expandTransform } from './expand-stage.js';
import { MemoryRun } from './memory-run.js';
import { RunMerger } from './merge.js';
import type { Progress, StepReport } from './progress.js';
import { diskError, ScratchFolder } from './scratch.js';
import { RecordSink, StateTable } from './state-table.js';

export interface PassOptions {
  readonly width: number;
  readonly columns: number;
  readonly moduli: readonly number[];
  readonly plan: MemoryPlan;
  readonly fanIn: number;
  readonly keep: boolean;
  readonly scratch: ScratchFolder;
  readonly progress: Progress;
  readonly pass: number;
  readonly passes: number;
}

export interface PassResult {
  /** perColumn[k − 1][r]: L(width, k) mod moduli[r], for k = 1 … columns. */
  readonly perColumn: number[][];
  readonly reports: StepReport[];
}

/** A step's states: in memory, or in the run files its manifest lists. */
type StepStates = { readonly step: number; readonly memory: MemoryRun } | { readonly step: number; readonly manifest: StepManifest };

export class PassRunner {
  private readonly options: PassOptions;
  private readonly table: StateTable;
  private readonly stage: ExpandStage;
  private readonly inputPool: BatchPool;
  private readonly successorPool: BatchPool;
  private readonly writeChunk: Buffer;
  private memoryRun?: MemoryRun;
  private readBuffers: Buffer[] = [];

  constructor(options: PassOptions) {
    this.options = options;
    const { plan, moduli, width } = options;
    this.table = new StateTable(plan.tableCapacity, moduli);
    this.stage = new ExpandStage(width, moduli);
    this.inputPool = new BatchPool(plan.batchRecords, moduli.length);
    this.successorPool = new BatchPool(MAX_SUCCESSORS * plan.batchRecords, moduli.length);
    this.writeChunk = Buffer.allocUnsafe(plan.writeBufferBytes);
  }

  async run(): Promise<PassResult> {
    const { width, columns, scratch, progress, keep } = this.options;
    const steps = width * columns;
    scratch.prepare();
    progress.passStart(this.options.pass, this.options.passes, steps);
    const perColumn: number[][] = [];
    const reports: StepReport[] = [];
    let states = this.startStates();
    for (let step = 0; step < steps; step++) {
      const { next, report, legal } = await this.runStep(states);
      if (legal) perColumn.push(legal);
      reports.push(report);
      progress.stepEnd(report);
      states = next;
    }
    perColumn.push(this.legalSums(states));
    if (!keep) scratch.removeAll();
    return { perColumn, reports };
  }

  /** Step 0: the all-edge state, once. With --keep it is written out like every other step. */
  private startStates(): StepStates {
    const one = new Uint32Array(this.options.moduli.length).fill(1);
    const memory = this.memory();
    memory.reset(true);
    memory.append(START_HI, START_LO, one, 0);
    if (!this.options.keep) return { step: 0, memory };
    const runs = [this.writeRun(0, 1, (sink) => sink.append(START_HI, START_LO, one, 0))];
    return { step: 0, manifest: this.finishStep(0, runs, new Float64Array(one.length)) };
  }

  private async runStep(states: StepStates): Promise<{ next: StepStates; report: StepReport; legal?: number[] }> {
    const { width, columns, keep, scratch, progress, plan } = this.options;
    const { table, stage } = this;
    const step = states.step;
    const y = step % width;
    const atBoundary = y === 0 && step > 0;
    stage.startStep(y, Math.floor(step / width) === columns - 1, atBoundary);
    progress.stepStart(step);
    const started = performance.now();

    const source = this.openSource(states);
    const runs: RunSummary[] = [];
    let runNumber = 0;
    const spill = () => this.writeRun(step + 1, ++runNumber, (sink) => table.drainSorted(sink));
    try {
      await pipeline(
        Readable.from(source.batches, { objectMode: true, highWaterMark: 2 }),
        expandTransform(stage, this.successorPool, this.inputPool, () => progress.advance(stage.statesIn)),
        accumulateTransform(table, spill, this.successorPool),
        new Writable({
          objectMode: true,
          write(run: RunSummary, _encoding, done) {
            runs.push(run);
            done();
          },
        }),
      );
    } catch (error) {
      source.close();
      table.clear();
      throw error;
    }

    const recordsIn = source.records(); // before the memory run is reused for the output
    let next: StepStates;
    if (!keep && runs.length === 0 && table.size <= plan.memoryRunCapacity) {
      // Sorted only when the next step may overflow the table: then its runs need the order.
      const memory = this.memory();
      table.drainTo(memory, plan.mayOverflow && table.size > table.maxLoad / 3);
      next = { step: step + 1, memory };
    } else {
      if (table.size > 0 || runs.length === 0) runs.push(spill());
      next = { step: step + 1, manifest: this.finishStep(step + 1, runs, stage.dropped) };
    }
    if ('manifest' in states && !keep) scratch.removeStep(step);
    else if ('manifest' in states) fse.removeSync(path.join(scratch.stepDir(step), 'merge'));

    const report: StepReport = {
      step,
      pass: this.options.pass,
      statesIn: stage.statesIn,
      recordsIn,
      runsIn: source.runs,
      successors: stage.successorsOut,
      runsOut: runs.length,
      recordsOut: runs.reduce((n, run) => n + run.records, 0),
      bytesOut: runs.reduce((n, run) => n + run.bytes, 0),
      seconds: (performance.now() - started) / 1000,
    };
    return { next, report, legal: atBoundary ? Array.from(stage.legal) : undefined };
  }

  /** The step's states as a stream of batches, each state once. */
  private openSource(states: StepStates): { batches: Iterable<Batch>; records: () => number; runs: number; close: () => void } {
    const { plan } = this.options;
    if ('memory' in states) {
      const { memory } = states;
      return { batches: memory.batches(plan.batchRecords), records: () => memory.count, runs: 0, close: () => {} };
    }
    const { manifest } = states;
    const files = this.mergeDown(states.step, manifest.runs.map((run) => path.join(this.options.scratch.stepDir(states.step), run.file)));
    const readers = this.openReaders(files, states.step);
    const merger = new RunMerger(readers, this.options.moduli);
    const pool = this.inputPool;
    function* batches(): Generator<Batch> {
      for (;;) {
        const batch = pool.take();
        if (!merger.fill(batch)) {
          pool.give(batch);
          return;
        }
        yield batch;
      }
    }
    return {
      batches: batches(),
      records: () => manifest.records,
      runs: manifest.runs.length,
      close: () => readers.forEach((reader) => reader.close()),
    };
  }

  /** While there are more runs than --fan-in, merges groups of them into fewer, larger runs. */
  private mergeDown(step: number, files: string[]): string[] {
    const { fanIn, scratch } = this.options;
    for (let level = 1; files.length > fanIn; level++) {
      const dir = path.join(scratch.stepDir(step), 'merge', `level-${level}`);
      fse.ensureDirSync(dir);
      const merged: string[] = [];
      for (let first = 0; first < files.length; first += fanIn) {
        const readers = this.openReaders(files.slice(first, first + fanIn), step);
        const file = path.join(dir, `run-${String(merged.length + 1).padStart(5, '0')}.run`);
        const writer = new RunWriter(file, this.header(step, merged.length + 1), this.writeChunk);
        try {
          new RunMerger(readers, this.options.moduli).drainTo(writer);
          writer.finish();
        } catch (error) {
          writer.abort();
          readers.forEach((reader) => reader.close());
          throw diskError(error, file);
        }
        merged.push(file);
      }
      if (level > 1) fse.removeSync(path.dirname(files[0]));
      files = merged;
    }
    return files;
  }

  private openReaders(files: string[], step: number): RunReader[] {
    while (this.readBuffers.length < files.length) this.readBuffers.push(Buffer.allocUnsafe(this.options.plan.readBufferBytes));
    const readers: RunReader[] = [];
    try {
      for (const file of files) {
        const reader = new RunReader(file, this.readBuffers[readers.length]);
        readers.push(reader);
        this.checkHeader(reader, step);
      }
    } catch (error) {
      readers.forEach((reader) => reader.close());
      throw error;
    }
    return readers;
  }

  private checkHeader(reader: RunReader, step: number): void {
    const { header } = reader;
    const { width, columns, moduli } = this.options;
    const problem =
      header.width !== width || header.columns !== columns
        ? `holds a ${header.width}-wide sweep of ${header.columns} columns, not ${width} of ${columns}`
        : header.step !== step
          ? `holds step ${header.step}, expected ${step}`
          : header.moduli.join() !== moduli.join()
            ? 'holds residues for other moduli'
            : undefined;
    if (problem) throw new RunFileError(reader.path, problem);
  }

  private header(step: number, run: number): RunHeader {
    const { width, columns, moduli } = this.options;
    return { version: FORMAT_VERSION, width, columns, step, run, moduli };
  }

  /** Writes one run file of the states after `step` points; `fill` appends them in order. */
  private writeRun(step: number, run: number, fill: (sink: RecordSink) => void): RunSummary {
    const { scratch } = this.options;
    if (run === 1) scratch.freshStepDir(step);
    const file = scratch.runPath(step, run);
    let writer: RunWriter | undefined;
    try {
      writer = new RunWriter(file, this.header(step, run), this.writeChunk);
      fill(writer);
      return writer.finish();
    } catch (error) {
      writer?.abort();
      throw diskError(error, file);
    }
  }

  /** Writes the manifest that makes the step complete. */
  private finishStep(step: number, runs: RunSummary[], dropped: ArrayLike<number>): StepManifest {
    const { width, columns, moduli, scratch } = this.options;
    const manifest = buildManifest({ width, columns, step, moduli }, runs, dropped);
    const file = path.join(scratch.stepDir(step), MANIFEST_FILE);
    try {
      writeManifest(file, manifest);
    } catch (error) {
      fse.removeSync(file + '.tmp');
      throw diskError(error, file);
    }
    return manifest;
  }

  /** Residues of the legal final states: the count, modulo each modulus. */
  private legalSums(states: StepStates): number[] {
    const { moduli } = this.options;
    const sums = new Float64Array(moduli.length);
    const sink: RecordSink = {
      append(hi, lo, residues, at) {
        if (!isLegalFinal(hi, lo)) return;
        for (let r = 0; r < moduli.length; r++) sums[r] = (sums[r] + residues[at + r]) % moduli[r];
      },
    };
    if ('memory' in states) {
      for (const batch of states.memory.batches(this.options.plan.batchRecords)) {
        for (let i = 0; i < batch.size; i++) sink.append(batch.states[2 * i], batch.states[2 * i + 1], batch.residues, i * moduli.length);
      }
    } else {
      const files = states.manifest.runs.map((run) => path.join(this.options.scratch.stepDir(states.step), run.file));
      new RunMerger(this.openReaders(this.mergeDown(states.step, files), states.step), moduli).drainTo(sink);
    }
    return Array.from(sums);
  }

  private memory(): MemoryRun {
    this.memoryRun ??= new MemoryRun(this.options.plan.memoryRunCapacity, this.options.moduli.length);
    return this.memoryRun;
  }
}
