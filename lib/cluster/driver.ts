/**
 * A pass of a partitioned count (`--partitions P`): the driver. Each step is one round of map
 * (expand), shuffle (route each successor to the worker that owns it) and reduce (combine equal
 * states), run by P tasks (lib/cluster/task.ts). The launcher starts the pass's task processes
 * once; each serves its parts step after step (task-loop.ts). For each step the driver waits for
 * the done-markers, launches again, up to --retries times, a process that ended with a marker of
 * the step missing, checks the conservation law over the whole step from the markers
 * (3 × mass in = mass out + dropped), writes the step's manifest, which sets the tasks on the next
 * step, and only then deletes the step before. Before it takes a marker it checks the runs the
 * marker names (commit-check.ts): a task whose runs are damaged or missing is launched again, as is
 * one that shows no sign of life for longer than the task timeout (hang-watch.ts); a task that
 * stopped on a full disk stops the count at once. Run again, it resumes from the latest complete
 * step, keeping the tasks already done in the step after it.
 */

import { statfsSync } from 'node:fs';
import path from 'node:path';
import fse from 'fs-extra';
import { AbortedError, GocountError } from '../shared/errors.js';
import { MERGE_FOLDER } from '../format/folder-names.js';
import type { ManifestWindow, StepManifest } from '../format/manifest.js';
import { defaultWindowRows, isWindowStart } from '../border/window-key.js';
import { dealtOwners, joinedWeights, ownersText, packedOwners, weightsFromText } from '../engine/window-owners.js';
import { readWholeRun } from '../format/section-reader.js';
import { summedBuffer } from '../format/run-sum.js';
import { readTaskMarker, TaskMarker } from '../format/task-marker.js';
import { moduliAt } from '../residues/growth.js';
import { addResidues, sumResidueVectors } from '../residues/sums.js';
import { planMemory } from '../engine/budget.js';
import type { PassResult } from '../engine/pass.js';
import { addPhaseTimes, noPhaseTimes } from '../observe/phase-clock.js';
import { OnProgress, resumeNote, StepReport, stepReport, stoppedMessage } from '../observe/progress.js';
import { findResumePoint } from '../folder/resume.js';
import { CountLayout, diskError, FolderRecord, ScratchFolder } from '../folder/scratch.js';
import { columnSum, writeStepManifest } from '../folder/step-record.js';
import { localWorker } from '../engine/worker-handle.js';
import { isLegalFinal } from '../border/border.js';
import { beatWhileRunning } from './driver-presence.js';
import { HangWatch } from './hang-watch.js';
import { fleetEnded, type Launcher, type TaskFleet } from './launcher.js';
import { markerRunsProblem } from './commit-check.js';
import { taskMarkerPath } from './task.js';
import { readTaskStatus, taskStatusPath } from './task-status.js';
import { waitFor } from './wait-for-files.js';
import { counted, plural } from '../shared/plural.js';
import { busiestShare } from '../observe/balance.js';
import { formatBytes } from '../shared/units.js';

export interface PartitionedPassOptions {
  readonly width: number;
  readonly columns: number;
  readonly moduli: readonly number[];
  readonly partitions: number;
  /** Workers per task (each owns a share of the states), and the threads of each task's process that serve them. */
  readonly workers: number;
  readonly threads: number;
  /** Bytes of memory per task. */
  readonly memory: number;
  readonly fanIn: number;
  /** Asked for this time (--keep), and what the count folder records if it is new. */
  readonly record: FolderRecord;
  readonly scratchDir: string;
  readonly launcher: Launcher;
  /** Launches of a step's missing tasks after the first. */
  readonly retries: number;
  /** Seconds a task may show no sign of life before it is ended and launched again; undefined: taskTimeout(). */
  readonly taskTimeout?: number;
  readonly onProgress: OnProgress;
  readonly signal?: AbortSignal;
  readonly pass: number;
  readonly passes: number;
  /** Rows per window of the workers' ownership (lib/border/window-key.ts); defaultWindowRows(width, owners) if undefined. */
  readonly windowRows?: number;
}

