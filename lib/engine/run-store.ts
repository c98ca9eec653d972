/**
 * One worker's run files: writing a step's runs, opening them with their headers checked, and
 * merging them down to at most --fan-in before a step reads them. The read and write buffers are
 * allocated here, within the memory plan, and reused.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { RunFileError } from '../errors.js';
import { mergeFolderPath, ownedRunPath, runFileName } from '../format/count-folder.js';
import { FORMAT_VERSION, RunHeader, runHeaderProblem } from '../format/layout.js';
import { RunReader } from '../format/run-reader.js';
import { RunSummary, RunWriter } from '../format/run-writer.js';
import { moduliAt } from '../residues/growth.js';
import { KernelMerge, RunMergeKernel } from './run-merge.js';
import { ownerOf } from '../state/ownership.js';
import { diskError, ScratchFolder } from './scratch.js';
import type { RecordSink } from './state-table.js';

export interface RunStoreOptions {
  readonly width: number;
  readonly columns: number;
  /** The pass's moduli: a step's runs carry the leading ones its counts need. */
  readonly moduli: readonly number[];
  readonly scratchDir: string;
  readonly fanIn: number;
  readonly worker: number;
  readonly workers: number;
  /** A partitioned count (lib/cluster): each run is split by the owner of each state. */
  readonly partitioned?: boolean;
  readonly readBufferBytes: number;
  readonly writeBufferBytes: number;
}

/** Write buffer of each owner's writer in a partitioned count: the plan sets aside one per owner. */
export const OWNED_CHUNK_BYTES = 16 << 10;

export class RunStore {
  private readonly options: RunStoreOptions;
  private readonly ownerChunks: Buffer[] = [];
  private readonly scratch: ScratchFolder;
  private readonly writeChunk: Buffer;
  /** The merge and its read buffers, one per run of a merge, made at the first merge. */
  private kernel?: RunMergeKernel;
  private readonly stepModuli = new Map<number, number[]>();
  /** The worker whose runs these are: a task process serving several parts changes it (actAs). */
  private worker: number;

  constructor(options: RunStoreOptions) {
    this.options = options;
    this.worker = options.worker;
    const { width, columns, moduli } = options;
    this.scratch = new ScratchFolder(options.scratchDir, { width, columns, moduli });
    this.writeChunk = Buffer.allocUnsafe(options.writeBufferBytes);
  }

  /** From now on, write and merge as worker `worker` of the count: a partitioned count's process serving several parts. */
  actAs(worker: number): void {
    this.worker = worker;
  }

  /** The moduli whose residues the states after `step` points carry. */
  moduliAt(step: number): number[] {
    let moduli = this.stepModuli.get(step);
    if (!moduli) this.stepModuli.set(step, (moduli = moduliAt(this.options.moduli, step)));
    return moduli;
  }

  /**
   * Writes run `run` of the states after `step` points; `fill` appends them in order. In a
   * partitioned count the run is split by owner: one file for each owner it holds states of.
   */
  writeRun(step: number, run: number, fill: (sink: RecordSink) => void): RunSummary[] {
    const { worker } = this;
    const { workers, partitioned } = this.options;
    if (partitioned) return this.writeOwnedRuns(step, run, fill);
    const file = this.scratch.runPath(step, run, workers > 1 ? worker : undefined);
    let writer: RunWriter | undefined;
    try {
      fse.ensureDirSync(this.scratch.stepDir(step));
      writer = new RunWriter(file, this.header(step, run), this.writeChunk);
      fill(writer);
      return [{ ...writer.finish(), worker }];
    } catch (error) {
      writer?.abort();
      throw diskError(error, file);
    }
  }

