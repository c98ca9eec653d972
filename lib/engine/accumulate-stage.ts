/**
 * Stages 3 and 4 of a step: successors go into the state table, where equal states combine; each
 * time the table reaches its load it is drained in state order into a new sorted run file, and the
 * run's summary goes downstream. What is left at the end of the step stays in the table for the
 * step runner, which keeps it in memory or writes the last run.
 */

import through2 from 'through2';
import type { Batch, BatchPool } from './batch.js';
import type { StateTable } from './state-table.js';
import type { RunSummary } from '../format/run-writer.js';

export function accumulateTransform(table: StateTable, spill: () => RunSummary, pool: BatchPool) {
  return through2.obj({ highWaterMark: 2 }, function (this: { push(chunk: unknown): boolean }, batch: Batch, _encoding, done) {
    try {
      for (let at = 0; at < batch.size; ) {
        at = table.addBatch(batch.states, batch.residues, at, batch.size);
        if (table.full) this.push(spill());
      }
      pool.give(batch);
      done();
    } catch (error) {
      done(error as Error);
    }
  });
}
