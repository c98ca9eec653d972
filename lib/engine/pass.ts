/**
 * One pass of the count: all m·n steps for one set of moduli (paper §5.5), over one partition in
 * this thread or two in workers. After each step the coordinator decides whether the states stay in
 * memory (they fit, and no file is asked for) or go to run files; then it writes the step's manifest,
 * which makes the step complete, and only then deletes the step before. A pass that finds its
 * folder from an earlier, interrupted run resumes from the latest complete step in it; a finished
 * pass leaves result.json, so a rerun after a crash in a later pass skips it.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { buildManifest, MANIFEST_FILE, StepManifest, writeManifest } from '../format/manifest.js';
import type { RunSummary } from '../format/run-writer.js';
import type { MemoryPlan } from './budget.js';
import { localPartition, PartitionHandle, workerPartitions } from './partition-handle.js';
import type { PartitionOptions } from './partition.js';
import type { Progress, StepReport } from './progress.js';
import { findResumePoint } from './resume.js';
import { diskError, ScratchFolder } from './scratch.js';
import { sumResidueVectors } from '../residues/sums.js';
import { liftResidues, moduliAt } from '../residues/growth.js';
import { addPhaseTimes, noPhaseTimes } from './phase-clock.js';

export interface PassOptions {
  readonly width: number;
  readonly columns: number;
  readonly moduli: readonly number[];
  /** The memory plan of each partition. */
  readonly plan: MemoryPlan;
  readonly fanIn: number;
  readonly keep: boolean;
  readonly scratchDir: string;
  /** 1 (this thread), or that many worker threads. */
  readonly partitions: number;
  readonly progress: Progress;
  readonly pass: number;
  readonly passes: number;
}

export interface PassResult {
  /** perColumn[k − 1][r]: L(width, k) mod moduli[r], for k = 1 … columns. */
  readonly perColumn: number[][];
  readonly reports: StepReport[];
}

export class PassRunner {
  private readonly options: PassOptions;
  private readonly scratch: ScratchFolder;

  constructor(options: PassOptions) {
    this.options = options;
    this.scratch = new ScratchFolder(options.scratchDir, { width: options.width, columns: options.columns, moduli: options.moduli });
  }

  async run(): Promise<PassResult> {
    const { width, columns, keep, progress, partitions } = this.options;
    const steps = width * columns;
    const fresh = this.scratch.open(partitions);
    const finished = fresh ? undefined : this.scratch.readResult();
    if (finished) {
      progress.note(`gocount: pass ${this.options.pass + 1} was finished before; its residues are in ${this.scratch.root}`);
      return { perColumn: finished, reports: [] };
    }
    const resumed = fresh ? undefined : findResumePoint(this.scratch, partitions, (message) => progress.note(message));
    if (!fresh && !resumed) this.scratch.recordWorkers(partitions); // starts afresh in the folder
    if (resumed) progress.note(`gocount: resuming from step ${resumed.step} of ${steps} in ${this.scratch.root}`);
    const firstStep = resumed?.step ?? 0;
    progress.passStart(this.options.pass, this.options.passes, steps, firstStep);
    const parts = this.openPartitions();
    let failed = false;
    try {
      const perColumn: number[][] = resumed ? resumed.columnSums.map((sums) => [...sums]) : [];
      const reports: StepReport[] = [];
      // The step the next one reads from files (undefined: from memory), and the latest step on
      // disk, which a crash resumes from: it stays until a later step's manifest is written.
      let manifest = resumed;
      let onDisk = resumed;
      if (!resumed) {
        const startRuns = (await Promise.all(parts.map((part) => part.begin(keep)))).flat();
        if (keep) manifest = onDisk = this.finishStep(0, startRuns, this.zeros(0), perColumn);
      }
      for (let step = firstStep; step < steps; step++) {
        progress.stepStart(step);
        const started = performance.now();
        const expanded = new Array<number>(partitions).fill(0);
        const stepParts = await Promise.all(
          parts.map((part, i) =>
            part.expand(step, this.filesOf(manifest, i), (states) => {
              expanded[i] = states;
              progress.advance(expanded.reduce((a, b) => a + b, 0));
            }),
          ),
        );
        if (step % width === 0 && step > 0) perColumn.push(this.columnSum(step, stepParts.map((part) => part.legal!)));
        const toFiles = keep || stepParts.some((part) => part.spilled > 0 || !part.fitsInMemory);
        const ends = await Promise.all(parts.map((part) => part.finish(step + 1, toFiles)));
        const runs = ends.flatMap((end) => end.runs);
        const next = toFiles ? this.finishStep(step + 1, runs, this.sumOf(step + 1, stepParts.map((part) => part.dropped)), perColumn) : undefined;
        if (manifest) fse.removeSync(path.join(this.scratch.stepDir(step), 'merge'));
        if (next) {
          if (onDisk && !keep) this.scratch.removeStep(onDisk.step);
          onDisk = next;
        }

        const statesIn = stepParts.reduce((n, part) => n + part.statesIn, 0);
        const report: StepReport = {
          step,
          pass: this.options.pass,
          statesIn,
          recordsIn: manifest ? manifest.records : statesIn,
          runsIn: manifest ? manifest.runs.length : 0,
          successors: stepParts.reduce((n, part) => n + part.successors, 0),
          runsOut: runs.length,
          bytesOut: runs.reduce((n, run) => n + run.bytes, 0),
          seconds: (performance.now() - started) / 1000,
          phases: ends.reduce((sum, end) => addPhaseTimes(sum, end.phases), noPhaseTimes()),
          probes: ends.reduce((n, end) => n + end.probes, 0),
        };
        reports.push(report);
        progress.stepEnd(report);
        manifest = next;
      }
      const final = manifest;
      perColumn.push(this.columnSum(steps, await Promise.all(parts.map((part, i) => part.legalSums(steps, this.filesOf(final, i))))));
      try {
        this.scratch.writeResult(perColumn);
      } catch (error) {
        throw diskError(error, this.scratch.root);
      }
      if (!keep) for (const step of this.scratch.steps()) this.scratch.removeStep(step);
      return { perColumn, reports };
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      await Promise.all(parts.map((part) => part.close()));
      // A failure in one worker stops the other mid-write: its temporary file must not stay.
      if (failed) this.removeLeftoversQuietly();
    }
  }

