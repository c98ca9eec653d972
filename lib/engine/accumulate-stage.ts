/**
 * Stages 3 and 4 of a step: successors go into the state table, where equal states combine; each
 * time the table reaches its load, `spill` drains it in state order into a new sorted run file (the
 * partition records the run; a peer's batches can fill the table too, outside this stream). What is
 * left at the end of the step stays in the table for the partition to keep in memory or write.
 */

import through2 from 'through2';
import type { Batch, BatchPool } from './batch.js';
import type { PhaseClock } from './phase-clock.js';
import type { StateTable } from './state-table.js';

export function accumulateTransform(table: StateTable, spill: () => void, pool: BatchPool, clock: PhaseClock, phase: number) {
  return through2.obj({ highWaterMark: 2 }, function (batch: Batch, _encoding, done) {
    try {
      for (let at = 0; at < batch.size;) {
        at = clock.time(phase, () => table.addBatch(batch.states, batch.residues, at, batch.size));
        if (table.full) spill();
      }
      pool.give(batch);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