/** How often the driver reports the states expanded while a step's tasks run, and looks for hung tasks. */
const PROGRESS_POLL_MS = 1000;

/** The least task timeout, seconds; and the seconds a task is allowed per byte of its budget, for a drain of its whole table in one go. */
const LEAST_TASK_TIMEOUT_S = 60;
const TIMEOUT_S_PER_BUDGET_BYTE = 1 / 2 ** 26;

/** Free space on the scratch disk below which a task that ended undone is taken to have filled it. */
const LOW_DISK_BYTES = 64 * 2 ** 20;

/** How long the task processes have to end on their own after the pass's last step, before they are stopped. */
const TASK_END_GRACE_MS = 10_000;

export class PartitionedPass {
  private readonly options: PartitionedPassOptions;
  private readonly scratch: ScratchFolder;
  private readonly layout: CountLayout;
  /** Every step's files stay: asked for now, or recorded in the folder by an earlier count. */
  private keep = false;
  /** The longest step so far, seconds: a task's timeout grows with it. */
  private longestStep = 0;
  /**
   * Why the driver ended a unit's process itself: the note its relaunch gets. Kept from step to
   * step: a process told to end may finish its part of the step first (Slurm's scancel sends
   * SIGCONT before SIGTERM), and its end is then seen, and relaunched, at the next step.
   */
  private readonly endedFor = new Map<number, string>();
  /** Which task processes show no sign of life, made with the fleet. */
  private hangWatch?: HangWatch;
  /** Scratch for reading runs when their markers come: the run sum reads it in place. */
  private readonly checkBuffer = summedBuffer(1 << 20);
  /** Rows per window of the count (lib/border/window-key.ts): the manifests record them. */
  private windowRows = 1;

  constructor(options: PartitionedPassOptions) {
    this.options = options;
    this.scratch = new ScratchFolder(options.scratchDir, { width: options.width, columns: options.columns, moduli: options.moduli });
    this.layout = { workers: options.workers, partitions: options.partitions, partitioned: true };
  }

  async run(): Promise<PassResult> {
    const { onProgress } = this.options;
    const note = (message: string) => onProgress({ type: 'note', message });
    // The driver holds the count's lock; its tasks, which run elsewhere, do not take it.
    const { fresh, lock, keep } = this.scratch.openLocked(this.layout, this.options.record, note);
    this.keep = keep;
    try {
      return await this.runSteps(fresh, note);
    } finally {
      lock.release();
    }
  }

