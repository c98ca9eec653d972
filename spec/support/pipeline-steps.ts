/**
 * Counts whose steps in memory go through the stream pipeline and its state table, as they do when
 * a group step would outgrow its grouped run (lib/engine/group-step.ts): for the tests of the
 * table's own paths, which a count whose every step fits in memory no longer takes. Only a count
 * in this thread (one worker) sees the change.
 */

import { GroupedRun, type GroupStepResult } from '../../lib/engine/grouped-run.js';

export async function withPipelineSteps<T>(body: () => Promise<T>): Promise<T> {
  const step = GroupedRun.prototype.step;
  GroupedRun.prototype.step = function (this: GroupedRun): GroupStepResult {
    return { statesIn: this.count, successors: 0, done: false, regroupMs: 0 };
  };
  try {
    return await body();
  } finally {
    GroupedRun.prototype.step = step;
  }
}
