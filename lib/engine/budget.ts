/**
 * Turns a memory budget into buffer sizes. Every large buffer the engine holds is sized here and
 * allocated once per pass, so the budget bounds the typed arrays; Node itself adds a fixed overhead
 * on top (see README, "Memory").
 */

import { InvalidOptionError } from '../shared/errors.js';
import { formatBytes } from '../shared/units.js';
import { maxStates } from '../board/table1.js';
import { MAX_LOAD_FACTOR, MAX_SHARDS, SHARD_OVERHEAD_BYTES, shardsFor, sortKeyBytes, tableSlotBytes } from './state-table.js';
import { MAX_SHARD_BYTES } from './table-limits.js';
import { MAX_RUN_WORDS, memoryRunBytes } from './memory-run.js';
import { MAX_GROUPED_AREA_BYTES } from './grouped-run.js';
import { MAX_SUCCESSORS } from '../border/border.js';
import { OwnerSplit } from './owner-split.js';
import { CHUNK_ENTRY_BYTES, sectionEntryBytes } from '../format/split-layout.js';
import { counted } from '../shared/plural.js';

export interface MemoryPlan {
  readonly tableCapacity: number;
  /** The most bytes of records in one of the table's WebAssembly memories (its shards). */
  readonly tableShardBytes: number;
  /** Largest step kept in memory instead of files, of the pass's residues (statesInMemory: of fewer). */
  readonly memoryRunCapacity: number;
  /** 32-bit words of the in-memory run. */
  readonly memoryRunWords: number;
  /** Records per input batch; successor batches hold three times as many. */
  readonly batchRecords: number;
  readonly readBufferBytes: number;
  readonly writeBufferBytes: number;
  /** Whether a step can outgrow the table; if not, in-memory steps need no sorting. */
  readonly mayOverflow: boolean;
  /**
   * Whether the in-memory run is a grouped run (lib/engine/grouped-run.ts), whose steps combine in
   * place: two areas of the run's size, when every step fits and the budget has room for both.
   */
  readonly groupedRun: boolean;
  /** In a partitioned count, the bytes of each owner's chunk of a split run (0 in one process). */
  readonly ownerChunkBytes: number;
  /**
   * Bytes of the rings a worker takes its peers' successors in from (lib/engine/peer.ts), where a
   * step can outgrow the table; 0 where the rings hold only a few batches.
   */
  readonly ringBytes: number;
}

/**
 * An owner's chunk of a split run, at least and at most. Its chunks are what an owner's reader reads
 * at once: large enough to keep those reads near sequential, and no larger than a run file's
 * write. A worker's chunks take OWNER_CHUNKS_SHARE of its budget between these bounds.
 */
export const MIN_OWNER_CHUNK_BYTES = 16 << 10;
export const MAX_OWNER_CHUNK_BYTES = 1 << 20;
const OWNER_CHUNKS_SHARE = 1 / 16;

/**
 * A worker whose table fills writes a run in the middle of a step and meanwhile takes in nothing from
 * its rings; at a window's first step its peers fill rings of a few batches within milliseconds and
 * wait for it. Larger rings hold much of what a peer makes meanwhile (docs/performance.md, 13×13).
 * They take half of the sort keys' share of the budget (sortKeyBytes a slot), which sorting never
 * uses, since a drain sorts one bucket of a few thousand keys at a time; so the table and the
 * in-memory run keep their size. MAX_RING_BYTES caps them where tables take gigabytes (14×14 at
 * `--memory 20G`), whose runs no ring of a sensible size would outlast.
 */
const MAX_RING_BYTES = 64 << 20;

/** The chunk of each of `owners` owners for a worker's budget: a multiple of 4 KiB. */
export function ownerChunkBytes(budget: number, owners: number): number {
  const share = Math.floor((budget * OWNER_CHUNKS_SHARE) / owners / 4096) * 4096;
  return Math.min(MAX_OWNER_CHUNK_BYTES, Math.max(MIN_OWNER_CHUNK_BYTES, share));
}

