/**
 * The types of a count through the engine, in a module of their own: with-engine.ts decides and
 * runs the count, and the warnings (warnings.ts), which with-engine.ts imports, read the same
 * options and setup.
 */

import type { Sweep } from '../board/shape.js';
import type { LauncherName } from '../cluster/launcher.js';
import type { MemoryPlan } from '../engine/budget.js';
import type { OnProgress } from '../observe/progress.js';

/** Checked and completed by normalizeCountOptions (count/options.ts). */
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
  /** Rows per window of the worker threads' ownership; undefined: defaultWindowRows. */
  readonly windowRows?: number;
  /** A partitioned count: P tasks through a launcher (lib/cluster); workers are then per task, served by its threads. */
  readonly partitioned?: {
    readonly partitions: number;
    readonly launcher: LauncherName;
    readonly retries: number;
    readonly threads?: number;
    /** Seconds; undefined: derived (cluster/driver.ts). */
    readonly taskTimeout?: number;
  };
  readonly onProgress: OnProgress;
  /** Stops the count between two steps. */
  readonly signal?: AbortSignal;
  /** A file that gets every pass's per-step log, rewritten after each step (--stats-json). */
  readonly statsJson?: string;
  /** The most bytes of records in one WebAssembly memory of a state table. Default: MAX_SHARD_BYTES. */
  readonly tableMemory?: number;
}

/** What a count will do, decided before it starts: its moduli and passes, workers and memory plans. */
export interface EngineSetup {
  readonly moduli: number[];
  /** The moduli of each pass. */
  readonly passes: number[][];
  readonly workers: number;
  /** In a partitioned count, the threads of each task, which serve its workers. */
  readonly threads?: number;
  /** The memory plan of each worker (of each thread, in a partitioned count), per pass. */
  readonly plans: MemoryPlan[];
  /** The disk the count may need at its peak, and after which step (points placed) that peak comes. */
  readonly disk: DiskEstimate;
}

export interface DiskEstimate {
  readonly bytes: number;
  /** The step (points placed) at whose end the peak comes. */
  readonly peakStep: number;
}
