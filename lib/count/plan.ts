/**
 * What a count will do before it does it (`gocount --plan`): the memory plan, the moduli and
 * passes, the states each column may reach, the disk it may need and when, and how long it may
 * take. Nothing is written.
 */

import os from 'node:os';
import type { Board, Sweep } from '../board/shape.js';
import { maxStatesAfter } from '../board/table1.js';
import type { AvailableMemory } from '../shared/available-memory.js';
import { type MemoryPlan, statesInMemory } from '../engine/budget.js';
import { residuesAt } from '../residues/growth.js';
import { setUpEngine } from './with-engine.js';
import type { DiskEstimate } from './engine-types.js';
import type { CountOptions } from './option-types.js';
import { normalizeCountOptions } from './options.js';
import { countWarnings, thisMachine } from './warnings.js';
import type { FreeSpace } from '../shared/disk-space.js';
import { InvalidOptionError } from '../shared/errors.js';
import { checkOptionNames, type OptionNames, shown } from '../shared/arguments.js';
import { COUNT_OPTION_NAMES } from './option-names.js';
import { heldSteps } from './held-steps.js';

/**
 * The cost model of the plan's time, from counts timed on this project's 2-core machine
 * (docs/performance.md): wall nanoseconds per expanded state for one worker, in a step kept in
 * memory, in a step on disk and in a step a task of a partitioned count writes to files (11×11 in 2
 * partitions of one thread each, every step written: 189 ns besides its fixed costs, 2026-11-27;
 * the steps a task keeps in memory, held-steps.ts, cost what a step in memory does); n threads of
 * one process on n cores run n^0.65 times as fast as one (11×11 on a 16-core machine: 39.2 s with
 * one worker, 6.6–6.8 s with 16), while tasks on cores of their own add up; and each step of a
 * partitioned count costs about 20 ms of hand-over through the folder. A step kept in memory on a
 * grouped run (lib/engine/grouped-run.ts: group steps, where the budget allows) costs less. With the
 * expansion inlined (2026-12-05): 11×11 in memory with two workers took 8.7–9.5 s (69–75 ns a state
 * by this model, groupedNs). With huge pages for the tables (2026-12-07): 11×11 at 256M took
 * 13.0–15.3 s (steps in memory, inMemoryNs, and from step 101 on disk), 13×13 at 512M 539 s (most
 * steps on disk, onDiskNs), 14×14 at 20G 2,252 s (steps 1–141 in memory at 104 ns a state by this
 * model, 142–184 on disk at 190). Each constant lies within 1.5 times of them. The cost does not
 * grow with the residues here: the boards it was measured on carry up to 10.
 */
export const COST_MODEL = {
  inMemoryNs: 110,
  groupedNs: 85,
  onDiskNs: 180,
  partitionedNs: 379,
  speedupExponent: 0.65,
  partitionedStepSeconds: 0.02,
};

/** Records written per state at a window's first step of a partitioned count (11×11 in 2 partitions, 2026-12-01). */
const EXCHANGED_RECORDS_PER_STATE = 1.26;

/**
 * The states a step expands as a share of Table 1's bound on it, by how far the step's column is
 * across the board (column index / width): measured on 11×11 and 14×14, whose counts expand 0.67
 * and 0.69 of their bounds' sum. The first column expands half its bound, the last about a sixth.
 */
const STATES_OF_BOUND: ReadonlyArray<readonly [number, number]> = [
  [0.08, 0.15],
  [0.16, 0.36],
  [0.25, 0.5],
  [0.32, 0.66],
  [0.4, 0.8],
  [0.49, 0.87],
  [0.57, 0.91],
  [0.65, 0.93],
  [0.75, 0.95],
];

/** Expected states after `step` points of a sweep `width` wide over `columns` columns. */
export function expectedStates(width: number, columns: number, step: number): number {
  const bound = maxStatesAfter(width, step);
  const column = Math.min(columns - 1, Math.floor(step / width));
  if (column === 0) return bound * 0.5;
  if (column === columns - 1) return bound * 0.16;
  const x = column / width;
  const last = STATES_OF_BOUND.length - 1;
  if (x <= STATES_OF_BOUND[0][0]) return bound * STATES_OF_BOUND[0][1];
  if (x >= STATES_OF_BOUND[last][0]) return bound * STATES_OF_BOUND[last][1];
  const i = STATES_OF_BOUND.findIndex(([at]) => at >= x);
  const [x0, y0] = STATES_OF_BOUND[i - 1];
  const [x1, y1] = STATES_OF_BOUND[i];
  return bound * (y0 + ((y1 - y0) * (x - x0)) / (x1 - x0));
}

