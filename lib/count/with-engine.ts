/**
 * The streaming count of one board: choose the moduli, split them into passes, run each pass
 * within the memory budget, by the engine in this process (lib/engine) or partitioned over task
 * processes (lib/cluster), and join the residues by the CRT into L(width, k) for every k.
 */

import os from 'node:os';
import path from 'node:path';
import fse from 'fs-extra';
import { GocountError, InvalidOptionError } from '../shared/errors.js';
import type { Sweep } from '../board/shape.js';
import { largestStates, maxStatesAfter } from '../board/table1.js';
import { joinResidues, Residue } from '../residues/crt.js';
import { moduliFor, splitIntoPasses } from '../residues/moduli.js';
import { formatBytes } from '../shared/units.js';
import { statesInMemory } from '../engine/budget.js';
import { passPlan } from '../engine/pass-plan.js';
import { residuesAt } from '../residues/growth.js';
import { PassRunner } from '../engine/pass.js';
import { MOST_RESIDUES } from '../engine/state-table.js';
import type { PartitionedPass } from '../cluster/driver.js';
import { MAX_PARTITIONED_WORKERS } from '../cluster/limits.js';
import { defaultThreads } from '../cluster/task-layout.js';
import { defaultWorkers, MAX_WORKERS } from './defaults.js';
import type { Launcher, LauncherName } from '../cluster/launcher.js';
import { ScratchFolder } from '../folder/scratch.js';
import { CountLock } from '../folder/lock.js';
import { StepLogger } from '../observe/step-logger.js';
import { countWarnings } from './warnings.js';
import type { DiskEstimate, EngineOptions, EngineSetup } from './engine-types.js';
import type { StepLogEntry } from '../format/step-log.js';
import type { OnProgress, StepReport } from '../observe/progress.js';

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

/**
 * States a worker should have to itself in the largest step: each worker costs a thread, a V8
 * isolate and its share of every step's hand-offs, which a board with fewer states never repays.
 */
export const MIN_STATES_PER_WORKER = 1 << 14;

/**
 * The workers a sweep can use: one per MIN_STATES_PER_WORKER states of its largest step, by
 * Table 1's bound. GOCOUNT_FORCE_WORKERS=1 in the environment starts every worker a count names
 * (`named`), so that the tests run the multi-worker paths on small boards, while a count that names
 * none still gets what its board can use: the tests' counts do not depend on the machine's cores.
 */
export function usableWorkers(sweep: Sweep, named = false): number {
  if (named && process.env.GOCOUNT_FORCE_WORKERS === '1') return MAX_WORKERS;
  return Math.max(1, Math.ceil(largestStates(sweep) / MIN_STATES_PER_WORKER));
}

/**
 * A partition task's workers when none are asked for. The local launcher runs the tasks side by side
 * on this machine, so they share its cores: as many each as fill them. A Slurm task runs on cores
 * of its own, one worker each, the tasks filling the cluster's cores.
 */
function taskWorkers(partitioned: NonNullable<EngineOptions['partitioned']>, cores: number): number {
  if (partitioned.launcher !== 'local') return 1;
  return Math.max(1, Math.min(MAX_PARTITIONED_WORKERS, Math.floor(cores / partitioned.partitions)));
}

/** The count folder of the first pass: where an earlier run of this count recorded its layout. */
export function firstPassFolder(sweep: Sweep, scratchDir: string, residuesPerPass?: number): ScratchFolder {
  const moduli = moduliFor(sweep.width * sweep.columns);
  const first = splitIntoPasses(moduli, residuesPerPass ?? Math.min(moduli.length, MOST_RESIDUES))[0];
  return new ScratchFolder(scratchDir, { width: sweep.width, columns: sweep.columns, moduli: first });
}

/**
 * The setup of a count on a machine of `cores` cores (default: this one's; --plan --cores plans for
 * another): one worker per core, and in a partitioned count run by the local launcher as many per
 * task as fill the cores between the tasks.
 */