/** What a worker of a partitioned count keeps for `owners` owners: its chunks and their states, and its index's entries. */
function ownerBytes(owners: number, chunkBytes: number, residueCount: number): number {
  return OwnerSplit.fixedBytes(owners, chunkBytes, residueCount) + owners * (sectionEntryBytes(residueCount) + 2 * CHUNK_ENTRY_BYTES);
}

/** Batches alive at once in a step's pipeline, at most (stream buffers plus the one in hand). */
const BATCHES_IN_FLIGHT = 8;
const MIN_TABLE = 64;
/** Bytes of a grouped run's index per state of its largest group: 4 slots of 4 bytes. */
const GROUPED_INDEX_BYTES = 16;
/** The in-memory run's size, as a share of the table's load, when the table cannot hold every step. */
const SMALL_RUN_SHARE = 0.25;

const clamp = (value: number, least: number, most: number) => Math.min(most, Math.max(least, Math.floor(value)));

export interface PlanChoices {
  /** The most bytes of records in one of the table's WebAssembly memories. */
  readonly shardBytes?: number;
  /**
   * When the table cannot hold the largest steps of the pass's residues: split the budget between
   * table and in-memory run as if it could, so that steps of fewer residues, which take fewer
   * words, stay in memory whole (count/with-engine.ts decides), instead of a quarter run and a larger table.
   */
  readonly wholeSteps?: boolean;
}

