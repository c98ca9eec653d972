/**
 * The expand and route stages (expand-stage.ts) as the transform stream of a step's pipeline
 * (lib/engine/step.ts), which loads it at the first step that streams.
 */

import through2 from 'through2';
import { MAX_SUCCESSORS } from '../border/border.js';
import { type Batch, type BatchPool, STEP_END } from './batch.js';
import type { ExpandStage } from './expand-stage.js';
import { PHASE_INDEX, type PhaseClock } from '../observe/phase-clock.js';
import type { PeerRouter } from './peer.js';

/**
 * The stage as a transform stream: batches in, this worker's successor batches out (the kernel's
 * buckets are routed before the next batch reuses them); onBatch after each.
 */
export function expandTransform(
  stage: ExpandStage,
  pools: { readonly input: BatchPool; readonly successors: BatchPool },
  clock: PhaseClock,
  onBatch: () => void,
  router?: PeerRouter,
) {
  return through2.obj({ highWaterMark: 2 }, function (batch: Batch, _encoding, done) {
    if (batch === STEP_END) return done(null, batch);
    const output = pools.successors.take();
    if (output.capacity < MAX_SUCCESSORS * batch.size) {
      done(new RangeError(`successor batch of ${output.capacity} cannot hold ${batch.size} × 3`));
      return;
    }
    clock.time(PHASE_INDEX.expand, () => stage.run(batch, output));
    pools.input.give(batch);
    onBatch();
    // With peers: take in what they sent.
    router?.poll();
    const failed = router?.error;
    if (failed) done(failed);
    else done(null, output);
  });
}