export function setUpEngine(options: Omit<EngineOptions, 'onProgress'>, cores: number = os.availableParallelism()): EngineSetup {
  const { sweep, fanIn, partitioned } = options;
  const moduli = moduliFor(sweep.width * sweep.columns);
  const passes = splitIntoPasses(moduli, options.residuesPerPass ?? Math.min(moduli.length, MOST_RESIDUES));
  const folder = new ScratchFolder(options.scratchDir, { width: sweep.width, columns: sweep.columns, moduli: passes[0] });
  const recorded = folder.recordedLayout().workers;
  const most = partitioned ? MAX_PARTITIONED_WORKERS : MAX_WORKERS;
  const asked =
    options.workers ??
    (recorded !== undefined && recorded <= most ? recorded : partitioned ? taskWorkers(partitioned, cores) : defaultWorkers(cores));
  // A resumed count keeps the workers it recorded; a new one starts only those its board can use.
  const workers = partitioned || asked === recorded ? asked : Math.min(asked, usableWorkers(sweep, options.workers !== undefined));
  const threads = partitioned ? Math.min(partitioned.threads ?? defaultThreads(workers, cores), workers) : undefined;
  const owners = partitioned ? { owners: partitioned.partitions * workers, served: Math.ceil(workers / threads!) } : undefined;
  const plans = passes.map((passModuli) =>
    passPlan({
      memory: options.memory,
      width: sweep.width,
      columns: sweep.columns,
      moduli: passModuli,
      fanIn,
      threads: threads ?? workers,
      holders: partitioned ? partitioned.partitions * threads! : workers,
      owners,
      shardBytes: options.tableMemory,
    }),
  );
  const inMemory = (step: number) => (partitioned ? 0 : workers * statesInMemory(plans[0], residuesAt(passes[0], step, sweep)));
  const keep = options.keep || folder.recorded().keep;
  const disk = estimateDisk(sweep, Math.max(...passes.map((p) => p.length)), inMemory, keep, partitioned ? 1 : workers);
  return { moduli, passes, workers, threads, plans, disk };
}

export async function countWithEngine(options: EngineOptions): Promise<EngineResult> {
  const { sweep, fanIn, partitioned } = options;
  const setup = setUpEngine(options);
  const { moduli, passes, workers, threads, plans, disk } = setup;
  if (options.disk !== undefined && disk.bytes > options.disk) {
    throw new InvalidOptionError('disk', formatBytes(options.disk), `less than the ${formatBytes(disk.bytes)} of disk this count may need`);
  }
  const note = (message: string) => options.onProgress({ type: 'note', message });
  countWarnings(options, setup).forEach(note);

  // The folders this count creates above its own go with it, when empty, whichever run finishes it.
  const made = missingFolders(options.scratchDir);
  const record = { keep: options.keep, madeAbove: made.length };
  const folders = passes.map(
    (passModuli) => new ScratchFolder(options.scratchDir, { width: sweep.width, columns: sweep.columns, moduli: passModuli }),
  );
  const log = new StepLogger(folders, options.statsJson, note);
  log.start();
  const onProgress: OnProgress = (event) => {
    if (event.type === 'step-end') log.stepEnded(event.report);
    options.onProgress(event);
  };
  const perColumnResidues: number[][] = Array.from({ length: sweep.columns }, () => []);
  const reports: StepReport[] = [];
  try {
    for (let pass = 0; pass < passes.length; pass++) {
      const common = {
        width: sweep.width,
        columns: sweep.columns,
        moduli: passes[pass],
        fanIn,
        record,
        scratchDir: options.scratchDir,
        workers,
        onProgress,
        signal: options.signal,
        pass,
        passes: passes.length,
      };
      const runner = partitioned
        ? await partitionedPass({
            ...common,
            ...partitioned,
            threads: threads!,
            launcher: await makeLauncher(partitioned.launcher),
            memory: options.memory,
            windowRows: options.windowRows,
          })
        : new PassRunner({ ...common, plan: plans[pass], windowRows: options.windowRows });
      const result = await runner.run();
      if (!result.finishedBefore) log.passDone(pass, result.perColumn[sweep.columns - 1]);
      result.perColumn.forEach((residues, k) => perColumnResidues[k].push(...residues));
      reports.push(...result.reports);
    }
  } catch (error) {
    // What a run again could not resume from goes, with the folders made for it.
    for (const folder of folders) removeUnfinished(folder, partitioned !== undefined, note);
    removeIfEmpty(made);
    throw error;
  }
  options.onProgress({ type: 'done' });
  const entries = log.entries();
  log.copy(); // a count that was finished before it was run again logged no step this time
  const madeAbove = Math.max(made.length, ...folders.map((folder) => folder.recorded().madeAbove));
  const kept = folders.filter((folder) => fse.pathExistsSync(folder.root) && folder.recorded().keep);
  if (kept.length > 0 && !options.keep)
    note(`the count's files stay in ${kept.map((folder) => folder.root).join(', ')}: it was counted with --keep`);
  for (const folder of folders) if (!kept.includes(folder)) removeFinished(folder, note);
  removeIfEmpty(foldersAbove(options.scratchDir, madeAbove));

  const perColumn = perColumnResidues.map((residues) => joinResidues(residues.map((residue, r) => ({ modulus: moduli[r], residue }))));
  const residues = perColumnResidues[sweep.columns - 1].map((residue, r) => ({ modulus: moduli[r], residue }));
  return { legal: perColumn[sweep.columns - 1], residues, perColumn, moduli, passes: passes.length, reports, log: entries };
}

