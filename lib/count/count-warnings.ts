/**
 * What a count warns of before it starts, from its options and setup alone: the count gives each
 * as a note, and --plan lists the same ones, so the two cannot differ. A new warning is one more
 * function in WARNINGS.
 */

import type { AvailableMemory } from '../engine/available-memory.js';
import { availableMemory } from '../engine/available-memory.js';
import type { EngineOptions, EngineSetup } from '../engine/count.js';
import { formatBytes } from '../units.js';

/** What a warning may look at: the count's options, what setUpEngine decided, and the machine. */
export interface WarningContext {
  readonly options: Omit<EngineOptions, 'onProgress'>;
  readonly setup: EngineSetup;
  readonly available: AvailableMemory;
}

/** A warning's message when it applies, else undefined. */
type Warning = (context: WarningContext) => string | undefined;

const WARNINGS: readonly Warning[] = [
  ({ options, available }) =>
    options.memory > available.bytes
      ? `the memory budget, ${formatBytes(options.memory)}, is more than the ${formatBytes(available.bytes)} of ${available.source}: the count may swap or be killed`
      : undefined,
];

/** The warnings of a count, in a fixed order. */
export function countWarnings(
  options: Omit<EngineOptions, 'onProgress'>,
  setup: EngineSetup,
  available: AvailableMemory = availableMemory(),
): string[] {
  return WARNINGS.map((warning) => warning({ options, setup, available })).filter((message) => message !== undefined);
}
