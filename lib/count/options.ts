/**
 * The options of a count, checked and completed in one place: the library's countLegal and the
 * command both call normalizeCountOptions, so a default or a limit is defined once. Errors name the
 * library's option (InvalidOptionError.option); the command maps that name to its flag.
 */

import os from 'node:os';
import path from 'node:path';
import { InvalidOptionError } from '../shared/errors.js';
import { callbackOption, checkOptionNames, shown, signalOption, switchOption } from '../shared/arguments.js';
import { COUNT_OPTION_NAMES } from './option-names.js';
import type { CountOptions } from './option-types.js';
import { Board, boardOf, Sweep, sweepOf } from '../board/shape.js';
import { defaultMemoryBudget } from '../engine/budget.js';
import { availableMemory } from '../shared/available-memory.js';
import { firstPassFolder } from './with-engine.js';
import { DEFAULT_FAN_IN, DEFAULT_RETRIES, DEFAULT_SCRATCH, MAX_WORKERS } from './defaults.js';
import type { CountLayout } from '../folder/scratch.js';
import { MOST_RESIDUES } from '../engine/state-table.js';
import { MAX_SHARD_BYTES, MIN_SHARD_BYTES } from '../engine/table-limits.js';
import { LAUNCHERS, type LauncherName } from '../cluster/launcher.js';
import { MAX_PARTITIONED_WORKERS, MAX_PARTITIONS } from '../cluster/limits.js';
import { ignoreProgress, type OnProgress } from '../observe/progress.js';
import { formatBytes, sizeOption } from '../shared/units.js';
import { writableFile } from '../format/writable-file.js';

export interface NormalizedCountOptions {
  readonly board: Board;
  readonly sweep: Sweep;
  readonly memory: number;
  readonly scratchDir: string;
  readonly disk?: number;
  /** Undefined: the number a resumed count recorded, else one per core (count/with-engine.ts). */
  readonly workers?: number;
  /** Rows per window of the worker threads' ownership; undefined: defaultWindowRows. */
  readonly windowRows?: number;
  readonly residuesPerPass?: number;
  readonly fanIn: number;
  readonly keep: boolean;
  readonly allColumns: boolean;
  /** Set for a partitioned count (lib/cluster). */
  readonly partitioned?: PartitionOptions;
  readonly signal?: AbortSignal;
  readonly onProgress: OnProgress;
  readonly statsJson?: string;
  readonly tableMemory: number;
}

/** A partitioned count's own options, checked; threads undefined: the default for its workers (cluster/task.ts). */
export interface PartitionOptions {
  readonly partitions: number;
  readonly launcher: LauncherName;
  readonly retries: number;
  readonly threads?: number;
  /** Seconds; undefined: derived (driver.ts). */
  readonly taskTimeout?: number;
}

export function normalizeCountOptions(options: CountOptions): NormalizedCountOptions {
  checkOptionNames('a count', options, COUNT_OPTION_NAMES);
  const board = boardOf(options.m, options.n);
  const fanIn = options.fanIn ?? DEFAULT_FAN_IN;
  if (!Number.isInteger(fanIn) || fanIn < 2) throw new InvalidOptionError('fanIn', shown(fanIn), 'must be an integer of at least 2');
  const { workers, residuesPerPass } = options;
  // A partitioned count's workers are owners of states, served by its threads: more of them are allowed (partitionOptions).
  const mostWorkers = options.partitions !== undefined ? MAX_PARTITIONED_WORKERS : MAX_WORKERS;
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= mostWorkers)) {
    throw new InvalidOptionError('workers', shown(workers), `must be an integer from 1 to ${mostWorkers}`);
  }
  if (residuesPerPass !== undefined && !(Number.isInteger(residuesPerPass) && residuesPerPass >= 1 && residuesPerPass <= MOST_RESIDUES)) {
    throw new InvalidOptionError('residuesPerPass', shown(residuesPerPass), `must be an integer from 1 to ${MOST_RESIDUES}`);
  }
  const sweep = sweepOf(board, switchOption('keepOrientation', options.keepOrientation) ?? false);
  const { windowRows } = options;
  // A window of every row would leave no field to tell the keys apart: one worker would hold every state.
  const mostRows = Math.max(1, sweep.width - 1);
  if (windowRows !== undefined && !(Number.isInteger(windowRows) && windowRows >= 1 && windowRows <= mostRows))
    throw new InvalidOptionError(
      'windowRows',
      shown(windowRows),
      `must be an integer from 1 to ${mostRows}, one less than the sweep's width`,
    );
  const scratchDir = scratchOption(options.scratch);
  const partitioned = partitionOptions(options, firstPassFolder(sweep, scratchDir, residuesPerPass).recordedLayout());
  return {
    board,
    sweep,
    memory: options.memory === undefined ? defaultMemory(partitioned) : sizeOption('memory', options.memory, availableMemory().bytes),
    scratchDir,
    disk: options.disk === undefined ? undefined : sizeOption('disk', options.disk),
    workers,
    windowRows,
    residuesPerPass,
    fanIn,
    keep: switchOption('keep', options.keep) ?? false,
    allColumns: switchOption('allColumns', options.allColumns) ?? false,
    partitioned,
    signal: signalOption(options.signal),
    onProgress: callbackOption('onProgress', options.onProgress) ?? ignoreProgress,
    statsJson: options.statsJson === undefined ? undefined : writableFile('statsJson', options.statsJson),
    tableMemory: tableMemoryOption(options.tableMemory, partitioned),
  };
}

