/**
 * One partition task: the map, shuffle and reduce of one step for one partition. Its workers
 * (J·W … J·W + W − 1 of the count's P·W) each merge their sections of the step's split runs,
 * combining equal states, and expand them; the task's threads, as many as W or fewer, each serve
 * some of its workers in turn, and write their successors into step S + 1 as sorted runs, one
 * split run file each time a thread's table fills, with a section for every owner. The
 * done-marker, written last under write-then-rename, commits the task: a task whose marker exists
 * is done, and a rerun first removes whatever an earlier, interrupted run of the same task left. A
 * task process keeps its threads from step to step (task-loop.ts).
 */

import path from 'node:path';
import fse from 'fs-extra';
import { GocountError, UsageError } from '../shared/errors.js';
import {
  MANIFEST_FILE,
  MERGE_FOLDER,
  parseSplitRunFileName,
  taskMarkerName,
  TEMP_SUFFIX,
  workerOfMergeFolder,
} from '../format/folder-names.js';
import { type HeldStates, readManifest, type StepManifest } from '../format/manifest.js';
import { readTaskMarker, TASK_FORMAT, TASK_VERSION, TaskMarker, writeTaskMarker } from '../format/task-marker.js';
import { moduliAt } from '../residues/growth.js';
import { sumResidueVectors } from '../residues/sums.js';
import { passPlan } from '../engine/pass-plan.js';
import { addPhaseTimes, noPhaseTimes } from '../observe/phase-clock.js';
import { CountLayout, diskError, openCountFolder, ScratchFolder } from '../folder/scratch.js';
import { localWorker, threadWorkers, WorkerHandle } from '../engine/worker-handle.js';
import type { StepEnd, StepPart, WorkerOptions } from '../engine/worker-runner.js';
import { defaultWindowRows, isWindowStart } from '../border/window-key.js';
import { ownersFromText, stepWeights, weightsText } from '../engine/window-owners.js';
import { defaultThreads, holdsWindows } from './task-layout.js';
import { faultTaskIfAsked } from './task-faults.js';
import { formatBytes } from '../shared/units.js';

export interface TaskSetup {
  /** The count folder: the one holding count.json. */
  readonly countDir: string;
  /** Budget for the task's buffers, bytes, shared by its workers. */
  readonly memory: number;
  readonly fanIn: number;
  /** Threads of the process, each serving some of a part's workers: at most the count's workers per partition. Default: defaultThreads. */
  readonly threads?: number;
  /**
   * Keep the successors of a window's steps in memory, between the window's exchanges: for a
   * process that serves one part step after step (task-loop.ts). A step run on its own writes them.
   */
  readonly holdStates?: boolean;
}

export interface TaskOptions extends TaskSetup {
  /** The task expands the states after `step` points. */
  readonly step: number;
  readonly part: number;
  /** States expanded so far, now and then. */
  readonly onProgress?: (states: number) => void;
}

export interface TaskOutcome {
  /** The marker was there before: nothing was done. */
  readonly alreadyDone: boolean;
  readonly marker: TaskMarker;
  /** The step its part's states, which an earlier process held in memory, were counted again from (replay). */
  readonly countedAgainFrom?: number;
}

/** `gocount task DIR --step S --part J`: one step of one part, in a process of its own. */
export async function runTask(options: TaskOptions): Promise<TaskOutcome> {
  const task = PartitionTask.open(options);
  try {
    task.checkPart(options.part);
    return await task.runStep(options.step, options.part, options.onProgress);
  } finally {
    await task.close();
  }
}

/**
 * The parts a task process serves, step after step, with one set of workers: threads, state
 * tables, buffers and compiled WebAssembly made at its first step and kept, whichever part and
 * step it works on.
 */
export class PartitionTask {
  readonly scratch: ScratchFolder;
  readonly layout: CountLayout;
  private readonly setup: TaskSetup;
  private handles?: WorkerHandle[];
  /** The part the workers last worked for. */
  private servingPart = -1;
  /** The step and part whose states the workers hold in memory: what the last step kept there. */
  private holding?: { step: number; part: number };

  private constructor(setup: TaskSetup, scratch: ScratchFolder, layout: CountLayout) {
    this.setup = setup;
    this.scratch = scratch;
    this.layout = layout;
  }

  static open(setup: TaskSetup): PartitionTask {
    const { scratch, layout } = openCountFolder(setup.countDir);
    return new PartitionTask(setup, scratch, layout);
  }

  /** The steps of the count: the last task's step is one before. */
  get steps(): number {
    return this.scratch.identity.width * this.scratch.identity.columns;
  }