  private async runSteps(fresh: boolean, note: (message: string) => void): Promise<PassResult> {
    const { width, columns, onProgress, signal } = this.options;
    const { keep } = this;
    const steps = width * columns;
    const finished = fresh ? undefined : this.scratch.readResult(note);
    if (finished) {
      note(`pass ${this.options.pass + 1} was finished before; its residues are in ${this.scratch.root}`);
      return { perColumn: finished, reports: [], finishedBefore: true };
    }
    const resumed = fresh ? undefined : findResumePoint(this.scratch, this.layout, note, true);
    if (!fresh && !resumed) this.scratch.recordLayout(this.layout, { ...this.scratch.recorded(), keep }); // starts afresh in the folder
    if (resumed) note(resumeNote(resumed.step, steps, this.scratch.root));
    onProgress({
      type: 'pass-start',
      pass: this.options.pass + 1,
      passes: this.options.passes,
      width,
      steps,
      firstStep: (resumed?.step ?? 0) + 1,
      workers: this.options.partitions * this.options.workers,
    });

    // A resumed count keeps the windows it was counted in.
    const asked = this.options.windowRows;
    this.windowRows = resumed?.window?.rows ?? asked ?? defaultWindowRows(width, this.owners);
    if (asked !== undefined && asked !== this.windowRows)
      note(`the count keeps the windows of ${this.windowRows} rows it began with, not ${asked}`);
    let manifest = resumed ?? (await this.writeFirstStep());
    const perColumn = manifest.columnSums.map((sums) => [...sums]);
    const reports: StepReport[] = [];
    // The task processes start at the first step and serve every step after it; the lock's time
    // tells those on other nodes that the driver is still there.
    let fleet: TaskFleet | undefined;
    const stopBeating = beatWhileRunning(this.scratch.root);
    try {
      for (let step = manifest.step; step < steps; step++) {
        if (signal?.aborted) throw this.stopped(step);
        onProgress({ type: 'step-start', step: step + 1 });
        const started = performance.now();
        fleet ??= this.startTasks();
        const markers = await this.awaitStep(step, fleet);
        const next = this.commitStep(manifest, markers, perColumn);
        fse.removeSync(path.join(this.scratch.stepDir(step), MERGE_FOLDER));
        // A step whose states tasks hold in memory keeps the steps back to the last one wholly in
        // files: a task started again counts its part again from there (task.ts, replay).
        if (!keep && next.held === undefined) for (const old of this.scratch.steps()) if (old <= step) this.scratch.removeStep(old);
        const seconds = (performance.now() - started) / 1000;
        this.longestStep = Math.max(this.longestStep, seconds);
        const report = this.report(manifest, next, markers, seconds);
        onProgress({ type: 'step-end', report });
        reports.push(report);
        manifest = next;
      }
      if (fleet) await fleetEnded(fleet, TASK_END_GRACE_MS);
    } finally {
      stopBeating();
      await fleet?.stop();
    }
    perColumn.push(columnSum(this.options.moduli, steps, this.options, [this.legalSum(manifest)]));
    try {
      this.scratch.writeResult(perColumn);
    } catch (error) {
      throw diskError(error, this.scratch.root);
    }
    if (!keep) for (const step of this.scratch.steps()) this.scratch.removeStep(step);
    return { perColumn, reports };
  }

  /** A stop while step + 1 is under way: every step is on disk, so the same command resumes at it. */
  private stopped(step: number): AbortedError {
    const { width, columns, pass, passes } = this.options;
    return new AbortedError(
      stoppedMessage({ resumeAt: step + 1, steps: width * columns, folder: this.scratch.root, pass: { pass: pass + 1, passes } }),
    );
  }

  private startTasks(): TaskFleet {
    const { launcher, memory, fanIn, threads, partitions, onProgress } = this.options;
    const fleet = launcher.start({
      countDir: this.scratch.root,
      partitions,
      memory,
      fanIn,
      threads,
      logDir: this.logDir(),
      note: (message) => onProgress({ type: 'note', message }),
    });
    this.hangWatch = new HangWatch(fleet.units.map((parts) => taskStatusPath(this.logDir(), parts)));
    return fleet;
  }

  /**
   * Seconds a task may show no sign of life: as asked, else the longest of a minute, 3 × the
   * longest step so far, and 1 s per 64 MiB of its budget (a single-threaded task drains its
   * whole table without a break).
   */
  private taskTimeout(): number {
    const { taskTimeout, memory } = this.options;
    return taskTimeout ?? Math.max(LEAST_TASK_TIMEOUT_S, 3 * this.longestStep, memory * TIMEOUT_S_PER_BUDGET_BYTE);
  }

  /** Free bytes on the scratch disk when that is under LOW_DISK_BYTES, else undefined. */
  private lowDisk(): number | undefined {
    try {
      const { bavail, bsize } = statfsSync(this.scratch.root);
      return bavail * bsize < LOW_DISK_BYTES ? bavail * bsize : undefined;
    } catch {
      return undefined;
    }
  }

