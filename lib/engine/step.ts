/**
 * A worker's step on one screen: the states after `step` points become those after step + 1.
 *   source     this worker's states: its run files of the step merged (RunStore), or its in-memory run
 *   expand     each state's 2 or 3 successors, in the WebAssembly kernel (ExpandStage)
 *   route      those another worker owns to its ring (PeerRouter), the rest on, in the expand transform
 *   aggregate  into the state table with what peers route here: equal states combine (SuccessorBuffer)
 *   spill      a full table to a sorted run; at the step's end the rest to one more, or into memory (end)
 * One stream pipeline (StepFlow) carries every step; a failed step makes it anew. Its modules, and
 * through2 with them, load at the first step that streams: a worker thread whose steps are all
 * group steps starts without them.
 */

import { PHASE_INDEX } from '../observe/phase-clock.js';
import type { StepFlow } from './step-flow.js';
import type { StepParts } from './step-parts.js';

export class WorkerStep {
  private flow?: StepFlow;
  constructor(private readonly parts: StepParts) {}

  /**
   * source → expand → route → aggregate, spilling as the table fills, until every peer's records
   * are in; `alone`: no peer sends this worker anything in this step, so it does not wait for them
   * (inside a window, or its states changed owner before it).
   */
  async run(step: number, files: string[] | null, alone = false): Promise<void> {
    const { router, successors } = this.parts;
    if (!this.flow?.open) this.flow = await this.makeFlow();
    const source = this.source(step, files);
    try {
      await this.flow.run(source.batches);
      if (!alone) router?.endStep();
      successors.settle();
    } catch (error) {
      source.close();
      successors.clear();
      throw error;
    }
  }

  private async makeFlow(): Promise<StepFlow> {
    const [{ expandTransform }, { aggregateTransform }, { StepFlow }] = await Promise.all([
      import('./expand-transform.js'),
      import('./aggregate-stage.js'),
      import('./step-flow.js'),
    ]);
    const { stage, router, successors, pools, clock, onBatch } = this.parts;
    return new StepFlow(expandTransform(stage, pools, clock, onBatch, router), aggregateTransform(successors, pools.successors));
  }

  /** spill at the step's end: the rest to run files (returned), or into the in-memory run, sorted if asked. */
  end(toFiles: boolean, sorted: boolean) {
    if (toFiles) return this.parts.successors.toFiles();
    this.parts.successors.toMemory(this.parts.memory(), sorted);
    return [];
  }

  /** The step's states as batches, each state once. */
  private source(step: number, files: string[] | null) {
    const { store, memory, pools, clock } = this.parts;
    if (files === null) return { batches: memory().batches(pools.input.capacity), close: () => {} };
    const merger = store.openStep(step, files);
    function* batches() {
      let batch = pools.input.take();
      for (; clock.time(PHASE_INDEX.read, () => merger.fill(batch)); batch = pools.input.take()) yield batch;
      pools.input.give(batch);
    }
    return { batches: batches(), close: () => merger.close() };
  }
}