  checkPart(part: number): void {
    const { partitions } = this.layout;
    if (!Number.isInteger(part) || part < 0 || part >= partitions)
      throw new UsageError(`part ${part}: this count has partitions 0 to ${partitions - 1}`, 'GOCOUNT_INVALID_OPTION');
  }

  /** Whether the manifest of `step` is there: the step is complete. */
  isComplete(step: number): boolean {
    return fse.pathExistsSync(path.join(this.scratch.stepDir(step), MANIFEST_FILE));
  }

  /** Expands part `part` of the states after `step` points into step + 1, unless its marker is there. */
  async runStep(step: number, part: number, onProgress?: (states: number) => void): Promise<TaskOutcome> {
    const { scratch, layout } = this;
    const { width, moduli } = scratch.identity;
    if (!Number.isInteger(step) || step < 0 || step >= this.steps)
      throw new UsageError(`step ${step}: this count has steps 0 to ${this.steps - 1}`, 'GOCOUNT_INVALID_OPTION');
    const markerFile = taskMarkerPath(scratch, step + 1, part);
    const done = readMarkerIfWhole(markerFile, step + 1, part);
    if (done) return { alreadyDone: true, marker: done };
    // Step S + 1 is committed only once every task of step S is done: a task run again after that,
    // its marker gone, would rewrite runs of a committed step.
    if (this.isComplete(step + 1))
      throw new UsageError(`step ${step + 1} is complete in ${scratch.root}: the tasks of step ${step} have nothing left to do`);

    const manifestFile = path.join(scratch.stepDir(step), MANIFEST_FILE);
    if (!fse.pathExistsSync(manifestFile))
      throw new UsageError(`step ${step} is not complete in ${scratch.root}: ${MANIFEST_FILE} is missing`);
    const manifest = readManifest(manifestFile);
    removeOwnOutputs(scratch, step, ownersOf(layout, part));

    const started = performance.now();
    const { rows, table } = this.windowOf(step, manifest);
    const handles = await this.workersFor(part, rows);
    const { files, countedAgainFrom } = await this.inputOf(step, part, manifest, handles);
    this.holding = undefined; // the workers' memory is rewritten from here on
    const expanded = handles.map(() => 0);
    // Every split run may hold states of every worker: each reads its own sections of all of them.
    const parts = await Promise.all(
      handles.map((handle, i) =>
        handle.expand(
          step,
          files,
          (states) => {
            expanded[i] = states;
            onProgress?.(expanded.reduce((a, b) => a + b, 0));
          },
          table,
        ),
      ),
    );
    const hold = manifest.window !== undefined && this.mayHold(step, rows, parts);
    const ends = await Promise.all(handles.map((handle) => handle.finish(!hold)));
    const weights = stepWeights([...parts, ...ends]);
    if (hold) this.holding = { step: step + 1, part };
    const runs = ends.flatMap((end) => end.runs);
    const outModuli = moduliAt(moduli, step + 1, scratch.identity);
    const atBoundary = step % width === 0 && step > 0;
    const marker: TaskMarker = {
      format: TASK_FORMAT,
      version: TASK_VERSION,
      step: step + 1,
      part,
      partitions: layout.partitions,
      workers: layout.workers,
      moduli: outModuli,
      runs,
      held: hold ? heldStates(ends, threadsOf(layout, part, handles.length)) : undefined,
      statesIn: parts.reduce((n, p) => n + p.statesIn, 0),
      successors: parts.reduce((n, p) => n + p.successors, 0),
      dropped: sumResidueVectors(
        outModuli,
        parts.map((p) => p.dropped),
      ),
      legal: atBoundary
        ? sumResidueVectors(
            moduliAt(moduli, step, scratch.identity),
            parts.map((p) => p.legal!),
          )
        : undefined,
      workerRecords: ownersOf(layout, part).map((worker) => parts.reduce((n, p) => n + (p.recordsRead?.[worker] ?? 0), 0)),
      moved: ends.reduce((n, end) => n + (end.moved ?? 0), 0),
      histogram: weights ? weightsText(Uint32Array.from(weights)) : undefined,
      phases: ends.reduce((sum, end) => addPhaseTimes(sum, end.phases), noPhaseTimes()),
      seconds: (performance.now() - started) / 1000,
    };
    faultTaskIfAsked(step, part);
    try {
      fse.ensureDirSync(path.dirname(markerFile)); // a task with nothing to expand wrote no run there
      writeTaskMarker(markerFile, marker);
    } catch (error) {
      throw diskError(error, markerFile);
    }
    return { alreadyDone: false, marker, countedAgainFrom };
  }

