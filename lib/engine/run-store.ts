/**
 * One worker's run files: writing a step's runs, opening them with their headers checked, and
 * merging them down to at most --fan-in before a step reads them. The read and write buffers are
 * allocated here, within the memory plan, and reused. In a partitioned count a worker writes each
 * run as one split run file holding every owner's section (owner-split.ts), and reads, for each
 * worker it serves in turn, that worker's sections of the step's files.
 */

import path from 'node:path';
import { RunFileError } from '../shared/errors.js';
import { mergeFolderPath, parseSplitRunFileName, runFileName, splitRunFileName } from '../format/folder-names.js';
import { FORMAT_VERSION, RunHeader, runHeaderProblem } from '../format/layout.js';
import { RecordReader, RunReader } from '../format/run-reader.js';
import { summedBuffer } from '../format/run-sum.js';
import { RunSummary, RunWriter } from '../format/run-writer.js';
import { PendingCommits } from '../format/pending-commits.js';
import { readSectionEntry, readSplitIndex, SectionReader } from '../format/section-reader.js';
import { SPLIT_VERSION, type SplitRule } from '../format/split-layout.js';
import { SplitRunWriter } from '../format/split-run-writer.js';
import { moduliAt } from '../residues/growth.js';
import { counted } from '../shared/plural.js';
import type { Batch } from './batch.js';
import { OwnerSplit } from './owner-split.js';
import { KernelMerge, RunMergeKernel } from './run-merge.js';
import { diskError, removeTree, ScratchFolder } from '../folder/scratch.js';
import type { RecordSink } from './state-table.js';
import { closeSync, mkdirSync, openSync } from 'node:fs';

export interface RunStoreOptions {
  readonly width: number;
  readonly columns: number;
  /** The pass's moduli: a step's runs carry the leading ones its counts need. */
  readonly moduli: readonly number[];
  readonly scratchDir: string;
  readonly fanIn: number;
  readonly worker: number;
  /** The count's workers: in a partitioned count, every partition's (the owners of its states). */
  readonly workers: number;
  /** A partitioned count (lib/cluster): each run is split by the owner of each state. */
  readonly partitioned?: boolean;
  /** In a partitioned count, the workers whose states this one reads and expands, in turn: [worker] unless given. */
  readonly serves?: readonly number[];
  /** In a partitioned count, the bytes of each owner's chunk buffer (budget.ts). */
  readonly ownerChunkBytes?: number;
  readonly readBufferBytes: number;
  readonly writeBufferBytes: number;
}

/** An owner's chunk buffer when the plan gives none (a store made outside a plan, in the tests). */
export const DEFAULT_OWNER_CHUNK_BYTES = 64 << 10;

/** A run to read: a run file, or owner `owner`'s section of a split run file. */
interface RunSource {
  readonly file: string;
  readonly owner?: number;
}

/** A step's states as the workers a store serves read them, one after another: batches, or every record into a sink. */
export interface StepSource {
  fill(batch: Batch): boolean;
  drainTo(sink: RecordSink): void;
  close(): void;
}

export class RunStore {
  private readonly options: RunStoreOptions;
  private readonly scratch: ScratchFolder;
  private readonly writeChunk: Buffer;
  /** The merge and its read buffers, one per run of a merge, made at the first merge. */
  private kernel?: RunMergeKernel;
  private readonly stepModuli = new Map<number, number[]>();
  /** The owner split, made at the first split run. */
  private splitter?: OwnerSplit;
  /** In a partitioned count, the window the runs written are split by, and the owner of every record, if one (splitBy). */
  private splitRule?: SplitRule;
  private splitTo?: number;
  /** The worker whose runs these are, and the workers it serves: a task process serving several parts changes them (actAs). */
  private worker: number;
  private serves: readonly number[];
  /** The step's runs written whole, syncing on the thread pool while the step goes on (settleWrites). */
  private readonly commits = new PendingCommits();

  constructor(options: RunStoreOptions) {
    this.options = options;
    this.worker = options.worker;
    this.serves = options.serves ?? [options.worker];
    const { width, columns, moduli } = options;
    this.scratch = new ScratchFolder(options.scratchDir, { width, columns, moduli });
    // In a module's memory, where the run sum reads what the writers gather without a copy.
    this.writeChunk = summedBuffer(options.writeBufferBytes);
  }

