/**
 * The aggregate stage of a step: successors go into the worker's SuccessorBuffer, where equal states
 * combine and a full table spills a sorted run file (a peer's batches go there too, outside this
 * stream). What is left at the end of the step stays there for the worker to keep or write.
 */

import through2 from 'through2';
import { type Batch, type BatchPool, STEP_END } from './batch.js';
import type { SuccessorBuffer } from './successor-buffer.js';

export function aggregateTransform(successors: SuccessorBuffer, pool: BatchPool) {
  return through2.obj({ highWaterMark: 2 }, function (batch: Batch, _encoding, done) {
    // The step's end goes on to the end of the pipeline; everything before it has been added.
    if (batch === STEP_END) return done(null, batch);
    try {
      successors.add(batch.states, batch.residues, 0, batch.size);
      pool.give(batch);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