export interface ColumnPlan {
  /** 1-based. */
  readonly column: number;
  /** Table 1's bound on the states of the column's largest step. */
  readonly maxStates: number;
  /** Whether every step of the column fits in memory (a partitioned count writes some of every column's steps). */
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
  /** The disk free on the scratch folder's file system, where the system says. */
  readonly diskFree?: FreeSpace;
  /** Cores the count is planned for, its workers and its time: as given, else this machine's. */
  readonly cores: number;
  /** A rough time: the expected states of every step at the measured cost per state (COST_MODEL). */
  readonly seconds: number;
  /** Bytes of runs the count writes in all, about: every state of a step on disk, once (in a partitioned count all of them through the scratch folder). */
  readonly bytesWritten: number;
  /** In a partitioned count, the steps of a pass its tasks keep in memory, as a window's steps, instead of writing them (held-steps.ts). */
  readonly stepsHeld?: number;
  /** What the count would warn of before it starts (warnings.ts). */
  readonly warnings: string[];
}

/** What `planCount` takes beside a count's options: the cores of the machine to plan for (default: this machine's). */
export interface PlanOptions extends CountOptions {
  readonly cores?: number;
}

const PLAN_OPTION_NAMES: OptionNames<PlanOptions> = { ...COUNT_OPTION_NAMES, cores: true };

export function planCount(options: PlanOptions): CountPlan {
  checkOptionNames('planCount', options, PLAN_OPTION_NAMES);
  const { cores: coresGiven, ...countOptions } = options;
  if (coresGiven !== undefined && !(Number.isInteger(coresGiven) && coresGiven >= 1 && coresGiven <= 65536))
    throw new InvalidOptionError('cores', shown(coresGiven), 'must be an integer from 1 to 65536');
  const cores = coresGiven ?? os.availableParallelism();
  const normalized = normalizeCountOptions(countOptions);
  const { sweep } = normalized;
  const setup = setUpEngine(normalized, cores);
  const partitions = normalized.partitioned?.partitions ?? 1;
  // The states a step keeps in memory: its counts' residues take fewer words early on.
  const inMemory = (step: number) =>
    maxStatesAfter(sweep.width, step) <=
    (normalized.partitioned ? 0 : setup.workers) * statesInMemory(setup.plans[0], residuesAt(setup.passes[0], step, sweep));
  const steps = sweep.width * sweep.columns;
  const partitionedSteps =
    normalized.partitioned &&
    heldSteps(sweep, normalized.partitioned, setup, normalized.windowRows, cores, (step) =>
      expectedStates(sweep.width, sweep.columns, step),
    );
  // Threads of one process share its machine's memory (n^0.65); tasks on cores of their own add up.
  const threads = normalized.partitioned ? Math.min(setup.threads ?? 1, cores) : Math.min(setup.workers, cores);
  const tasks = Math.max(1, Math.min(partitions, Math.floor(cores / threads)));
  const speedup = tasks * threads ** COST_MODEL.speedupExponent;
  let seconds = 0;
  let bytesWritten = 0;
  let stepsHeld = 0;
  for (let step = 0; step < steps; step++) {
    const states = expectedStates(sweep.width, sweep.columns, step);
    const kept = partitionedSteps ? partitionedSteps.held(step) : inMemory(step);
    if (partitionedSteps && kept) stepsHeld++;
    const inMemoryNs = setup.plans[0].groupedRun ? COST_MODEL.groupedNs : COST_MODEL.inMemoryNs;
    const ns = kept ? inMemoryNs : partitionedSteps ? COST_MODEL.partitionedNs : COST_MODEL.onDiskNs;
    seconds += (states * ns * 1e-9) / speedup + (partitionedSteps ? COST_MODEL.partitionedStepSeconds : 0);
    // A record: the state's varint delta (about 3 bytes) and its residues; each pass writes its own.
    // A partitioned count writes a state once for each task that makes it: inside a window one, at a
    // window's first step each task holding one of its parents (1.26 times, 11×11 in 2 partitions).
    const copies = partitionedSteps && partitionedSteps.exchanged(step) ? EXCHANGED_RECORDS_PER_STATE : 1;
    if (!kept) for (const pass of setup.passes) bytesWritten += states * copies * (3 + 4 * residuesAt(pass, step, sweep));
  }
  // A column's largest step, by the bound, is its last, whose states carry the most residues.
  const columns = Array.from({ length: sweep.columns }, (_, c) => {
    const last = (c + 1) * sweep.width;
    return { column: c + 1, maxStates: maxStatesAfter(sweep.width, last), inMemory: inMemory(last) };
  });
  const machine = { ...thisMachine(normalized.scratchDir), cores };
  return {
    board: normalized.board,
    sweep,
    steps,
    memory: normalized.memory,
    available: machine.available,
    workers: setup.workers,
    partitions,
    perWorker: setup.plans[0],
    moduli: setup.moduli,
    passes: setup.passes,
    columns,
    disk: setup.disk,
    diskBudget: normalized.disk,
    diskFree: machine.scratchFree,
    cores,
    seconds: seconds * setup.passes.length,
    bytesWritten,
    stepsHeld: partitionedSteps ? stepsHeld : undefined,
    warnings: countWarnings(normalized, setup, machine),
  };
}
