/**
 * The streaming count of one board: choose the moduli, split them into passes, run each pass
 * within the memory budget, and join the residues by the CRT into L(width, k) for every k.
 */

import os from 'node:os';
import path from 'node:path';
import fse from 'fs-extra';
import { GocountError, InvalidOptionError } from '../errors.js';
import type { Sweep } from '../board/shape.js';
import { maxStatesAfter } from '../board/table1.js';
import { joinResidues, Residue } from '../residues/crt.js';
import { moduliFor, splitIntoPasses } from '../residues/moduli.js';
import { formatBytes } from '../units.js';
import { MemoryPlan, planMemory } from './budget.js';
import { PassRunner } from './pass.js';
import { MOST_RESIDUES } from './state-table.js';
import { PartitionedPass } from '../cluster/driver.js';
import { LauncherName, makeLauncher } from '../cluster/launcher.js';
import { ScratchFolder } from './scratch.js';
import { CountLock } from './count-lock.js';
import { StepLogger } from './step-logger.js';
import { countWarnings } from '../count/count-warnings.js';
import type { StepLogEntry } from '../format/step-log.js';
import type { OnProgress, StepReport } from './progress.js';

/** Checked and completed by normalizeCountOptions (count/count-options.ts). */
export interface EngineOptions {
  readonly sweep: Sweep;
  /** Budget for the engine's buffers, bytes. */
  readonly memory: number;
  readonly scratchDir: string;
  /** Refuse to start when the estimated disk use is larger. */
  readonly disk?: number;
  readonly fanIn: number;
  readonly keep: boolean;
  /** Moduli per pass; all in one pass when undefined. */
  readonly residuesPerPass?: number;
  /**
   * 1: count in this thread; N > 1: split the states between N worker threads. Undefined: the number
   * recorded by an earlier run of this count in scratchDir, else defaultWorkers().
   */
  readonly workers?: number;
  /** A partitioned count: P tasks through a launcher (lib/cluster); workers are then per task. */
  readonly partitioned?: { readonly partitions: number; readonly launcher: LauncherName; readonly retries: number };
  readonly onProgress: OnProgress;
  /** Stops the count between two steps. */
  readonly signal?: AbortSignal;
  /** A file that gets every pass's per-step log, rewritten after each step (--stats-json). */
  readonly statsJson?: string;
}

export interface EngineResult {
  readonly legal: bigint;
  /** The final count's residues, one per modulus. */
  readonly residues: Residue[];
  /** L(width, k) for k = 1 … columns. */
  readonly perColumn: bigint[];
  readonly moduli: number[];
  readonly passes: number;
  readonly reports: StepReport[];
  /** The per-step log of the whole count, resumed steps included (format/step-log.ts). */
  readonly log: StepLogEntry[];
}

/** More worker threads than this is a typo, not a plan. */
export const MAX_WORKERS = 256;

/** One worker per core. */
export function defaultWorkers(cores: number = os.availableParallelism()): number {
  return Math.max(1, cores);
}

/** What a count will do, decided before it starts: its moduli and passes, workers and memory plans. */
export interface EngineSetup {
  readonly moduli: number[];
  /** The moduli of each pass. */
  readonly passes: number[][];
  readonly workers: number;
  /** The memory plan of each worker, per pass. */
  readonly plans: MemoryPlan[];
  /** The disk the count may need at its peak, and after which step (points placed) that peak comes. */
  readonly disk: DiskEstimate;
}

export function setUpEngine(options: Omit<EngineOptions, 'onProgress'>): EngineSetup {
  const { sweep, fanIn } = options;
  const moduli = moduliFor(sweep.width * sweep.columns);
  const passes = splitIntoPasses(moduli, options.residuesPerPass ?? Math.min(moduli.length, MOST_RESIDUES));
  const recorded = new ScratchFolder(options.scratchDir, {
    width: sweep.width,
    columns: sweep.columns,
    moduli: passes[0],
  }).recordedLayout().workers;
  const { partitioned } = options;
  // A partition task's workers share its cores with the other tasks of a machine: one each by default.
  const workers = options.workers ?? (recorded !== undefined && recorded <= MAX_WORKERS ? recorded : partitioned ? 1 : defaultWorkers());
  const owners = partitioned ? { owners: partitioned.partitions * workers } : undefined;
  const plans = passes.map((passModuli) => planMemory(options.memory, passModuli.length, fanIn, sweep.width, workers, owners));
  const inMemory = partitioned ? 0 : workers * plans[0].memoryRunCapacity;
  const disk = estimateDisk(sweep, Math.max(...passes.map((p) => p.length)), inMemory, options.keep);
  return { moduli, passes, workers, plans, disk };
}