  /**
   * From now on, read the states of `workers` in turn and write as the first of them: a partitioned
   * count's process serving several parts.
   */
  actAs(workers: readonly number[]): void {
    this.worker = workers[0];
    this.serves = workers;
  }

  /**
   * In a partitioned count, split the runs written from now on by `rule`: each state to the owner
   * of its window key's bucket (lib/border/window-key.ts); with `everyTo`, every state to that
   * owner, which the rule gives them all (OwnerSplit's SplitWindow).
   */
  splitBy(rule: SplitRule, everyTo?: number): void {
    this.splitRule = rule;
    this.splitTo = everyTo;
  }

  /**
   * Waits until every run writeRun wrote is synced and in place, its folder synced: then a
   * manifest may name them. A run whose sync failed is removed, and its error thrown.
   */
  async settleWrites(): Promise<void> {
    const failed = await this.commits.settle();
    if (failed) throw diskError(failed.error, failed.path);
  }

  /** In a partitioned count: the records of each served worker's sections in the step last opened (as far as it was read). */
  readonly recordsRead = new Map<number, number>();

  /** In a partitioned count: records its split runs sent to workers it does not serve, since the last call. */
  takeMoved(): number {
    const split = this.splitter;
    if (!split) return 0;
    let moved = 0;
    for (let owner = 0; owner < split.owners; owner++) {
      if (!this.serves.includes(owner)) moved += split.recordsTo[owner];
      split.recordsTo[owner] = 0;
    }
    return moved;
  }

  /** The workers whose states this store reads. */
  get served(): readonly number[] {
    return this.serves;
  }

  /** The moduli whose residues the states after `step` points carry. */
  moduliAt(step: number): number[] {
    let moduli = this.stepModuli.get(step);
    if (!moduli) this.stepModuli.set(step, (moduli = moduliAt(this.options.moduli, step, this.options)));
    return moduli;
  }

  /**
   * Writes run `run` of the states after `step` points; `fill` appends them in order. In a
   * partitioned count the run is split by owner: one split run file, a section for each owner.
   * The file is synced and renamed into place while the caller goes on: settleWrites() waits for
   * it, and no manifest may name it before.
   */
  writeRun(step: number, run: number, fill: (sink: RecordSink) => void): RunSummary[] {
    const { worker } = this;
    const { workers, partitioned } = this.options;
    if (partitioned) return this.writeSplitRun(step, run, fill);
    const file = this.scratch.runPath(step, run, workers > 1 ? worker : undefined);
    let writer: RunWriter | undefined;
    try {
      mkdirSync(this.scratch.stepDir(step), { recursive: true });
      writer = new RunWriter(file, this.header(step, run), this.writeChunk);
      fill(writer);
      return [{ ...writer.finish(this.commits), worker }];
    } catch (error) {
      writer?.abort();
      throw diskError(error, file);
    }
  }

