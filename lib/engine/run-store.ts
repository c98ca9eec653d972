/**
 * One partition's run files: writing a step's runs, opening them with their headers checked, and
 * merging them down to at most --fan-in before a step reads them. The read and write buffers are
 * allocated here, within the memory plan, and reused.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { RunFileError } from '../errors.js';
import { mergeFolderPath, runFileName } from '../format/count-folder.js';
import { FORMAT_VERSION, RunHeader, runHeaderProblem } from '../format/layout.js';
import { RunReader } from '../format/run-reader.js';
import { RunSummary, RunWriter } from '../format/run-writer.js';
import { moduliAt } from '../residues/growth.js';
import { RunMerger } from './merge.js';
import { diskError, ScratchFolder } from './scratch.js';
import type { RecordSink } from './state-table.js';

export interface RunStoreOptions {
  readonly width: number;
  readonly columns: number;
  /** The pass's moduli: a step's runs carry the leading ones its counts need. */
  readonly moduli: readonly number[];
  readonly scratchDir: string;
  readonly fanIn: number;
  readonly partition: number;
  readonly partitions: number;
  readonly readBufferBytes: number;
  readonly writeBufferBytes: number;
}

export class RunStore {
  private readonly options: RunStoreOptions;
  private readonly scratch: ScratchFolder;
  private readonly writeChunk: Buffer;
  private readonly readBuffers: Buffer[] = [];
  private readonly stepModuli = new Map<number, number[]>();

  constructor(options: RunStoreOptions) {
    this.options = options;
    const { width, columns, moduli } = options;
    this.scratch = new ScratchFolder(options.scratchDir, { width, columns, moduli });
    this.writeChunk = Buffer.allocUnsafe(options.writeBufferBytes);
  }

  /** The moduli whose residues the states after `step` points carry. */
  moduliAt(step: number): number[] {
    let moduli = this.stepModuli.get(step);
    if (!moduli) this.stepModuli.set(step, (moduli = moduliAt(this.options.moduli, step)));
    return moduli;
  }

  /** Writes run `run` of the states after `step` points; `fill` appends them in order. */
  writeRun(step: number, run: number, fill: (sink: RecordSink) => void): RunSummary {
    const { partition, partitions } = this.options;
    const file = this.scratch.runPath(step, run, partitions > 1 ? partition : undefined);
    let writer: RunWriter | undefined;
    try {
      fse.ensureDirSync(this.scratch.stepDir(step));
      writer = new RunWriter(file, this.header(step, run), this.writeChunk);
      fill(writer);
      return { ...writer.finish(), partition };
    } catch (error) {
      writer?.abort();
      throw diskError(error, file);
    }
  }

  /** While there are more runs than --fan-in, merges groups of them into fewer, larger runs. */
  mergeDown(step: number, files: string[]): string[] {
    const { fanIn, partition } = this.options;
    for (let level = 1; files.length > fanIn; level++) {
      const dir = mergeFolderPath(this.scratch.stepDir(step), partition, level);
      const merged: string[] = [];
      for (let first = 0; first < files.length; first += fanIn) {
        const readers = this.openReaders(files.slice(first, first + fanIn), step);
        const file = path.join(dir, runFileName(merged.length + 1));
        let writer: RunWriter | undefined;
        try {
          fse.ensureDirSync(dir);
          writer = new RunWriter(file, this.header(step, merged.length + 1), this.writeChunk);
          new RunMerger(readers, this.moduliAt(step)).drainTo(writer);
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

  /** Readers of the runs of the states after `step` points, each header checked; at most --fan-in. */
  openReaders(files: string[], step: number): RunReader[] {
    while (this.readBuffers.length < files.length) this.readBuffers.push(Buffer.allocUnsafe(this.options.readBufferBytes));
    const { width, columns } = this.options;
    const expected = { width, columns, step, moduli: this.moduliAt(step) };
    const readers: RunReader[] = [];
    try {
      for (const file of files) {
        const reader = new RunReader(file, this.readBuffers[readers.length]);
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

  private header(step: number, run: number): RunHeader {
    const { width, columns } = this.options;
    return { version: FORMAT_VERSION, width, columns, step, run, moduli: this.moduliAt(step) };
  }
}