export async function countWithEngine(options: EngineOptions): Promise<EngineResult> {
  const { sweep, fanIn, partitioned } = options;
  const setup = setUpEngine(options);
  const { moduli, passes, workers, plans, disk } = setup;
  if (options.disk !== undefined && disk.bytes > options.disk) {
    throw new InvalidOptionError('disk', formatBytes(options.disk), `less than the ${formatBytes(disk.bytes)} of disk this count may need`);
  }
  for (const message of countWarnings(options, setup)) options.onProgress({ type: 'note', message });

  const createdFolders = missingFolders(options.scratchDir);
  const folders = passes.map(
    (passModuli) => new ScratchFolder(options.scratchDir, { width: sweep.width, columns: sweep.columns, moduli: passModuli }),
  );
  const log = new StepLogger(folders, workers * (partitioned?.partitions ?? 1), options.statsJson);
  log.copy(); // an unwritable file is refused before any work, and a resumed count's earlier steps are in it from the start
  const onProgress: OnProgress = (event) => {
    if (event.type === 'step-end') log.stepEnded(event.report);
    options.onProgress(event);
  };
  const perColumnResidues: number[][] = Array.from({ length: sweep.columns }, () => []);
  const reports: StepReport[] = [];
  for (let pass = 0; pass < passes.length; pass++) {
    const common = {
      width: sweep.width,
      columns: sweep.columns,
      moduli: passes[pass],
      fanIn,
      keep: options.keep,
      scratchDir: options.scratchDir,
      workers,
      onProgress,
      signal: options.signal,
      pass,
      passes: passes.length,
    };
    const runner = partitioned
      ? new PartitionedPass({ ...common, ...partitioned, launcher: makeLauncher(partitioned.launcher), memory: options.memory })
      : new PassRunner({ ...common, plan: plans[pass] });
    const result = await runner.run();
    log.passDone(pass, result.perColumn[sweep.columns - 1]);
    result.perColumn.forEach((residues, k) => perColumnResidues[k].push(...residues));
    reports.push(...result.reports);
  }
  options.onProgress({ type: 'done' });
  const entries = log.entries();
  log.copy(); // a count that was finished before it was run again logged no step this time
  if (!options.keep) {
    for (const folder of folders) removeFinished(folder, (message) => options.onProgress({ type: 'note', message }));
    removeIfEmpty(createdFolders);
  }

  const perColumn = perColumnResidues.map((residues) => joinResidues(residues.map((residue, r) => ({ modulus: moduli[r], residue }))));
  const residues = perColumnResidues[sweep.columns - 1].map((residue, r) => ({ modulus: moduli[r], residue }));
  return { legal: perColumn[sweep.columns - 1], residues, perColumn, moduli, passes: passes.length, reports, log: entries };
}

/**
 * Removes a finished pass's folder under its lock again: between the pass's end and this removal
 * another count may have taken the folder, and its files are then left alone.
 */
function removeFinished(folder: ScratchFolder, note: (message: string) => void): void {
  if (!fse.pathExistsSync(folder.root)) return;
  try {
    CountLock.take(folder.root, note);
  } catch (error) {
    if (error instanceof GocountError && error.code === 'GOCOUNT_SCRATCH_LOCKED') return;
    throw error;
  }
  folder.removeAll(); // the lock with it
}

/** The scratch folder and those of its parents that are not there yet: the count will create them. */
function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let at = dir; !fse.pathExistsSync(at) && path.dirname(at) !== at; at = path.dirname(at)) missing.push(at);
  return missing;
}

/** A count leaves no empty folder of its own making behind: the deepest first, up to the first that is not empty. */
function removeIfEmpty(folders: readonly string[]): void {
  try {
    for (const folder of folders) fse.rmdirSync(folder);
  } catch {
    // not empty, or gone: leave it and those above it
  }
}

export interface DiskEstimate {
  readonly bytes: number;
  /** The step (points placed) at whose end the peak comes. */
  readonly peakStep: number;
}

/**
 * Disk the count may need at its peak: a step that does not fit in memory is written once as runs
 * (up to 1.5 records a state, 3 + 4K bytes a record), merged once more when there are more runs
 * than --fan-in, while the next step is written. With --keep every step stays.
 */
export function estimateDisk(sweep: Sweep, residueCount: number, inMemory: number, keep: boolean): DiskEstimate {
  const recordBytes = 3 + 4 * residueCount;
  let peak = 0;
  let peakStep = 0;
  let kept = 0;
  let previous = 0;
  for (let step = 0; step <= sweep.width * sweep.columns; step++) {
    const states = maxStatesAfter(sweep.width, step);
    const bytes = keep || states > inMemory ? states * 1.5 * recordBytes : 0;
    kept += bytes;
    if (2 * previous + bytes > peak) {
      peak = 2 * previous + bytes;
      peakStep = step;
    }
    previous = bytes;
  }
  return { bytes: keep ? kept + peak : peak, peakStep: keep ? sweep.width * sweep.columns : peakStep };
}
