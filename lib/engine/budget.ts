/**
 * Turns a memory budget into buffer sizes. Every large buffer the engine holds is sized here and
 * allocated once per pass, so the budget bounds the typed arrays; Node itself adds a fixed overhead
 * on top (see README, "Memory").
 */

import { InvalidOptionError } from '../errors.js';
import { formatBytes } from '../units.js';
import { maxStates } from '../board/table1.js';
import { MAX_LOAD_FACTOR, MAX_TABLE_BYTES, sortKeyBytes, tableSlotBytes } from './state-table.js';
import { memoryRunBytes } from './memory-run.js';
import { MAX_SUCCESSORS } from '../state/border.js';
import { OWNED_CHUNK_BYTES } from './run-store.js';
import { counted } from '../plural.js';

export interface MemoryPlan {
  readonly tableCapacity: number;
  /** Largest step kept in memory instead of files. */
  readonly memoryRunCapacity: number;
  /** Records per input batch; successor batches hold three times as many. */
  readonly batchRecords: number;
  readonly readBufferBytes: number;
  readonly writeBufferBytes: number;
  /** Whether a step can outgrow the table; if not, in-memory steps need no sorting. */
  readonly mayOverflow: boolean;
}

/** Batches alive at once in a step's pipeline, at most (stream buffers plus the one in hand). */
const BATCHES_IN_FLIGHT = 8;
const MIN_TABLE = 64;
/** The in-memory run's size, as a share of the table's load, when the table cannot hold every step. */
const SMALL_RUN_SHARE = 0.25;

const clamp = (value: number, least: number, most: number) => Math.min(most, Math.max(least, Math.floor(value)));

/**
 * Batches, read and write buffers take about a fifth of the budget, within sensible bounds (small
 * budgets, down to a few hundred KiB, exist to force many runs in tests); the state table and the
 * in-memory run take the rest.
 */
export function planMemory(
  total: number,
  residueCount: number,
  fanIn: number,
  width: number,
  workers = 1,
  partitioned?: { owners: number },
): MemoryPlan {
  // Each worker gets an equal share of the budget and holds about an equal share of the states.
  const budget = Math.floor(total / workers);
  const recordBytes = memoryRunBytes(residueCount);
  const batchRecords = clamp(budget / 16 / (BATCHES_IN_FLIGHT * recordBytes * (1 + MAX_SUCCESSORS)), 16, 4096);
  const batches = BATCHES_IN_FLIGHT * batchRecords * recordBytes * (1 + MAX_SUCCESSORS);
  const readBufferBytes = clamp((budget * 0.1) / fanIn, 8 << 10, 1 << 20);
  const writeBufferBytes = clamp(budget / 32, 64 << 10, 1 << 20);
  // In a partitioned count a worker writes a run for each owner at once, each with its own buffer.
  const ownedWriters = partitioned ? partitioned.owners * OWNED_CHUNK_BYTES : 0;
  const fixed = batches + fanIn * readBufferBytes + writeBufferBytes + ownedWriters;
  // No point in a table larger than the most states a step of this width can have. A worker of a
  // partitioned count keeps every successor of its share of the states: up to three each.
  const owners = partitioned?.owners ?? workers;
  const share = Math.min(1, (partitioned ? 3.3 : 1.1) / owners); // hash shares vary a little
  const needed = Math.ceil((maxStates(width) * 1.05 * share) / MAX_LOAD_FACTOR) + MIN_TABLE;
  // A table that holds every step keeps each one in memory: room for a full in-memory run. One that
  // cannot keeps only the early, small steps in memory: a quarter of that, and more table instead.
  const fullRun = tableSlotBytes(residueCount) + MAX_LOAD_FACTOR * (sortKeyBytes + recordBytes);
  // A table's records live in one WebAssembly memory: at most MAX_TABLE_BYTES of them.
  const largest = Math.floor(MAX_TABLE_BYTES / tableSlotBytes(residueCount));
  const mayOverflow = Math.min(largest, Math.floor((budget - fixed) / fullRun)) < needed;
  const runShare = mayOverflow ? SMALL_RUN_SHARE : 1;
  const perSlot = tableSlotBytes(residueCount) + MAX_LOAD_FACTOR * (sortKeyBytes + runShare * recordBytes);
  const tableCapacity = Math.min(needed, largest, Math.floor((budget - fixed) / perSlot));
  if (tableCapacity < MIN_TABLE) {
    const least = workers * (fixed + MIN_TABLE * perSlot);
    const split = workers > 1 ? ` split over ${workers} workers,` : '';
    throw new InvalidOptionError(
      'memory',
      formatBytes(total),
      `too small,${split} for ${counted(residueCount, 'residue')} with a fan-in of ${fanIn}: give at least ${formatBytes(least)}`,
    );
  }
  const memoryRunCapacity = Math.floor(tableCapacity * MAX_LOAD_FACTOR * runShare);
  return {
    tableCapacity,
    memoryRunCapacity,
    batchRecords,
    readBufferBytes,
    writeBufferBytes,
    mayOverflow,
  };
}

/** Half the memory free now, at least 256 MiB: the budget when --memory is not given. */
export function defaultMemoryBudget(freeBytes: number): number {
  return Math.max(256 * 2 ** 20, Math.floor(freeBytes / 2));
}
