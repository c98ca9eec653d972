/**
 * A pass's memory plan for its workers: the usual split of the budget, or, when the table cannot
 * hold the largest steps, one that keeps whole in memory the steps whose states carry fewer
 * residues (PlanChoices.wholeSteps) where that moves enough states off the disk. The pass in one
 * process and a partitioned count's tasks, which keep a window's steps in memory, choose alike.
 */

import { maxStatesAfter } from '../board/table1.js';
import { residuesAt } from '../residues/growth.js';
import { MemoryPlan, planMemory, statesInMemory } from './budget.js';

export interface PassPlanSetup {
  readonly memory: number;
  readonly width: number;
  readonly columns: number;
  /** The pass's moduli. */
  readonly moduli: readonly number[];
  readonly fanIn: number;
  /** Threads sharing the budget, each with the plan. */
  readonly threads: number;
  /** Plans that together hold a step's states: the threads of every process of the count. */
  readonly holders: number;
  /** A partitioned count's owners, and the workers each thread serves. */
  readonly owners?: { owners: number; served?: number };
  readonly shardBytes?: number;
}

export function passPlan(setup: PassPlanSetup): MemoryPlan {
  const { memory, width, moduli, fanIn, threads, owners, shardBytes } = setup;
  const plan = (wholeSteps: boolean) => planMemory(memory, moduli.length, fanIn, width, threads, owners, { shardBytes, wholeSteps });
  const usual = plan(false);
  if (!usual.mayOverflow) return usual;
  // By the plan's costs (count/plan.ts) a state moved into memory saves about 0.4 µs, and a state
  // on disk pays a few percent more: worth it when at least a tenth as many move as stay.
  const whole = plan(true);
  const kept = statesKeptInMemory(setup, whole);
  const moved = kept - statesKeptInMemory(setup, usual);
  return moved > (statesKeptInMemory(setup) - kept) / 10 ? whole : usual;
}

/** States of a pass's steps, by Table 1's bound, that fit in the in-memory runs of its holders (all, without a plan). */
function statesKeptInMemory({ width, columns, moduli, holders }: PassPlanSetup, plan?: MemoryPlan): number {
  let kept = 0;
  for (let step = 0; step <= width * columns; step++) {
    const states = maxStatesAfter(width, step);
    if (!plan || states <= holders * statesInMemory(plan, residuesAt(moduli, step, { width, columns }))) kept += states;
  }
  return kept;
}