  /** Step 0, the all-edge state, as a run for the worker that owns it. */
  private async writeFirstStep(): Promise<StepManifest> {
    const { width, columns, moduli, fanIn, scratchDir } = this.options;
    const { owners, windowRows } = this;
    const plan = planMemory(this.options.memory, moduli.length, fanIn, width, 1, { owners });
    const writer = localWorker({
      width,
      columns,
      moduli,
      plan,
      fanIn,
      scratchDir,
      worker: 0,
      workers: owners,
      partitioned: true,
      windowRows,
    });
    try {
      const runs = await writer.begin(true);
      return writeStepManifest(
        this.scratch,
        this.layout,
        0,
        runs,
        moduliAt(moduli, 0, this.options).map(() => 0),
        [],
        { rows: windowRows, owners: ownersText(dealtOwners(owners)) },
      );
    } finally {
      await writer.close();
    }
  }

  /**
   * Waits for every done-marker of the step after `step`, each taken once the runs it names check
   * out, launching again, up to --retries times, the process of a part whose marker is missing
   * when that process has ended, showed no sign of life for longer than the task timeout, or wrote
   * runs that are damaged or missing. A part out of retries stops the count once the other
   * processes have finished their parts of the step; a process that ended on a full disk stops it
   * at once.
   */
  private async awaitStep(step: number, fleet: TaskFleet): Promise<TaskMarker[]> {
    const { partitions } = this.layout;
    const { retries, onProgress, signal } = this.options;
    const logDir = this.logDir();
    const next = this.scratch.stepDir(step + 1);
    fse.ensureDirSync(next); // watched for the markers
    const markers = new Array<TaskMarker | undefined>(partitions);
    let have = 0;
    const relaunches = fleet.units.map(() => 0);
    const failed = new Set<number>();
    const unitOf = (part: number) => fleet.units.findIndex((parts) => parts.includes(part));
    const { endedFor } = this;
    const end = (unit: number, why: string) => {
      if (endedFor.has(unit)) return;
      endedFor.set(unit, why);
      fleet.kill(unit);
    };
    let fullDisk: number | undefined;
    let reportedAt = performance.now();
    const check = (): 'done' | 'stopped' | 'failed' | 'disk full' | undefined => {
      for (let part = 0; part < partitions; part++) {
        if (markers[part] !== undefined) continue;
        const found = this.checkedMarker(step, part);
        if (typeof found === 'string') end(unitOf(part), found);
        else if (found !== undefined) {
          markers[part] = found;
          have++;
        }
      }
      if (have === partitions) return 'done';
      // Ctrl-C reaches the local tasks too: their step is not retried but left for the resume.
      if (signal?.aborted) return 'stopped';
      for (const unit of fleet.ended()) {
        const missing = fleet.units[unit].filter((part) => markers[part] === undefined);
        if (failed.has(unit) || missing.length === 0) continue; // one whose parts are done is launched at the next step
        if (fleet.endedDiskFull(unit) || (fullDisk = this.lowDisk()) !== undefined) return 'disk full';
        const why = endedFor.get(unit) ?? `${plural(missing.length, 'task')} ${missing.join(', ')} did not finish`;
        endedFor.delete(unit);
        if (relaunches[unit] === retries) {
          failed.add(unit);
          continue;
        }
        relaunches[unit]++;
        onProgress({ type: 'note', message: `step ${step + 1}: ${why}; launching again (retry ${relaunches[unit]} of ${retries})` });
        fleet.relaunch(unit);
        this.hangWatch?.launched(unit);
      }
      if (failed.size > 0 && fleet.units.every((parts, unit) => failed.has(unit) || parts.every((part) => markers[part] !== undefined)))
        return 'failed';
      if (performance.now() - reportedAt >= PROGRESS_POLL_MS) {
        reportedAt = performance.now();
        onProgress({ type: 'advance', states: this.statesSoFar(step, markers, fleet) });
        this.endHung(fleet, markers, end);
      }
      return undefined;
    };
    const outcome = await waitFor(check, { watch: next, signal, wakeOn: (wake) => fleet.onEnd(wake) });
    if (outcome === 'stopped') throw this.stopped(step);
    if (outcome === 'disk full') {
      const free = fullDisk === undefined ? '' : ` (${formatBytes(fullDisk)} free)`;
      throw new GocountError(
        `disk full while writing step ${step + 1} in ${this.scratch.root}${free}; finished steps are kept: free some space and run the same count again to resume`,
        1,
        'GOCOUNT_DISK_FULL',
      );
    }
    if (outcome === 'failed') {
      const missing = [...failed].flatMap((unit) => fleet.units[unit].filter((part) => markers[part] === undefined)).sort((a, b) => a - b);
      throw new GocountError(
        `step ${step + 1}: ${plural(missing.length, 'task')} ${missing.join(', ')} did not finish after ${counted(retries, 'retry', 'retries')}; ` +
          `their output is in ${logDir}, and the same command resumes with the tasks still missing`,
        1,
        'GOCOUNT_TASKS_FAILED',
      );
    }
    return markers as TaskMarker[];
  }

