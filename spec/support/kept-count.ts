import { countWithEngine } from '../../lib/count/with-engine.js';
import type { EngineOptions } from '../../lib/count/engine-types.js';
import { ignoreProgress } from '../../lib/observe/progress.js';

/** The board the window tests count: 8 wide, 6 columns, 48 steps. */
export const SWEEP_8X6 = { width: 8, columns: 6 };

/** 8×6 counted with every step kept in `scratchDir`, one worker in memory unless `options` say otherwise. */
export const keptCount = (scratchDir: string, options: Partial<EngineOptions> = {}) =>
  countWithEngine({
    sweep: SWEEP_8X6,
    memory: 64 << 20,
    scratchDir,
    fanIn: 64,
    keep: true,
    workers: 1,
    onProgress: ignoreProgress,
    ...options,
  });
