/**
 * What a worker's steps run through, in a module of its own: the worker (worker-runner.ts) makes
 * them and its step (step.ts) runs through them, and both import this.
 */

import type { BatchPool } from './batch.js';
import type { ExpandStage } from './expand-stage.js';
import type { StepInMemory } from './memory-run.js';
import type { PeerRouter } from './peer.js';
import type { PhaseClock } from '../observe/phase-clock.js';
import type { RunStore } from './run-store.js';
import type { SuccessorBuffer } from './successor-buffer.js';

/** What a worker's steps run through (lib/engine/step.ts), made once by the worker. */
export interface StepParts {
  readonly store: RunStore;
  readonly memory: () => StepInMemory;
  readonly stage: ExpandStage;
  readonly router?: PeerRouter;
  readonly successors: SuccessorBuffer;
  readonly pools: { readonly input: BatchPool; readonly successors: BatchPool };
  readonly clock: PhaseClock;
  readonly onBatch: () => void;
}

/** What a worker reports after expanding a step. */
export interface StepPart {
  readonly statesIn: number;
  readonly successors: number;
  /** Runs already written because the table filled. */
  readonly spilled: number;
  /** States left in the table. */
  readonly held: number;
  /** Whether they fit in the in-memory run. */
  readonly fitsInMemory: boolean;
  /**
   * Whether the worker has ended the step in run files already, finish's work done: its table
   * filled, or a peer's did before this worker's expansion ended, or the states outgrow its
   * in-memory run. Each makes the coordinator end the step in files.
   */
  readonly endedInFiles?: boolean;
  readonly dropped: number[];
  /** At a column boundary: the legal states' residues. */
  readonly legal?: number[];
  /** Records sent to other workers (at a window's first step). */
  readonly moved: number;
  /** At the step before a window's first, a group step's: the sampled weights of its key buckets (the pipeline's come with its StepEnd). */
  readonly histogram?: Uint32Array;
  /** In a partitioned count: the records each worker it serves read, by worker. */
  readonly recordsRead?: Record<number, number>;
}
