/**
 * One pass of the count: all m·n steps for one set of moduli (paper §5.5), by one worker in this
 * thread or by several in worker threads. After each step the coordinator decides whether the states stay in
 * memory (they fit, and no file is asked for) or go to run files; then it writes the step's manifest,
 * which makes the step complete, and only then deletes the step before. A pass that finds its
 * folder from an earlier, interrupted run resumes from the latest complete step in it; a finished
 * pass leaves result.json, so a rerun after a crash in a later pass skips it.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { AbortedError } from '../shared/errors.js';
import { MERGE_FOLDER } from '../format/folder-names.js';
import type { StepManifest } from '../format/manifest.js';
import type { RunSummary } from '../format/run-writer.js';
import type { MemoryPlan } from './budget.js';
import { localWorker, WorkerHandle, threadWorkers } from './worker-handle.js';
import type { WorkerOptions } from './worker-runner.js';
import { OnProgress, resumeNote, StepReport, stepReport, stoppedMessage } from '../observe/progress.js';
import { findResumePoint } from '../folder/resume.js';
import { diskError, FolderRecord, isDiskFull, ScratchFolder } from '../folder/scratch.js';
import type { CountLock } from '../folder/lock.js';
import { columnSum, writeStepManifest } from '../folder/step-record.js';
import { sumResidueVectors } from '../residues/sums.js';
import { moduliAt } from '../residues/growth.js';
import { addPhaseTimes, noPhaseTimes } from '../observe/phase-clock.js';
import { defaultWindowRows } from '../border/window-key.js';
import { busiestShare } from '../observe/balance.js';
import { packedOwners, stepWeights } from './window-owners.js';

export interface PassOptions {
  readonly width: number;
  readonly columns: number;
  readonly moduli: readonly number[];
  /** The memory plan of each worker. */
  readonly plan: MemoryPlan;
  readonly fanIn: number;
  /** Asked for this time (--keep), and what the count folder records if it is new. */
  readonly record: FolderRecord;
  readonly scratchDir: string;
  /** 1 (this thread), or that many worker threads. */
  readonly workers: number;
  /** Rows per window of the threads' ownership (lib/border/window-key.ts); defaultWindowRows(width, workers) if undefined. */
  readonly windowRows?: number;
  readonly onProgress: OnProgress;
  readonly signal?: AbortSignal;
  readonly pass: number;
  readonly passes: number;
}

export interface PassResult {
  /** perColumn[k − 1][r]: L(width, k) mod moduli[r], for k = 1 … columns. */
  readonly perColumn: number[][];
  readonly reports: StepReport[];
  /** The pass was finished by an earlier run: its folder, kept, is left as it is. */
  readonly finishedBefore?: boolean;
}

/**
 * What a pass carries from step to step: the column sums so far, the step the next one reads from
 * files (undefined: from memory), the latest step on disk, what the latest step sent to dropped
 * successors (its manifest's, should a stop write it), and the steps' figures.
 */
interface PassState {
  perColumn: number[][];
  manifest?: StepManifest;
  onDisk?: StepManifest;
  dropped: number[];
  readonly reports: StepReport[];
  /** For the step that starts the next window: each key bucket's owner, packed by the weights sampled the step before. */
  owners?: Uint16Array;
}

export class PassRunner {
  private readonly options: PassOptions;
  private readonly scratch: ScratchFolder;
  /** Every step's files stay: asked for now, or recorded in the folder by an earlier count. */
  private keep = false;
  /** The removal of the last step retired, under way while the next one runs (retire). */
  private removing: Promise<void> = Promise.resolve();

  constructor(options: PassOptions) {
    this.options = options;
    this.scratch = new ScratchFolder(options.scratchDir, { width: options.width, columns: options.columns, moduli: options.moduli });
  }