  private removeLeftoversQuietly(): void {
    try {
      this.scratch.removeLeftovers();
    } catch {
      // the folder is unusable anyway; the error that brought us here is the one to report
    }
  }

  private openPartitions(): PartitionHandle[] {
    const { width, columns, moduli, plan, fanIn, scratchDir, partitions } = this.options;
    const options = (partition: number): PartitionOptions => ({ width, columns, moduli, plan, fanIn, scratchDir, partition, partitions });
    return partitions === 1 ? [localPartition(options(0))] : workerPartitions(Array.from({ length: partitions }, (_, i) => options(i)));
  }

  /** The run files of partition i in a step's manifest, or null when the step is in memory. */
  private filesOf(manifest: StepManifest | undefined, partition: number): string[] | null {
    if (!manifest) return null;
    const dir = this.scratch.stepDir(manifest.step);
    return manifest.runs.filter((run) => (run.partition ?? 0) === partition).map((run) => path.join(dir, run.file));
  }

  /** Writes the manifest that makes the step complete. */
  private finishStep(step: number, runs: RunSummary[], dropped: ArrayLike<number>, columnSums: number[][]): StepManifest {
    const { width, columns, moduli, partitions } = this.options;
    const manifest = buildManifest({ width, columns, step, moduli: moduliAt(moduli, step), countModuli: moduli, partitions }, runs, dropped, columnSums);
    const file = path.join(this.scratch.stepDir(step), MANIFEST_FILE);
    try {
      fse.ensureDirSync(path.dirname(file));
      writeManifest(file, manifest);
    } catch (error) {
      fse.removeSync(file + '.tmp');
      throw diskError(error, file);
    }
    return manifest;
  }

  /** Residue-wise sum of the partitions' residue vectors for the states after `step` points. */
  private sumOf(step: number, vectors: number[][]): number[] {
    return sumResidueVectors(moduliAt(this.options.moduli, step), vectors);
  }

  /** The legal states' sum after `step` points, for every modulus of the pass. */
  private columnSum(step: number, vectors: number[][]): number[] {
    return liftResidues(this.sumOf(step, vectors), this.options.moduli);
  }

  private zeros(step: number): number[] {
    return moduliAt(this.options.moduli, step).map(() => 0);
  }
}
