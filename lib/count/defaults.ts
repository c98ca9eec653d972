/**
 * A count's defaults and limits, in a module of their own: the command's help names them before it
 * knows which command runs, without loading the engine they belong to.
 */

import os from 'node:os';

export const DEFAULT_FAN_IN = 64;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_SCRATCH = 'scratch';

/** More worker threads than this is a typo, not a plan. */
export const MAX_WORKERS = 256;

/** One worker per core. */
export function defaultWorkers(cores: number = os.availableParallelism()): number {
  return Math.max(1, cores);
}