// The cluster's driver and launchers load only for a partitioned count: a count of one process starts without them.

/** A partitioned count's pass (lib/cluster/driver.ts). */
async function partitionedPass(options: ConstructorParameters<typeof PartitionedPass>[0]): Promise<PartitionedPass> {
  const { PartitionedPass } = await import('../cluster/driver.js');
  return new PartitionedPass(options);
}

/** The launcher of a partitioned count's task processes (lib/cluster/launcher.ts). */
async function makeLauncher(name: LauncherName): Promise<Launcher> {
  return name === 'slurm'
    ? (await import('../cluster/slurm-launcher.js')).slurmLauncher()
    : (await import('../cluster/local-launcher.js')).localLauncher();
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

/**
 * After a failure: removes the folder of this count when it holds nothing a run again would resume
 * from (no complete step, no finished pass), such as the count.json of a count stopped before its
 * first step on disk. A folder of another count, a locked one, or one that holds work stays.
 */
function removeUnfinished(folder: ScratchFolder, partitioned: boolean, note: (message: string) => void): void {
  try {
    if (!fse.pathExistsSync(folder.root) || folder.identityProblem(partitioned) !== undefined) return;
    const lock = CountLock.take(folder.root, note);
    if (folder.holdsWork()) lock.release();
    else folder.removeAll(); // the lock with it
  } catch {
    // locked by another count, or unusable: the error that brought us here is the one to report
  }
}

/** The scratch folder and those of its parents that are not there yet: the count will create them. */
function missingFolders(dir: string): string[] {
  const missing: string[] = [];
  for (let at = dir; !fse.pathExistsSync(at) && path.dirname(at) !== at; at = path.dirname(at)) missing.push(at);
  return missing;
}

/** The scratch folder and the `levels` − 1 folders above it, deepest first. */
function foldersAbove(dir: string, levels: number): string[] {
  const folders: string[] = [];
  for (let at = dir; folders.length < levels && path.dirname(at) !== at; at = path.dirname(at)) folders.push(at);
  return folders;
}

/** A count leaves no empty folder of its own making behind: the deepest first, up to the first that is not empty. */
function removeIfEmpty(folders: readonly string[]): void {
  try {
    for (const folder of folders) fse.rmdirSync(folder);
  } catch {
    // not empty, or gone: leave it and those above it
  }
}

/**
 * Disk the count may need at its peak: a step that does not fit in memory is written once as runs
 * (up to 1.5 records a state, 3 + 4K bytes a record), merged once more when there are more runs
 * than --fan-in, while the next step is written; among `workers` threads all but the slowest may
 * write their share of the step after that, one step ahead (lib/engine/pass.ts). With --keep every
 * step stays.
 */
export function estimateDisk(
  sweep: Sweep,
  residueCount: number,
  inMemory: (step: number) => number,
  keep: boolean,
  workers = 1,
): DiskEstimate {
  const recordBytes = 3 + 4 * residueCount;
  const steps = sweep.width * sweep.columns;
  const bytesAfter = (step: number) => {
    const states = step > steps ? 0 : maxStatesAfter(sweep.width, step);
    return keep || states > inMemory(step) ? states * 1.5 * recordBytes : 0;
  };
  const ahead = 1 - 1 / workers;
  let peak = 0;
  let peakStep = 0;
  let kept = 0;
  let previous = 0;
  for (let step = 0; step <= steps; step++) {
    const bytes = bytesAfter(step);
    kept += bytes;
    const held = 2 * previous + bytes + ahead * bytesAfter(step + 1);
    if (held > peak) {
      peak = held;
      peakStep = step;
    }
    previous = bytes;
  }
  return { bytes: keep ? kept + peak : peak, peakStep: keep ? sweep.width * sweep.columns : peakStep };
}
