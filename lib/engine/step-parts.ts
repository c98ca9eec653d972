/**
 * What a worker's steps run through, in a module of its own: the worker (worker-runner.ts) makes
 * them and its step (step.ts) runs through them, and both import this.
 */

import type { BatchPool } from './batch.js';
import type { ExpandStage } from './expand-stage.js';
import type { MemoryRun } from './memory-run.js';
import type { PeerRouter } from './peer.js';
import type { PhaseClock } from '../observe/phase-clock.js';
import type { RunStore } from './run-store.js';
import type { SuccessorBuffer } from './successor-buffer.js';

/** What a worker's steps run through (lib/engine/step.ts), made once by the worker. */
export interface StepParts {
  readonly store: RunStore;
  readonly memory: () => MemoryRun;
  readonly stage: ExpandStage;
  readonly router?: PeerRouter;
  readonly successors: SuccessorBuffer;
  readonly pools: { readonly input: BatchPool; readonly successors: BatchPool };
  readonly clock: PhaseClock;
  readonly onBatch: () => void;
}