  /** writeRun in a partitioned count: a writer, with a chunk of its own, for each owner met. */
  private writeOwnedRuns(step: number, run: number, fill: (sink: RecordSink) => void): RunSummary[] {
    const { worker: source } = this;
    const { workers, width } = this.options;
    const writers = new Array<RunWriter | undefined>(workers);
    const stepDir = this.scratch.stepDir(step);
    const open = (owner: number): RunWriter => {
      const file = path.join(stepDir, ownedRunPath(run, source, owner));
      fse.ensureDirSync(path.dirname(file));
      return (writers[owner] = new RunWriter(file, this.header(step, run), this.ownerChunk(owner)));
    };
    try {
      fill({
        append(hi, lo, residues, at) {
          const owner = ownerOf(hi, lo, workers, width);
          (writers[owner] ?? open(owner)).append(hi, lo, residues, at);
        },
      });
      const runs: RunSummary[] = [];
      writers.forEach((writer, owner) => {
        if (writer) runs.push({ ...writer.finish(), file: ownedRunPath(run, source, owner), worker: owner, source });
      });
      return runs;
    } catch (error) {
      writers.forEach((writer) => writer?.abort());
      throw diskError(error, stepDir);
    }
  }

  /**
   * The write buffer of owner `owner`'s part of a run: a share of the merge's write buffer, which
   * no merge uses while a step's runs are written, where the shares are larger than the plan's
   * own buffer for each owner; else that one. Fewer, larger writes: 16 KiB writes cost a tenth of
   * the write phase at 11×11 in 2 partitions.
   */
  private ownerChunk(owner: number): Buffer {
    const { workers } = this.options;
    const share = Math.floor(this.writeChunk.length / workers);
    if (share > OWNED_CHUNK_BYTES) return this.writeChunk.subarray(owner * share, (owner + 1) * share);
    this.ownerChunks[owner] ??= Buffer.allocUnsafe(OWNED_CHUNK_BYTES);
    return this.ownerChunks[owner];
  }

  /** While there are more runs than --fan-in, merges groups of them into fewer, larger runs. */
  mergeDown(step: number, files: string[]): string[] {
    const { worker } = this;
    const { fanIn } = this.options;
    for (let level = 1; files.length > fanIn; level++) {
      const dir = mergeFolderPath(this.scratch.stepDir(step), worker, level);
      const merged: string[] = [];
      for (let first = 0; first < files.length; first += fanIn) {
        const readers = this.openReaders(files.slice(first, first + fanIn), step);
        const file = path.join(dir, runFileName(merged.length + 1));
        let writer: RunWriter | undefined;
        try {
          fse.ensureDirSync(dir);
          writer = new RunWriter(file, this.header(step, merged.length + 1), this.writeChunk);
          this.merge(readers, step).drainTo(writer);
          writer.finish();
        } catch (error) {
          writer?.abort();
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

  /** Merges readers that openReaders() gave for `step`: one merge at a time. */
  merge(readers: RunReader[], step: number): KernelMerge {
    return this.mergeKernel().merge(readers, this.moduliAt(step));
  }

  /** Readers of the runs of the states after `step` points, each header checked; at most --fan-in. */
  openReaders(files: string[], step: number): RunReader[] {
    const buffers = this.mergeKernel().buffers;
    const { width, columns } = this.options;
    const expected = { width, columns, step, moduli: this.moduliAt(step) };
    const readers: RunReader[] = [];
    try {
      for (const file of files) {
        const reader = new RunReader(file, buffers[readers.length]);
        readers.push(reader);
        const problem = runHeaderProblem(reader.header, expected);
        if (problem) throw new RunFileError(reader.path, problem);
      }
    } catch (error) {
      readers.forEach((reader) => reader.close());
      throw error;
    }
    return readers;
  }

  private mergeKernel(): RunMergeKernel {
    const { fanIn, readBufferBytes, moduli } = this.options;
    this.kernel ??= new RunMergeKernel(fanIn, readBufferBytes, moduli.length);
    return this.kernel;
  }

  private header(step: number, run: number): RunHeader {
    const { width, columns } = this.options;
    return { version: FORMAT_VERSION, width, columns, step, run, moduli: this.moduliAt(step) };
  }
}