  /** The pass, step by step: resume or begin, then for each step run it, retire the old one, report. */
  async run(): Promise<PassResult> {
    const { width, columns } = this.options;
    const steps = width * columns;
    const start = this.openFolder(steps);
    try {
      if ('finished' in start) return { perColumn: start.finished, reports: [], finishedBefore: true };
      return await this.runSteps(start, steps);
    } finally {
      start.lock.release();
    }
  }

  private async runSteps(start: { step: number; manifest?: StepManifest }, steps: number): Promise<PassResult> {
    this.options.onProgress({
      type: 'pass-start',
      pass: this.options.pass + 1,
      passes: this.options.passes,
      width: this.options.width,
      steps,
      firstStep: start.step + 1,
      workers: this.options.workers,
    });
    const handles = this.openWorkers();
    let failed = false;
    try {
      const pass = await this.begin(handles, start);
      for (let step = start.step; step < steps; step++) {
        // One worker counts in this thread: between steps, let timers and signal handlers run.
        await new Promise((resolve) => setImmediate(resolve));
        if (this.options.signal?.aborted) throw await this.stopped(handles, step, steps, pass);
        this.options.onProgress({ type: 'step-start', step: step + 1 });
        const done = await this.runStep(handles, step, pass);
        await this.retire(step, done.next, pass);
        this.options.onProgress({ type: 'step-end', report: done.report });
        pass.reports.push(done.report);
      }
      return await this.finish(handles, pass);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await this.removing.catch(() => {});
      // A failure in one worker stops the other mid-write: its temporary file must not stay.
      if (failed) this.removeLeftoversQuietly();
    }
  }

  /**
   * Where an aborted count stands, and the step the same count resumes at. The states after `step`
   * points, when the last step left them in memory only, go to disk first, so that it resumes after
   * that step; when the disk cannot hold them, the step on disk before stays the one to resume from.
   */
  private async stopped(handles: WorkerHandle[], step: number, steps: number, pass: PassState): Promise<AbortedError> {
    const { root } = this.scratch;
    const at = { steps, folder: root, pass: { pass: this.options.pass + 1, passes: this.options.passes } };
    const resumeAt = () => (pass.onDisk?.step ?? 0) + 1;
    if (pass.manifest || step === 0) return new AbortedError(stoppedMessage({ ...at, resumeAt: resumeAt() }));
    let saved: StepManifest;
    try {
      // Every worker's writes end before a failure is handled: none may write into a step folder being removed.
      const written = await Promise.allSettled(handles.map((handle) => handle.save(step)));
      const failed = written.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      const runs = written.flatMap((result) => (result.status === 'fulfilled' ? result.value : []));
      saved = this.writeStepManifest(step, runs, pass.dropped, pass.perColumn);
    } catch (error) {
      this.scratch.removeStep(step); // runs without their manifest: never a step to resume from
      if (!isDiskFull(error)) throw error;
      return new AbortedError(stoppedMessage({ ...at, resumeAt: resumeAt(), unsaved: { step, problem: 'the disk is full' } }));
    }
    // Steps in memory mean no --keep: the step on disk before goes, as after any step written.
    if (pass.onDisk) this.scratch.removeStep(pass.onDisk.step);
    pass.onDisk = pass.manifest = saved;
    return new AbortedError(stoppedMessage({ ...at, resumeAt: resumeAt() }));
  }