  /** writeRun in a partitioned count: the owner split encodes each owner's chunks, the writer appends them. */
  private writeSplitRun(step: number, run: number, fill: (sink: RecordSink) => void): RunSummary[] {
    const { worker } = this;
    const { workers } = this.options;
    const file = path.join(this.scratch.stepDir(step), splitRunFileName(run, worker));
    const window = this.splitRule;
    if (!window) throw new RangeError('a partitioned worker writes a run before it knows the window to split it by');
    let writer: SplitRunWriter | undefined;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      const header = { ...this.header(step, run), version: SPLIT_VERSION, owners: workers, writer: worker, window };
      writer = new SplitRunWriter(file, header, this.writeChunk);
      const split = this.ownerSplit();
      split.routeBy({ ...window, y: step % this.options.width, everyTo: this.splitTo });
      split.begin(writer, header.moduli);
      fill(split);
      return [{ ...writer.finish(split.end(), this.commits), source: worker }];
    } catch (error) {
      writer?.abort();
      throw diskError(error, file);
    }
  }

  private ownerSplit(): OwnerSplit {
    const { workers, width, moduli, ownerChunkBytes } = this.options;
    this.splitter ??= new OwnerSplit(workers, width, ownerChunkBytes ?? DEFAULT_OWNER_CHUNK_BYTES, moduli.length);
    return this.splitter;
  }

  /**
   * The states after `step` points that this store's workers own, from `files`: each served
   * worker's runs, or sections of the split runs, merged (down to --fan-in first), one worker after
   * another.
   */
  openStep(step: number, files: string[]): StepSource {
    const owners = this.options.partitioned ? this.serves : [this.worker];
    this.recordsRead.clear();
    let next = 0;
    let readers: RecordReader[] = [];
    let merge: KernelMerge | undefined;
    /** The merge of the next served worker's runs, or false when none is left. */
    const advance = (): boolean => {
      merge = undefined;
      if (next === owners.length) return false;
      const owner = owners[next++];
      readers = this.openReaders(this.mergeDown(step, owner, this.sourcesOf(files, owner)), step);
      merge = this.merge(readers, step);
      return true;
    };
    return {
      fill(batch) {
        while (merge || advance()) {
          if (merge!.fill(batch)) return true;
          merge = undefined;
        }
        return false;
      },
      drainTo(sink) {
        while (merge || advance()) {
          merge!.drainTo(sink);
          merge = undefined;
        }
      },
      close() {
        readers.forEach((reader) => reader.close());
      },
    };
  }

  /** The runs of `owner` among `files`: the files themselves, or its sections of split runs that hold some of its states. */
  private sourcesOf(files: string[], owner: number): RunSource[] {
    const sources: RunSource[] = [];
    for (const file of files) {
      if (parseSplitRunFileName(path.basename(file)) === undefined) {
        sources.push({ file });
        continue;
      }
      const fd = openSync(file, 'r');
      try {
        const { records } = readSectionEntry(file, fd, readSplitIndex(file, fd), owner);
        this.recordsRead.set(owner, (this.recordsRead.get(owner) ?? 0) + records);
        if (records > 0) sources.push({ file, owner });
      } finally {
        closeSync(fd);
      }
    }
    return sources;
  }

  /** While there are more runs of `owner` than --fan-in, merges groups of them into fewer, larger runs. */
  private mergeDown(step: number, owner: number, sources: RunSource[]): RunSource[] {
    const { fanIn } = this.options;
    for (let level = 1; sources.length > fanIn; level++) {
      const dir = mergeFolderPath(this.scratch.stepDir(step), owner, level);
      const merged: RunSource[] = [];
      for (let first = 0; first < sources.length; first += fanIn) {
        const readers = this.openReaders(sources.slice(first, first + fanIn), step);
        const file = path.join(dir, runFileName(merged.length + 1));
        let writer: RunWriter | undefined;
        try {
          mkdirSync(dir, { recursive: true });
          writer = new RunWriter(file, this.header(step, merged.length + 1), this.writeChunk);
          this.merge(readers, step).drainTo(writer);
          writer.finish();
        } catch (error) {
          writer?.abort();
          readers.forEach((reader) => reader.close());
          throw diskError(error, file);
        }
        merged.push({ file });
      }
      if (level > 1) removeTree(path.dirname(sources[0].file));
      sources = merged;
    }
    return sources;
  }

  /** Merges readers that openReaders() gave for `step`: one merge at a time. */
  private merge(readers: RecordReader[], step: number): KernelMerge {
    return this.mergeKernel().merge(readers, this.moduliAt(step));
  }

  /** Readers of the runs of the states after `step` points, each header checked; at most --fan-in. */
  private openReaders(sources: RunSource[], step: number): RecordReader[] {
    const buffers = this.mergeKernel().buffers;
    const { width, columns, workers } = this.options;
    const expected = { width, columns, step, moduli: this.moduliAt(step) };
    const readers: RecordReader[] = [];
    try {
      for (const { file, owner } of sources) {
        const buffer = buffers[readers.length];
        const reader = owner === undefined ? new RunReader(file, buffer) : new SectionReader(file, owner, buffer);
        readers.push(reader);
        const problem =
          runHeaderProblem(reader.header, expected) ??
          (reader instanceof SectionReader && reader.header.owners !== workers
            ? `holds the sections of ${counted(reader.header.owners, 'owner')}, not of the count's ${workers}`
            : undefined);
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