  /**
   * The window the manifest of `step` names: its rows and owner table. A folder of an earlier
   * version names none: the workers then deal the buckets out in turn.
   */
  private windowOf(step: number, manifest: StepManifest): { rows: number; table?: Uint16Array } {
    const owners = this.layout.workers * this.layout.partitions;
    if (!manifest.window) return { rows: defaultWindowRows(this.scratch.identity.width, owners) };
    const table = ownersFromText(manifest.window.owners, owners);
    if (!table)
      throw new UsageError(
        `step ${step} in ${this.scratch.root}: its manifest's owner table is not one of ${owners} owners`,
        'GOCOUNT_SCRATCH_UNUSABLE',
      );
    return { rows: manifest.window.rows, table };
  }

  /**
   * Whether the successors of `step` stay in the workers' memory: inside a window (at its first
   * step they change owner, and go to files), in a process that holds states with a layout that
   * can (holdsWindows), not at the pass's last step, and every worker's successors within its
   * in-memory run.
   */
  private mayHold(step: number, rows: number, parts: readonly StepPart[]): boolean {
    return (
      this.setup.holdStates === true &&
      holdsWindows(this.layout, this.handles?.length ?? 0) &&
      step + 1 < this.steps &&
      !isWindowStart(step % this.scratch.identity.width, rows) &&
      parts.every((part) => part.spilled === 0 && part.fitsInMemory)
    );
  }

  /**
   * The files the workers read the states after `step` points from, or null where they hold them
   * in memory. A process that does not hold them (relaunched, or resumed, inside a window) first
   * counts them again (replay).
   */
  private async inputOf(
    step: number,
    part: number,
    manifest: StepManifest,
    handles: WorkerHandle[],
  ): Promise<{ files: string[] | null; countedAgainFrom?: number }> {
    if (!heldBy(manifest, ownersOf(this.layout, part)))
      return { files: manifest.runs.map((run) => path.join(this.scratch.stepDir(step), run.file)) };
    if (this.holding?.step === step && this.holding.part === part) return { files: null };
    return { files: null, countedAgainFrom: await this.replay(step, part, manifest, handles) };
  }

  /**
   * Makes the workers hold part `part`'s states after `step` points: from the latest step whose
   * manifest has them in files, it expands each step into memory again, and checks the states each
   * step holds against what its manifest recorded of them. A window's steps keep a part's states
   * with the part's own workers, so its files alone give them.
   */
  private async replay(step: number, part: number, manifest: StepManifest, handles: WorkerHandle[]): Promise<number> {
    const { scratch, layout } = this;
    const workers = ownersOf(layout, part);
    const manifests = new Map([[step, manifest]]);
    let from = step;
    while (heldBy(manifests.get(from)!, workers)) {
      from--;
      const file = path.join(scratch.stepDir(from), MANIFEST_FILE);
      if (from < 0 || !fse.pathExistsSync(file))
        throw new UsageError(
          `step ${step} in ${scratch.root}: task ${part}'s states were kept in memory, and step ${from} to count them again from is gone`,
          'GOCOUNT_SCRATCH_UNUSABLE',
        );
      manifests.set(from, readManifest(file));
    }
    removeOwnOutputs(scratch, from, workers);
    this.holding = undefined;
    const served = threadsOf(layout, part, handles.length);
    for (let t = from; t < step; t++) {
      const at = manifests.get(t)!;
      const files = t === from ? at.runs.map((run) => path.join(scratch.stepDir(t), run.file)) : null;
      const { table } = this.windowOf(t, at);
      const parts = await Promise.all(handles.map((handle) => handle.expand(t, files, () => {}, table)));
      if (!parts.every((p) => p.spilled === 0 && p.fitsInMemory))
        throw new GocountError(
          `step ${t + 1} in ${scratch.root}: task ${part}'s states, which the count kept in memory, do not fit this task's memory (${formatBytes(this.setup.memory)}): give it the --memory the count was run with`,
          1,
          'GOCOUNT_SCRATCH_UNUSABLE',
        );
      const again = heldStates(await Promise.all(handles.map((handle) => handle.finish(false))), served);
      const recorded = manifests.get(t + 1)!.held ?? [];
      const same = again.every((h) =>
        recorded.some((r) => r.worker === h.worker && r.records === h.records && r.sums.join() === h.sums.join()),
      );
      if (!same)
        throw new GocountError(
          `step ${t + 1} in ${scratch.root}: task ${part}'s states, counted again from step ${from}, are not those its done-marker recorded; the count stops rather than go on with either`,
          1,
          'GOCOUNT_SCRATCH_UNUSABLE',
        );
    }
    this.holding = { step, part };
    return from;
  }

