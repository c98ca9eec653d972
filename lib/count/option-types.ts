/**
 * What a caller gives a count (countLegal, planCount, the command), in a module of its own: options.ts,
 * which checks it, and option-names.ts, which lists its names, both import it.
 */

import type { LauncherName } from '../cluster/launcher.js';
import type { OnProgress } from '../observe/progress.js';

export interface CountOptions {
  /** The board: m rows (the sweep's width unless it is the wider side) by n columns. */
  readonly m: number;
  readonly n: number;
  /**
   * Bytes (a number or a bigint), or a size such as "512M", "4G" or "50%" (of the memory available
   * to the process: see shared/available-memory.ts). Default: half the free memory, at least 256 MiB.
   */
  readonly memory?: number | bigint | string;
  /** Folder for run files; a count in it resumes. Default: "scratch", from the working directory. */
  readonly scratch?: string;
  /** Refuse to start when the count may need more disk than this (bytes or a size). */
  readonly disk?: number | bigint | string;
  /**
   * Worker threads, 1 to MAX_WORKERS. Default: the number a resumed count recorded, else one per
   * core. In a partitioned count, the workers of each task (the count's P · W workers, at most
   * MAX_PARTITIONED_WORKERS, each own a share of the states), which its `threads` serve.
   */
  readonly workers?: number;
  /**
   * With several workers (threads, or a partitioned count's partitions × workers): rows per window
   * of their ownership, 1 to one less than the sweep's width; a worker keeps what it makes for a
   * window of that many steps, and states change worker once a window (docs/design.md, "Workers").
   * Default: defaultWindowRows(width, workers). A partitioned count resumed keeps the rows it began with.
   */
  readonly windowRows?: number;
  /** Moduli per pass. Default: all in one pass. */
  readonly residuesPerPass?: number;
  /** The most run files one merge opens. Default: DEFAULT_FAN_IN. */
  readonly fanIn?: number;
  /** Keep every step's run files and manifests. */
  readonly keep?: boolean;
  /** Sweep the board m points wide as given, instead of along its narrower side. */
  readonly keepOrientation?: boolean;
  /** Also return L(width, k) for every column prefix k. */
  readonly allColumns?: boolean;
  /**
   * Split the count into this many partition tasks (1 to MAX_PARTITIONS), run through `launcher`;
   * `workers` is then the workers of each task (default: with the local launcher, as many as fill
   * the cores between the tasks, cores / partitions; a Slurm task, 1), and `memory` each task's budget.
   */
  readonly partitions?: number;
  /**
   * With `partitions`: the threads of each task's process, 1 to its workers (at most MAX_WORKERS),
   * each serving some of them in turn. Default: the workers, at most one per core.
   */
  readonly threads?: number;
  /** How partition tasks run: "local" (child processes, the default) or "slurm" (job arrays). */
  readonly launcher?: LauncherName;
  /**
   * Seconds a partition task may show no sign of life (its status file unchanged) before the driver
   * ends it and launches it again. Default: derived from the step's time and the task's memory
   * (docs/cluster.md).
   */
  readonly taskTimeout?: number;
  /** Launches of a step's unfinished tasks after the first. Default: DEFAULT_RETRIES. */
  readonly retries?: number;
  /** Stops the count between two steps; it resumes from the scratch folder. */
  readonly signal?: AbortSignal;
  readonly onProgress?: OnProgress;
  /** Also write the per-step log of every pass to this file, rewritten after each step (format/step-log.ts). */
  readonly statsJson?: string;
  /**
   * The most bytes of records one WebAssembly memory of a worker's state table holds (bytes or a
   * size such as "64K"); a larger table spans several memories (engine/state-table.ts). Default and
   * most MAX_SHARD_BYTES (3.5 GiB), least MIN_SHARD_BYTES (64 KiB). Not for a partitioned count.
   */
  readonly tableMemory?: number | bigint | string;
}