  /**
   * Opens the count folder: the residues when the pass was finished before, else the step to start
   * from (0, or the latest complete step on disk) and its manifest.
   */
  private openFolder(steps: number): { lock: CountLock } & ({ finished: number[][] } | { step: number; manifest?: StepManifest }) {
    const { workers, onProgress } = this.options;
    const note = (message: string) => onProgress({ type: 'note', message });
    const { fresh, lock, keep } = this.scratch.openLocked({ workers, partitions: 1 }, this.options.record, note);
    this.keep = keep;
    try {
      return { lock, ...this.startingPoint(fresh, steps, note) };
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private startingPoint(
    fresh: boolean,
    steps: number,
    note: (message: string) => void,
  ): { finished: number[][] } | { step: number; manifest?: StepManifest } {
    const { workers } = this.options;
    const finished = fresh ? undefined : this.scratch.readResult(note);
    if (finished) {
      note(`pass ${this.options.pass + 1} was finished before; its residues are in ${this.scratch.root}`);
      return { finished };
    }
    const resumed = fresh ? undefined : findResumePoint(this.scratch, { workers, partitions: 1 }, note);
    if (!fresh && !resumed) this.scratch.recordLayout({ workers, partitions: 1 }, { ...this.scratch.recorded(), keep: this.keep }); // starts afresh in the folder
    if (resumed) note(resumeNote(resumed.step, steps, this.scratch.root));
    return { step: resumed?.step ?? 0, manifest: resumed };
  }

  /** The pass's running state: from a resume point, or step 0 (the all-edge state) made anew. */
  private async begin(handles: WorkerHandle[], start: { manifest?: StepManifest }): Promise<PassState> {
    const { keep } = this;
    const resumed = start.manifest;
    const pass: PassState = {
      perColumn: resumed ? resumed.columnSums.map((sums) => [...sums]) : [],
      manifest: resumed,
      onDisk: resumed,
      dropped: [],
      reports: [],
    };
    if (!resumed) {
      const startRuns = (await Promise.all(handles.map((handle) => handle.begin(keep)))).flat();
      if (keep) pass.manifest = pass.onDisk = this.writeStepManifest(0, startRuns, this.zeros(0), pass.perColumn);
    }
    return pass;
  }

  /**
   * Expands the states after `step` points into those after step + 1, in memory or as run files;
   * a step on files is complete once its manifest is written.
   */
  private async runStep(handles: WorkerHandle[], step: number, pass: PassState): Promise<{ next?: StepManifest; report: StepReport }> {
    const { width, workers, onProgress } = this.options;
    const { keep } = this;
    const started = performance.now();
    const source = pass.manifest;
    const expanded = new Array<number>(workers).fill(0);
    const owners = pass.owners;
    pass.owners = undefined;
    const stepParts = await Promise.all(
      handles.map((handle, i) =>
        handle.expand(
          step,
          this.filesOf(source, i),
          (states) => {
            expanded[i] = states;
            onProgress({ type: 'advance', states: expanded.reduce((a, b) => a + b, 0) });
          },
          owners,
        ),
      ),
    );
    if (step % width === 0 && step > 0)
      pass.perColumn.push(
        this.columnSum(
          step,
          stepParts.map((part) => part.legal!),
        ),
      );
    const toFiles = keep || stepParts.some((part) => part.endedInFiles || part.spilled > 0 || !part.fitsInMemory);
    const ends = await Promise.all(handles.map((handle) => handle.finish(toFiles)));
    const weights = stepWeights([...stepParts, ...ends]);
    if (weights) pass.owners = packedOwners(weights, workers);
    const runs = ends.flatMap((end) => end.runs);
    const dropped = (pass.dropped = this.sumOf(
      step + 1,
      stepParts.map((part) => part.dropped),
    ));
    const next = toFiles ? this.writeStepManifest(step + 1, runs, dropped, pass.perColumn) : undefined;
    const statesIn = stepParts.reduce((n, part) => n + part.statesIn, 0);
    const report = stepReport(
      {
        step,
        pass: this.options.pass,
        statesIn,
        recordsIn: source ? source.records : statesIn,
        runsIn: source ? source.runs.length : 0,
        successors: stepParts.reduce((n, part) => n + part.successors, 0),
        runsOut: runs.length,
        bytesOut: runs.reduce((n, run) => n + run.bytes, 0),
        seconds: (performance.now() - started) / 1000,
        phases: ends.reduce((sum, end) => addPhaseTimes(sum, end.phases), noPhaseTimes()),
        probes: ends.reduce((n, end) => n + end.probes, 0),
        moved: stepParts.reduce((n, part) => n + part.moved, 0),
        busiest: busiestShare(stepParts.map((part) => part.statesIn)),
      },
      this.options,
    );
    return { next, report };
  }

  /**
   * After a step: its merge folder goes, and the latest step on disk, which a crash resumes from,
   * stays until a later step's manifest is written. Then it is removed while the next step runs;
   * the removal before it has ended by then (and a failed one fails the count here).
   */
  private async retire(step: number, next: StepManifest | undefined, pass: PassState): Promise<void> {
    if (pass.manifest) fse.removeSync(path.join(this.scratch.stepDir(step), MERGE_FOLDER));
    if (next) {
      if (pass.onDisk && !this.keep) {
        await this.removing;
        const removal = this.scratch.removeStepLater(pass.onDisk.step);
        removal.catch(() => {}); // awaited at the next step or the end: not unhandled meanwhile
        this.removing = removal;
      }
      pass.onDisk = next;
    }
    pass.manifest = next;
  }

  /** The last column's legal sum, result.json, and the step folders cleared away. */
  private async finish(handles: WorkerHandle[], pass: PassState): Promise<PassResult> {
    const { width, columns } = this.options;
    const { keep } = this;
    const steps = width * columns;
    const final = pass.manifest;
    pass.perColumn.push(
      this.columnSum(steps, await Promise.all(handles.map((handle, i) => handle.legalSums(steps, this.filesOf(final, i))))),
    );
    try {
      this.scratch.writeResult(pass.perColumn);
    } catch (error) {
      throw diskError(error, this.scratch.root);
    }
    await this.removing;
    if (!keep) for (const step of this.scratch.steps()) this.scratch.removeStep(step);
    return { perColumn: pass.perColumn, reports: pass.reports };
  }

  private removeLeftoversQuietly(): void {
    try {
      this.scratch.removeLeftovers();
    } catch {
      // the folder is unusable anyway; the error that brought us here is the one to report
    }
  }

  private openWorkers(): WorkerHandle[] {
    const { width, columns, moduli, plan, fanIn, scratchDir, workers } = this.options;
    const windowRows = this.options.windowRows ?? defaultWindowRows(width, workers);
    const shared = { width, columns, moduli, plan, fanIn, scratchDir, workers, windowRows, keep: this.keep };
    const options = (worker: number): WorkerOptions => ({ ...shared, worker });
    return workers === 1 ? [localWorker(options(0))] : threadWorkers(Array.from({ length: workers }, (_, i) => options(i)));
  }

  /** The run files of worker i in a step's manifest, or null when the step is in memory. */
  private filesOf(manifest: StepManifest | undefined, worker: number): string[] | null {
    if (!manifest) return null;
    const dir = this.scratch.stepDir(manifest.step);
    return manifest.runs.filter((run) => (run.worker ?? 0) === worker).map((run) => path.join(dir, run.file));
  }

  /** Writes the manifest that makes the step complete. */
  private writeStepManifest(step: number, runs: RunSummary[], dropped: ArrayLike<number>, columnSums: number[][]): StepManifest {
    return writeStepManifest(this.scratch, { workers: this.options.workers, partitions: 1 }, step, runs, dropped, columnSums);
  }

  /** Residue-wise sum of the workers' residue vectors for the states after `step` points. */
  private sumOf(step: number, vectors: number[][]): number[] {
    return sumResidueVectors(moduliAt(this.options.moduli, step, this.options), vectors);
  }

  /** The legal states' sum after `step` points, for every modulus of the pass. */
  private columnSum(step: number, vectors: number[][]): number[] {
    return columnSum(this.options.moduli, step, this.options, vectors);
  }

  private zeros(step: number): number[] {
    return moduliAt(this.options.moduli, step, this.options).map(() => 0);
  }
}
