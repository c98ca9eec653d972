/**
 * A worker's step on a grouped run (lib/engine/grouped-run.ts): the states in memory expanded and
 * combined group by group in one WebAssembly call, in place of the stream pipeline of step.ts. Every
 * step of one worker, and every step inside a window among several, whose states are in memory
 * takes it; the step that starts a window among several workers, whose successors change owner,
 * goes through the pipeline, and so does a step whose successors outgrow the run.
 */

import type { StepRouting } from '../border/expander-kernel.js';
import { isWindowStart } from '../border/window-key.js';
import { PHASE_INDEX, type PhaseClock } from '../observe/phase-clock.js';
import { ResidueExtender } from '../residues/growth.js';
import type { GroupedRun } from './grouped-run.js';
import type { PeerRouter } from './peer.js';
import type { StateTable } from './state-table.js';
import { groupWindow } from './step-routing.js';
import type { StepPart } from './step-parts.js';

export interface GroupStepContext {
  readonly run: GroupedRun;
  readonly count: { readonly width: number; readonly columns: number; readonly windowRows: number };
  /** The moduli of the states after a number of points. */
  readonly moduliAt: (step: number) => readonly number[];
  readonly clock: PhaseClock;
  readonly router?: PeerRouter;
  readonly table: StateTable;
}

/** Whether the step that expands the states after `step` points may be a group step, its states being in memory. */
export function takesGroupStep(step: number, count: GroupStepContext['count'], routing?: StepRouting): boolean {
  return routing?.owners === undefined && !(routing !== undefined && isWindowStart(step % count.width, count.windowRows));
}

/**
 * Expands the states after `step` points in the grouped run; undefined when their successors would
 * outgrow it, which leaves it as it was for the pipeline.
 */
export function groupStep(context: GroupStepContext, step: number, routing: StepRouting | undefined): StepPart | undefined {
  const { run, count, clock, router, table } = context;
  const { width } = count;
  const y = step % width;
  const atBoundary = y === 0 && step > 0;
  const inModuli = context.moduliAt(step);
  const outModuli = context.moduliAt(step + 1);
  const extender = outModuli.length > inModuli.length ? new ResidueExtender(outModuli, inModuli.length, outModuli.length) : undefined;
  const dropped = new Float64Array(outModuli.length);
  const legal = atBoundary ? new Float64Array(inModuli.length) : undefined;
  clock.reset();
  const started = performance.now();
  const result = run.step(y, width, groupWindow(step, count), outModuli, extender, dropped, legal);
  if (!result.done) return undefined;
  clock.add(PHASE_INDEX.aggregate, result.regroupMs);
  clock.add(PHASE_INDEX.expand, performance.now() - started - result.regroupMs);
  // Every worker ends every step with the others, sending or not.
  router?.beginStep(outModuli.length);
  router?.endStep();
  const sample = routing?.sample;
  const histogram = sample ? run.sampleKeys({ ...sample, column: Math.floor((step + 1) / width) }, width, sample.mask) : undefined;
  // The next step starts a window among several workers: it goes through the state table, planned from these states.
  if (sample) table.foresee((into, shift) => run.foresee(into, shift));
  return {
    statesIn: result.statesIn,
    successors: result.successors,
    spilled: 0,
    held: run.count,
    fitsInMemory: true,
    dropped: Array.from(dropped),
    legal: legal && Array.from(legal),
    moved: 0,
    histogram,
  };
}
