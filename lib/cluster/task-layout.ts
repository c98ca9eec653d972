/**
 * How a partitioned count's parts and workers map onto task processes and their threads: rules
 * that the driver, the tasks and --plan share, in a module of their own, so that a count in one
 * process plans without loading the cluster's driver.
 */

import os from 'node:os';
import { STRING_KEYS_FROM } from '../border/window-key.js';

/** A task's threads when none are asked for: one per worker of its part, at most one per core. */
export function defaultThreads(workers: number, cores = os.availableParallelism()): number {
  return Math.max(1, Math.min(workers, cores));
}

/** The parts of each process: `slots` processes at most, parts dealt out in turn. */
export function unitsOf(partitions: number, slots: number): number[][] {
  const count = Math.max(1, Math.min(partitions, slots));
  return Array.from({ length: count }, (_, k) =>
    Array.from({ length: partitions }, (_, part) => part).filter((part) => part % count === k),
  );
}

/**
 * Whether a task of `layout` on `threads` threads can keep a window's steps in memory: each thread
 * serves one worker (its memory holds that worker's states), under window keys, which no step of a
 * window changes (string keys, with more than STRING_KEYS_FROM owners, may).
 */
export function holdsWindows(layout: { workers: number; partitions: number }, threads: number): boolean {
  return layout.workers === threads && layout.workers * layout.partitions <= STRING_KEYS_FROM;
}