/** States of `residueCount` residues a worker keeps in memory under `plan`: the run holds words. */
export function statesInMemory(plan: MemoryPlan, residueCount: number): number {
  return Math.floor(plan.memoryRunWords / (2 + residueCount));
}

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
  partitioned?: { owners: number; served?: number },
  { shardBytes = MAX_SHARD_BYTES, wholeSteps = false }: PlanChoices = {},
): MemoryPlan {
  // Each worker gets an equal share of the budget and holds about an equal share of the states.
  const budget = Math.floor(total / workers);
  const recordBytes = memoryRunBytes(residueCount);
  const batchRecords = clamp(budget / 16 / (BATCHES_IN_FLIGHT * recordBytes * (1 + MAX_SUCCESSORS)), 16, 4096);
  const batches = BATCHES_IN_FLIGHT * batchRecords * recordBytes * (1 + MAX_SUCCESSORS);
  const readBufferBytes = clamp((budget * 0.1) / fanIn, 8 << 10, 1 << 20);
  const writeBufferBytes = clamp(budget / 32, 64 << 10, 1 << 20);
  // In a partitioned count a worker splits each run by owner, a chunk buffer for each owner.
  const chunkBytes = partitioned ? ownerChunkBytes(budget, partitioned.owners) : 0;
  const owned = partitioned ? ownerBytes(partitioned.owners, chunkBytes, residueCount) : 0;
  const fixed = batches + fanIn * readBufferBytes + writeBufferBytes + owned;
  if (partitioned && owned > budget / 2) {
    const least = workers * 2 * ownerBytes(partitioned.owners, MIN_OWNER_CHUNK_BYTES, residueCount);
    const split = workers > 1 ? ` split over ${workers} threads,` : '';
    throw new InvalidOptionError(
      'memory',
      formatBytes(total),
      `too small,${split} for the chunk buffers of ${counted(partitioned.owners, 'owner')}: give at least ${formatBytes(least)}`,
    );
  }
  // No point in a table larger than the most states a step of this width can have. A worker of a
  // partitioned count keeps every successor of its share of the states (the workers it serves): up
  // to three each.
  const owners = partitioned ? partitioned.owners / (partitioned.served ?? 1) : workers;
  const share = Math.min(1, (partitioned ? 3.3 : 1.1) / owners); // hash shares vary a little
  const needed = Math.ceil((maxStates(width) * 1.05 * share) / MAX_LOAD_FACTOR) + MIN_TABLE;
  // A table that holds every step keeps each one in memory: room for a full in-memory run. One that
  // cannot keeps only the early, small steps in memory: a quarter of that, and more table instead,
  // unless asked for whole steps (PlanChoices).
  const fullRun = tableSlotBytes(residueCount) + MAX_LOAD_FACTOR * (sortKeyBytes + recordBytes);
  const mayOverflow = Math.floor((budget - fixed) / fullRun) < needed;
  const runShare = mayOverflow && !wholeSteps ? SMALL_RUN_SHARE : 1;
  const perSlot = tableSlotBytes(residueCount) + MAX_LOAD_FACTOR * (sortKeyBytes + runShare * recordBytes);
  // A table larger than one WebAssembly memory's share spans several (shards). Each after the first
  // adds its fixed arrays, taken from the table's share, but at most half of it: the tests split
  // small tables into many tiny shards.
  const slots = (bytes: number) => Math.min(needed, Math.floor(bytes / perSlot));
  const most = slots(budget - fixed);
  const shards = shardsFor(most, residueCount, shardBytes);
  if (shards > MAX_SHARDS) {
    const tableBytes = most * tableSlotBytes(residueCount);
    throw new InvalidOptionError(
      'tableMemory',
      formatBytes(shardBytes),
      `too small for a table of ${formatBytes(tableBytes)} per worker in at most ${MAX_SHARDS} memories: give at least ${formatBytes(Math.ceil(tableBytes / MAX_SHARDS))}`,
    );
  }
  const tableCapacity = slots(budget - fixed - Math.min((shards - 1) * SHARD_OVERHEAD_BYTES, (budget - fixed) / 2));
  if (tableCapacity < MIN_TABLE) {
    const least = workers * (fixed + MIN_TABLE * perSlot);
    const split = workers > 1 ? ` split over ${workers} workers,` : '';
    throw new InvalidOptionError(
      'memory',
      formatBytes(total),
      `too small,${split} for ${counted(residueCount, 'residue')} with a fan-in of ${fanIn}: give at least ${formatBytes(least)}`,
    );
  }
  // Only a table that fills writes runs in the middle of a step; a partitioned count has no rings.
  const unsortedKeys = (tableCapacity * MAX_LOAD_FACTOR * sortKeyBytes) / 2;
  const ringBytes = mayOverflow && !partitioned && workers > 1 ? clamp(unsortedKeys, 0, MAX_RING_BYTES) : 0;
  // One typed array: at most MAX_RUN_WORDS (16 GiB).
  const memoryRunCapacity = Math.min(
    Math.floor(tableCapacity * MAX_LOAD_FACTOR * runShare),
    Math.floor(MAX_RUN_WORDS / (2 + residueCount)),
  );
  // A grouped run takes a second area of the run's size, and per state a tag (2 bytes) and, for its
  // largest group, an index of up to 16 bytes.
  const used = fixed + tableCapacity * (tableSlotBytes(residueCount) + MAX_LOAD_FACTOR * sortKeyBytes);
  const groupedBytes = 2 * 4 * memoryRunCapacity * (2 + residueCount) + memoryRunCapacity * (2 + GROUPED_INDEX_BYTES);
  const groupedRun =
    !partitioned && !mayOverflow && used + groupedBytes <= budget && 4 * memoryRunCapacity * (2 + residueCount) <= MAX_GROUPED_AREA_BYTES;
  return {
    tableCapacity,
    tableShardBytes: shardBytes,
    memoryRunCapacity,
    memoryRunWords: memoryRunCapacity * (2 + residueCount),
    batchRecords,
    readBufferBytes,
    writeBufferBytes,
    mayOverflow,
    groupedRun,
    ownerChunkBytes: chunkBytes,
    ringBytes,
  };
}

/** Half the memory free now, at least 256 MiB: the budget when --memory is not given. */
export function defaultMemoryBudget(freeBytes: number): number {
  return Math.max(256 * 2 ** 20, Math.floor(freeBytes / 2));
}