  /** Ends the processes with parts of the step still to do that have shown no sign of life for longer than the timeout. */
  private endHung(fleet: TaskFleet, markers: Array<TaskMarker | undefined>, end: (unit: number, why: string) => void): void {
    const timeout = this.taskTimeout();
    const ended = new Set(fleet.ended());
    fleet.units.forEach((parts, unit) => {
      const missing = parts.filter((part) => markers[part] === undefined);
      if (ended.has(unit) || missing.length === 0) return;
      const silent = this.hangWatch?.silentFor(unit) ?? 0;
      if (silent > timeout) {
        const how = this.options.launcher.name === 'slurm' ? 'cancelled' : 'killed';
        end(unit, `${plural(missing.length, 'task')} ${missing.join(', ')} showed no sign of life for ${Math.round(silent)} s; ${how}`);
      }
    });
  }

  /** States expanded so far in the step: those of the parts done, and those the processes say they are at. */
  private statesSoFar(step: number, markers: Array<TaskMarker | undefined>, fleet: TaskFleet): number {
    let states = markers.reduce((n, marker) => n + (marker?.statesIn ?? 0), 0);
    for (const parts of fleet.units) {
      const status = readTaskStatus(taskStatusPath(this.logDir(), parts));
      if (status?.step === step && status.part !== undefined && markers[status.part] === undefined) states += status.states;
    }
    return states;
  }

  private logDir(): string {
    return path.join(this.scratch.root, 'logs');
  }

  /**
   * Task `part`'s marker for the step after `step` when it is there, whole, and the runs it names
   * are as it records them; undefined while there is none; or why it is not to be taken, once it
   * is removed: the task runs again, and replaces it.
   */
  private checkedMarker(step: number, part: number): TaskMarker | string | undefined {
    const file = taskMarkerPath(this.scratch, step + 1, part);
    if (!fse.pathExistsSync(file)) return undefined;
    let problem: string | undefined;
    try {
      const marker = readTaskMarker(file);
      const { partitions, workers } = this.layout;
      if (marker.step !== step + 1 || marker.part !== part || marker.partitions !== partitions || marker.workers !== workers)
        problem = 'done-marker is of another step or layout';
      else problem = markerRunsProblem(this.scratch.stepDir(step + 1), marker.runs, this.checkBuffer);
      if (problem === undefined) return marker;
    } catch (error) {
      problem = `done-marker is damaged (${error instanceof Error ? error.message : String(error)})`;
    }
    fse.removeSync(file);
    return `task ${part}'s ${problem}`;
  }

