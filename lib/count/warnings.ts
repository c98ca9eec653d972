/**
 * What a count warns of before it starts, from its options and setup alone: the count gives each
 * as a note, and --plan lists the same ones, so the two cannot differ. A new warning is one more
 * function in WARNINGS.
 */

import type { AvailableMemory } from '../shared/available-memory.js';
import { availableMemory } from '../shared/available-memory.js';
import os from 'node:os';
import { largestStates } from '../board/table1.js';
import type { EngineOptions, EngineSetup } from './engine-types.js';
import { counted } from '../shared/plural.js';
import { formatBytes } from '../shared/units.js';
import { type FreeSpace, freeSpace } from '../shared/disk-space.js';

/** The machine a count is for: its memory, its cores, and the disk free where the count writes. */
export interface Machine {
  readonly available: AvailableMemory;
  readonly cores: number;
  /** Undefined where the system cannot say. */
  readonly scratchFree: FreeSpace | undefined;
}

/** What a warning may look at: the count's options, what setUpEngine decided, and the machine. */
export interface WarningContext extends Machine {
  readonly options: Omit<EngineOptions, 'onProgress'>;
  readonly setup: EngineSetup;
}

/** A warning's message when it applies, else undefined. */
type Warning = (context: WarningContext) => string | undefined;

const WARNINGS: readonly Warning[] = [
  ({ options, setup }) =>
    options.workers !== undefined && setup.workers < options.workers
      ? `this board holds at most ${largestStates(options.sweep)} states a step: counting with ${counted(setup.workers, 'worker')}, not ${options.workers}`
      : undefined,
  ({ setup, cores }) => {
    // A partitioned count's task runs its workers on its threads.
    const [threads, what] = setup.threads === undefined ? [setup.workers, 'worker'] : [setup.threads, 'thread'];
    return threads > cores
      ? `${counted(threads, what)} on ${counted(cores, 'core')}: the ${what}s take turns, so the count runs slower than with ${cores}`
      : undefined;
  },
  ({ options, available }) =>
    options.memory > available.bytes
      ? `the memory budget, ${formatBytes(options.memory)}, is more than the ${formatBytes(available.bytes)} of ${available.source}: the count may swap or be killed`
      : undefined,
  ({ options, setup, scratchFree }) =>
    scratchFree !== undefined && setup.disk.bytes > scratchFree.bytes
      ? `the count may need up to ${formatBytes(setup.disk.bytes)} of disk, more than the ${formatBytes(scratchFree.bytes)} free ` +
        `on the file system of ${options.scratchDir}: it may stop on a full disk (and resume once there is room)`
      : undefined,
];

/** This machine, for a count that runs on it. */
export function thisMachine(scratchDir: string): Machine {
  return { available: availableMemory(), cores: os.availableParallelism(), scratchFree: freeSpace(scratchDir) };
}

/** The warnings of a count, in a fixed order; `machine` defaults to this one, a part at a time. */
export function countWarnings(options: Omit<EngineOptions, 'onProgress'>, setup: EngineSetup, machine: Partial<Machine> = {}): string[] {
  const context = { ...thisMachine(options.scratchDir), ...machine, options, setup };
  return WARNINGS.map((warning) => warning(context)).filter((message) => message !== undefined);
}
