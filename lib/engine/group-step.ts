/**
 * A worker's step on a grouped run (lib/engine/grouped-run.ts): the states in memory expanded and
 * combined group by group in one WebAssembly call, in place of the stream pipeline of step.ts. Every
 * step whose states are in memory takes it. At a window's first step among several workers the
 * states change owner first: each worker sends those of another worker's keys to it through the
 * rings (the states, not their successors), and the step ends with the others there; the group
 * step then expands what each holds. A step whose successors outgrow the run goes through the
 * pipeline instead.
 */

import { PHASE_INDEX, type PhaseClock } from '../observe/phase-clock.js';
import { ResidueExtender } from '../residues/growth.js';
import type { GroupedRun } from './grouped-run.js';
import type { PeerRouter } from './peer.js';
import type { StateTable } from './state-table.js';
import { groupWindow, type StepPlan } from './step-routing.js';
import type { StepPart } from './step-parts.js';

export interface GroupStepContext {
  readonly run: GroupedRun;
  readonly count: { readonly width: number; readonly columns: number; readonly windowRows: number };
  /** The moduli of the states after a number of points. */
  readonly moduliAt: (step: number) => readonly number[];
  readonly clock: PhaseClock;
  readonly router?: PeerRouter;
  readonly table: StateTable;
  /** Sends what the peers send to the grouped run while true, else to the state table. */
  readonly receiveInRun: (on: boolean) => void;
}

/** A group step's part, or, when its successors would outgrow the run, what the pipeline must know. */
export type GroupStepOutcome =
  { readonly part: StepPart } | { readonly part?: undefined; readonly exchanged: boolean; readonly moved: number };

/**
 * Expands the states after `step` points in the grouped run. When their successors would outgrow
 * it, it is left as it was (its states having changed owner, at a window's first step: `exchanged`,
 * the step's end with the peers behind it) for the pipeline.
 */
export function groupStep(context: GroupStepContext, step: number, routing: StepPlan | undefined): GroupStepOutcome {
  const { run, count, clock, router, table } = context;
  const { width } = count;
  const y = step % width;
  const atBoundary = y === 0 && step > 0;
  const inModuli = context.moduliAt(step);
  const outModuli = context.moduliAt(step + 1);
  const window = groupWindow(step, count);
  clock.reset();
  let moved = 0;
  const exchanged = router !== undefined && routing?.owners !== undefined;
  if (exchanged) {
    const started = performance.now();
    router.beginStep(inModuli.length);
    context.receiveInRun(true);
    try {
      const rows = routing.window!.rows;
      moved = run.sendAway(y, width, window, rows, routing.owners!, router.self, router.workers, (to, states, residues, n) =>
        router.send(to, states, residues, n),
      );
      router.endStep();
    } finally {
      context.receiveInRun(false);
    }
    run.settle(y, width);
    clock.add(PHASE_INDEX.aggregate, performance.now() - started);
  }
  const extender = outModuli.length > inModuli.length ? new ResidueExtender(outModuli, inModuli.length, outModuli.length) : undefined;
  const dropped = new Float64Array(outModuli.length);
  const legal = atBoundary ? { sums: new Float64Array(inModuli.length), moduli: inModuli } : undefined;
  const started = performance.now();
  const result = run.step(y, width, window, outModuli, extender, dropped, legal);
  if (!result.done) return { exchanged, moved };
  clock.add(PHASE_INDEX.aggregate, result.regroupMs);
  clock.add(PHASE_INDEX.expand, performance.now() - started - result.regroupMs);
  const sample = routing?.sample;
  const histogram = sample ? run.sampleKeys({ ...sample, column: Math.floor((step + 1) / width) }, width, sample.mask) : undefined;
  // The next step starts a window among several workers: should it go through the state table, its plan is these states'.
  if (sample) table.foresee((into, shift) => run.foresee(into, shift));
  const part: StepPart = {
    statesIn: result.statesIn,
    successors: result.successors,
    spilled: 0,
    held: run.count,
    fitsInMemory: true,
    dropped: Array.from(dropped),
    legal: legal && Array.from(legal.sums),
    moved,
    histogram,
  };
  return { part };
}