  async close(): Promise<void> {
    const handles = this.handles ?? [];
    this.handles = undefined;
    await Promise.all(handles.map((handle) => handle.close()));
  }

  /** The threads, made at the first step, working for part `part`'s workers. */
  private async workersFor(part: number, windowRows: number): Promise<WorkerHandle[]> {
    const { scratch, layout } = this;
    const { width, columns, moduli } = scratch.identity;
    const threads = threadsOf(layout, part, this.setup.threads ?? defaultThreads(layout.workers));
    if (!this.handles) {
      const plan = passPlan({
        memory: this.setup.memory,
        width,
        columns,
        moduli,
        fanIn: this.setup.fanIn,
        threads: threads.length,
        holders: layout.partitions * threads.length,
        owners: { owners: layout.workers * layout.partitions, served: threads[0].length },
      });
      const workerOptions = threads.map((serves): WorkerOptions => ({
        width,
        columns,
        moduli,
        plan,
        fanIn: this.setup.fanIn,
        scratchDir: path.dirname(path.dirname(scratch.root)),
        worker: serves[0],
        workers: layout.workers * layout.partitions,
        partitioned: true,
        serves,
        windowRows,
      }));
      this.handles = threads.length === 1 ? [localWorker(workerOptions[0])] : threadWorkers(workerOptions);
    } else if (part !== this.servingPart) {
      this.holding = undefined;
      const handles = this.handles;
      await Promise.all(handles.map((handle, i) => handle.actAs(threads[i])));
    }
    this.servingPart = part;
    return this.handles;
  }
}

export function taskMarkerPath(scratch: ScratchFolder, step: number, part: number): string {
  return path.join(scratch.stepDir(step), taskMarkerName(part));
}

/** The workers of partition `part`: the count's workers are numbered partition by partition. */
export function ownersOf(layout: CountLayout, part: number): number[] {
  return Array.from({ length: layout.workers }, (_, k) => part * layout.workers + k);
}

/** The workers each of `threads` threads serves for partition `part`, dealt out in turn: thread t has the part's t-th, (t + T)-th, … */
export function threadsOf(layout: CountLayout, part: number, threads: number): number[][] {
  const owners = ownersOf(layout, part);
  const count = Math.max(1, Math.min(threads, owners.length));
  return Array.from({ length: count }, (_, t) => owners.filter((_, k) => k % count === t));
}

/** Whether the manifest has states of `workers` held in memory rather than in its runs. */
function heldBy(manifest: StepManifest, workers: readonly number[]): boolean {
  return (manifest.held ?? []).some((held) => workers.includes(held.worker));
}

/** What each thread's worker holds in memory after a step (each thread serving one worker). */
function heldStates(ends: readonly StepEnd[], served: readonly number[][]): HeldStates[] {
  return ends.map((end, i) => ({ worker: served[i][0], records: end.held!.records, sums: end.held!.sums }));
}

/** The marker at `file` when it is whole and is this task's; a damaged one is removed. */
function readMarkerIfWhole(file: string, step: number, part: number): TaskMarker | undefined {
  if (!fse.pathExistsSync(file)) return undefined;
  try {
    const marker = readTaskMarker(file);
    if (marker.step === step && marker.part === part) return marker;
  } catch {
    // damaged: the task runs again
  }
  fse.removeSync(file);
  return undefined;
}

/**
 * What an earlier run of this task may have left: its runs in step + 1 (those its workers wrote,
 * whichever threads served them), temporary files, and its workers' merge folders in `step`. Other
 * tasks' files are not touched.
 */
function removeOwnOutputs(scratch: ScratchFolder, step: number, owners: number[]): void {
  const next = scratch.stepDir(step + 1);
  const mine = new Set(owners);
  if (fse.pathExistsSync(next)) {
    for (const name of fse.readdirSync(next)) {
      const parsed = parseSplitRunFileName(name.endsWith(TEMP_SUFFIX) ? name.slice(0, -TEMP_SUFFIX.length) : name);
      if (parsed && mine.has(parsed.source)) fse.removeSync(path.join(next, name));
    }
  }
  const merges = path.join(scratch.stepDir(step), MERGE_FOLDER);
  if (fse.pathExistsSync(merges)) {
    for (const folder of fse.readdirSync(merges)) {
      const worker = workerOfMergeFolder(folder);
      if (worker !== undefined && mine.has(worker)) fse.removeSync(path.join(merges, folder));
    }
  }
}
