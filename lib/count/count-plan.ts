/**
 * What a count will do before it does it (`gocount --plan`): the memory plan, the moduli and
 * passes, the states each column may reach, the disk it may need and when, and how long it may
 * take. Nothing is written.
 */

import os from 'node:os';
import type { Board, Sweep } from '../board/shape.js';
import { maxStatesAfter } from '../board/table1.js';
import { AvailableMemory, availableMemory } from '../engine/available-memory.js';
import { type MemoryPlan, statesInMemory } from '../engine/budget.js';
import { residuesAt } from '../residues/growth.js';
import { DiskEstimate, setUpEngine } from '../engine/count.js';
import { CountOptions, normalizeCountOptions } from './count-options.js';
import { countWarnings } from './count-warnings.js';

/**
 * Wall seconds per state of Table 1's bound, per worker, measured on the reference workstation
 * (docs/performance.md): 11×11 in memory in 23 s with two workers over a bound of 299M states;
 * 13×13 at --memory 512M, every large step on disk, in 37.3 min over 7.7G.
 */
export const SECONDS_PER_BOUND_STATE = { inMemory: 0.16e-6, onDisk: 0.58e-6 };

export interface ColumnPlan {
  /** 1-based. */
  readonly column: number;
  /** Table 1's bound on the states of the column's largest step. */
  readonly maxStates: number;
  /** Whether every step of the column fits in memory (a partitioned count always writes files). */
  readonly inMemory: boolean;
}

export interface CountPlan {
  readonly board: Board;
  readonly sweep: Sweep;
  readonly steps: number;
  /** The budget, and what the process may use. */
  readonly memory: number;
  readonly available: AvailableMemory;
  readonly workers: number;
  readonly partitions: number;
  /** One worker's buffers in the first pass. */
  readonly perWorker: MemoryPlan;
  readonly moduli: number[];
  readonly passes: number[][];
  readonly columns: ColumnPlan[];
  readonly disk: DiskEstimate;
  /** The disk budget given (--disk), if any. */
  readonly diskBudget?: number;
  /** A rough time: Table 1's bound on every step at the measured cost per state. */
  readonly seconds: number;
  /** What the count would warn of before it starts (count-warnings.ts). */
  readonly warnings: string[];
}

export function planCount(options: CountOptions): CountPlan {
  const normalized = normalizeCountOptions(options);
  const { sweep } = normalized;
  const setup = setUpEngine(normalized);
  const partitions = normalized.partitioned?.partitions ?? 1;
  // The states a step keeps in memory: its counts' residues take fewer words early on.
  const inMemory = (step: number) =>
    maxStatesAfter(sweep.width, step) <=
    (normalized.partitioned ? 0 : setup.workers) * statesInMemory(setup.plans[0], residuesAt(setup.passes[0], step));
  const steps = sweep.width * sweep.columns;
  const parallel = Math.min(setup.workers * partitions, os.availableParallelism());
  let seconds = 0;
  for (let step = 0; step < steps; step++) {
    const cost = inMemory(step) ? SECONDS_PER_BOUND_STATE.inMemory : SECONDS_PER_BOUND_STATE.onDisk;
    seconds += (maxStatesAfter(sweep.width, step) * cost) / parallel;
  }
  // A column's largest step, by the bound, is its last, whose states carry the most residues.
  const columns = Array.from({ length: sweep.columns }, (_, c) => {
    const last = (c + 1) * sweep.width;
    return { column: c + 1, maxStates: maxStatesAfter(sweep.width, last), inMemory: inMemory(last) };
  });
  const available = availableMemory();
  return {
    board: normalized.board,
    sweep,
    steps,
    memory: normalized.memory,
    available,
    workers: setup.workers,
    partitions,
    perWorker: setup.plans[0],
    moduli: setup.moduli,
    passes: setup.passes,
    columns,
    disk: setup.disk,
    diskBudget: normalized.disk,
    seconds: seconds * setup.passes.length,
    warnings: countWarnings(normalized, setup, available),
  };
}