/** The bytes of records per memory of a state table: checked, or the default. */
function tableMemoryOption(value: CountOptions['tableMemory'], partitioned: PartitionOptions | undefined): number {
  if (value === undefined) return MAX_SHARD_BYTES;
  const bytes = sizeOption('tableMemory', value);
  if (partitioned) throw new InvalidOptionError('tableMemory', value, 'not for a count split into partitions: its tasks take the default');
  if (bytes < MIN_SHARD_BYTES || bytes > MAX_SHARD_BYTES)
    throw new InvalidOptionError('tableMemory', value, `must be from ${formatBytes(MIN_SHARD_BYTES)} to ${formatBytes(MAX_SHARD_BYTES)}`);
  return bytes;
}

/**
 * `recorded`: the layout of the count being resumed, whose partitions a count without `partitions`
 * takes, as it takes its workers, when it was partitioned.
 */
function partitionOptions(options: CountOptions, recorded: Partial<CountLayout>): PartitionOptions | undefined {
  const { launcher, retries, threads, taskTimeout } = options;
  // What each is, before whether it applies: a wrong type is named as one.
  if (launcher !== undefined && !(LAUNCHERS as readonly unknown[]).includes(launcher))
    throw new InvalidOptionError('launcher', shown(launcher), `must be ${LAUNCHERS.join(' or ')}`);
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0))
    throw new InvalidOptionError('retries', shown(retries), 'must be a whole number');
  if (threads !== undefined && typeof threads !== 'number') throw new InvalidOptionError('threads', shown(threads), 'not a number');
  if (taskTimeout !== undefined && !(typeof taskTimeout === 'number' && Number.isFinite(taskTimeout) && taskTimeout > 0))
    throw new InvalidOptionError('taskTimeout', shown(taskTimeout), 'must be a number of seconds above 0');
  const resumed = recorded.partitioned || (recorded.partitions ?? 1) > 1 ? recorded.partitions : undefined;
  const partitions = options.partitions ?? (resumed !== undefined && resumed <= MAX_PARTITIONS ? resumed : undefined);
  if (partitions === undefined) {
    if (launcher !== undefined) throw new InvalidOptionError('launcher', launcher, 'only for a count split into partitions');
    if (retries !== undefined) throw new InvalidOptionError('retries', retries, 'only for a count split into partitions');
    if (threads !== undefined) throw new InvalidOptionError('threads', threads, 'only for a count split into partitions');
    if (taskTimeout !== undefined) throw new InvalidOptionError('taskTimeout', taskTimeout, 'only for a count split into partitions');
    if (options.workers !== undefined && options.workers > MAX_WORKERS)
      throw new InvalidOptionError('workers', options.workers, `must be an integer from 1 to ${MAX_WORKERS}`);
    return undefined;
  }
  if (!(Number.isInteger(partitions) && partitions >= 1 && partitions <= MAX_PARTITIONS))
    throw new InvalidOptionError('partitions', shown(partitions), `must be an integer from 1 to ${MAX_PARTITIONS}`);
  const owners = partitions * (options.workers ?? 1);
  if (owners > MAX_PARTITIONED_WORKERS)
    throw new InvalidOptionError(
      'workers',
      options.workers,
      `times ${partitions} partitions is over ${MAX_PARTITIONED_WORKERS} workers in all`,
    );
  const mostThreads = Math.min(options.workers ?? recorded.workers ?? 1, MAX_WORKERS);
  if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= mostThreads))
    throw new InvalidOptionError('threads', threads, `must be an integer from 1 to ${mostThreads}, the workers of each task`);
  return { partitions, launcher: launcher ?? 'local', retries: retries ?? DEFAULT_RETRIES, threads, taskTimeout };
}

/**
 * Half the free memory, at least 256 MiB; shared by the tasks a local launcher runs at once. A
 * cluster's tasks run elsewhere: there the default is that of one machine like this one.
 */
function defaultMemory(partitioned: PartitionOptions | undefined): number {
  const budget = defaultMemoryBudget(os.freemem());
  if (!partitioned || partitioned.launcher !== 'local') return budget;
  return Math.max(MIN_DEFAULT_TASK_MEMORY, Math.floor(budget / Math.min(partitioned.partitions, os.availableParallelism())));
}

const MIN_DEFAULT_TASK_MEMORY = 64 * 2 ** 20;

/** The scratch folder, resolved: `scratch` or the default. */
export function scratchOption(scratch: string | undefined): string {
  if (scratch !== undefined && (typeof scratch !== 'string' || scratch.trim() === ''))
    throw new InvalidOptionError('scratch', `"${String(scratch)}"`, 'not a folder name');
  return path.resolve(scratch ?? DEFAULT_SCRATCH);
}
