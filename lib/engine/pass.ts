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
import type { StepEnd, StepPart, WorkerOptions } from './worker-runner.js';
import { OnProgress, resumeNote, StepReport, stepReport, stoppedMessage } from '../observe/progress.js';
import { findResumePoint } from '../folder/resume.js';
import { diskError, FolderRecord, isDiskFull, ScratchFolder } from '../folder/scratch.js';
import type { CountLock } from '../folder/lock.js';
import { columnSum, writeStepManifest } from '../folder/step-record.js';
import { sumResidueVectors } from '../residues/sums.js';
import { moduliAt } from '../residues/growth.js';
import { addPhaseTimes, noPhaseTimes } from '../observe/phase-clock.js';
import { defaultWindowRows, isWindowStart } from '../border/window-key.js';
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
  /** Per worker: its expansion of the next step, begun before the others ended this one (workerStep). */
  readonly ahead: (Promise<StepPart> | undefined)[];
}

/** A worker's part of a step, and its end when it ended the step on its own to run ahead. */
interface WorkerStep {
  readonly part: StepPart;
  readonly end?: StepEnd;
}

export class PassRunner {
  private readonly options: PassOptions;
  private readonly scratch: ScratchFolder;
  /** Every step's files stay: asked for now, or recorded in the folder by an earlier count. */
  private keep = false;
  /** The removal of the last step retired, under way while the next one runs (retire). */
  private removing: Promise<void> = Promise.resolve();
  /** The step under way, and each step's states expanded so far by each worker (advance). */
  private current = -1;
  private readonly expanded = new Map<number, number[]>();
  private readonly windowRows: number;

  constructor(options: PassOptions) {
    this.options = options;
    this.windowRows = options.windowRows ?? defaultWindowRows(options.width, options.workers);
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
        if (this.options.signal?.aborted) {
          await this.stopAhead(handles, step, pass);
          throw await this.stopped(handles, step, steps, pass);
        }
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
      ahead: handles.map(() => undefined),
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
    const { width, workers } = this.options;
    const { keep } = this;
    const started = performance.now();
    const source = pass.manifest;
    this.current = step;
    for (const before of this.expanded.keys()) if (before < step) this.expanded.delete(before);
    const owners = pass.owners;
    pass.owners = undefined;
    const workerSteps = await Promise.all(handles.map((handle, i) => this.workerStep(handle, i, step, source, owners, pass)));
    const stepParts = workerSteps.map((done) => done.part);
    if (step % width === 0 && step > 0)
      pass.perColumn.push(
        this.columnSum(
          step,
          stepParts.map((part) => part.legal!),
        ),
      );
    const toFiles = keep || stepParts.some((part) => part.endedInFiles || part.spilled > 0 || !part.fitsInMemory);
    const ends = await Promise.all(handles.map((handle, i) => workerSteps[i].end ?? handle.finish(toFiles)));
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
   * Worker i's part of `step`: from the expansion it began ahead, or begun now. Where its part ended
   * in run files, the step ends in files whatever the others' parts (runStep), so the worker ends
   * it and, inside a window, begins the next step at once (runsAhead): its input is its own runs,
   * since no successor changes worker inside a window (step-routing.ts). It runs at most one step
   * ahead: the next after that begins only once every worker has ended this one.
   */
  private async workerStep(
    handle: WorkerHandle,
    i: number,
    step: number,
    source: StepManifest | undefined,
    owners: Uint16Array | undefined,
    pass: PassState,
  ): Promise<WorkerStep> {
    const early = pass.ahead[i];
    pass.ahead[i] = undefined;
    const part = await (early ?? handle.expand(step, this.filesOf(source, i), this.advance(i, step), owners));
    if (!(part.endedInFiles && this.runsAhead(step + 1)) || this.options.signal?.aborted) return { part };
    const end = await handle.finish(true);
    const files = end.runs.map((run) => path.join(this.scratch.stepDir(step + 1), run.file));
    const next = handle.expand(step + 1, files, this.advance(i, step + 1));
    next.catch(() => {}); // awaited at the next step, or by stopAhead: not unhandled meanwhile
    pass.ahead[i] = next;
    return { part, end };
  }

  /**
   * Whether a worker may begin `step` before the others ended the step before: with several
   * workers, inside a window (at a window's first step the workers exchange successors and need
   * owners packed from every worker's weights), and not past the last step (finish reads it).
   */
  private runsAhead(step: number): boolean {
    const { width, columns, workers } = this.options;
    return workers > 1 && step < width * columns && !isWindowStart(step % width, this.windowRows);
  }

  /** Worker i's progress in `step`, shown while that step is the one under way. */
  private advance(i: number, step: number): (states: number) => void {
    return (states) => {
      let expanded = this.expanded.get(step);
      if (!expanded) this.expanded.set(step, (expanded = new Array<number>(this.options.workers).fill(0)));
      expanded[i] = states;
      if (step === this.current) this.options.onProgress({ type: 'advance', states: expanded.reduce((a, b) => a + b, 0) });
    };
  }

  /**
   * A stop between steps: the expansions begun ahead of `step` end, and their runs go, as a step
   * without its manifest (the count resumes from the step before, whose files are all kept).
   */
  private async stopAhead(handles: WorkerHandle[], step: number, pass: PassState): Promise<void> {
    const begun = handles.flatMap((handle, i) => (pass.ahead[i] ? [pass.ahead[i]!.then(() => handle.finish(true))] : []));
    pass.ahead.fill(undefined);
    if (begun.length === 0) return;
    const ended = await Promise.allSettled(begun);
    this.scratch.removeStep(step + 1);
    const failed = ended.find((result) => result.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
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

  /** The workers, one in this thread or each in its own; protected so that a test can watch their calls. */
  protected openWorkers(): WorkerHandle[] {
    const { width, columns, moduli, plan, fanIn, scratchDir, workers } = this.options;
    const shared = { width, columns, moduli, plan, fanIn, scratchDir, workers, windowRows: this.windowRows, keep: this.keep };
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