  /**
   * Checks the step's markers together, the conservation law first, and writes the manifest of the
   * step after `manifest`'s. A step that fails is removed, to be counted again.
   */
  private commitStep(manifest: StepManifest, markers: TaskMarker[], perColumn: number[][]): StepManifest {
    const step = manifest.step;
    const { moduli, width } = this.options;
    const outModuli = moduliAt(moduli, step + 1, this.options);
    const runs = markers.flatMap((marker) => marker.runs);
    const held = markers.flatMap((marker) => marker.held ?? []);
    const dropped = sumResidueVectors(
      outModuli,
      markers.map((marker) => marker.dropped),
    );
    const out = sumResidueVectors(
      outModuli,
      [...runs, ...held].map((part) => part.sums),
    );
    // A step carries the same moduli as the one before, more, or fewer (growth.ts): the law holds on the shared ones.
    const shared = manifest.moduli.slice(0, outModuli.length);
    const broken = shared.filter((p, r) => (3 * manifest.sums[r]) % p !== (out[r] + dropped[r]) % p);
    const problem = markers.some((marker) => marker.moduli.join() !== outModuli.join())
      ? 'a task wrote residues for other moduli'
      : broken.length > 0
        ? `3 × the mass in ≠ the mass out + the dropped mass, modulo ${broken.join(', ')}`
        : undefined;
    if (problem) {
      this.scratch.removeStep(step + 1);
      throw new GocountError(
        `step ${step + 1}: the tasks' results do not add up (${problem}); the step is removed, and the same command counts it again`,
        1,
      );
    }
    if (step % width === 0 && step > 0)
      perColumn.push(
        columnSum(
          moduli,
          step,
          this.options,
          markers.map((marker) => marker.legal!),
        ),
      );
    return writeStepManifest(this.scratch, this.layout, step + 1, runs, dropped, perColumn, this.nextWindow(manifest, markers), held);
  }

  /** The count's owners: every partition's workers. */
  private get owners(): number {
    return this.layout.partitions * this.layout.workers;
  }

  /**
   * The window the states after `manifest`'s step + 1 are expanded in: at a window's first step its
   * key buckets packed onto the owners by the weights the tasks sampled (dealt out in turn where a
   * task sampled none: one of an earlier version), else the window of `manifest`'s step.
   */
  private nextWindow(manifest: StepManifest, markers: TaskMarker[]): ManifestWindow {
    const { windowRows: rows, owners } = this;
    if (!isWindowStart((manifest.step + 1) % this.options.width, rows) && manifest.window?.rows === rows) return manifest.window;
    const histograms = markers.map((marker) => (marker.histogram === undefined ? undefined : weightsFromText(marker.histogram)));
    const table = histograms.every((h) => h !== undefined)
      ? packedOwners(joinedWeights(histograms as Uint32Array[]), owners)
      : dealtOwners(owners);
    return { rows, owners: ownersText(table) };
  }

  /** The legal states' residues among the final step's states: a sum over every run, merged or not. */
  private legalSum(final: StepManifest): number[] {
    const moduli = Float64Array.from(final.moduli);
    const sums = new Float64Array(moduli.length);
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (const run of final.runs) {
      readWholeRun(path.join(this.scratch.stepDir(final.step), run.file), buffer, (reader) => {
        if (isLegalFinal(reader.hi, reader.lo)) addResidues(sums, reader.residues, 0, 1, moduli);
      });
    }
    return Array.from(sums);
  }

  private report(manifest: StepManifest, next: StepManifest, markers: TaskMarker[], seconds: number): StepReport {
    const figures = {
      step: manifest.step,
      pass: this.options.pass,
      statesIn: markers.reduce((n, marker) => n + marker.statesIn, 0),
      recordsIn: manifest.records,
      runsIn: manifest.runs.length,
      successors: markers.reduce((n, marker) => n + marker.successors, 0),
      runsOut: next.runs.length,
      bytesOut: next.bytes,
      seconds,
      phases: markers.reduce((sum, marker) => addPhaseTimes(sum, marker.phases), noPhaseTimes()),
      probes: 0,
      // Records sent to other workers' sections, and the busiest worker's records read against the mean.
      moved: markers.every((marker) => marker.moved !== undefined) ? markers.reduce((n, marker) => n + marker.moved!, 0) : undefined,
      busiest: busiestShare(markers.flatMap((marker) => marker.workerRecords ?? [marker.statesIn])),
    };
    return stepReport(figures, { ...this.options, workers: this.options.partitions * this.options.workers });
  }
}
