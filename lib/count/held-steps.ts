/**
 * Which steps of a partitioned count its tasks keep in memory instead of writing them to the
 * scratch folder (lib/cluster/task.ts): those inside a window, when each task process serves one
 * part, its layout can (holdsWindows), and the step's states (as many as `statesAfter` expects) fit
 * the tasks' in-memory runs. For --plan's bytes and time.
 */

import type { Sweep } from '../board/shape.js';
import { defaultWindowRows, isWindowStart } from '../border/window-key.js';
import { holdsWindows, unitsOf } from '../cluster/task-layout.js';
import { statesInMemory } from '../engine/budget.js';
import { residuesAt } from '../residues/growth.js';
import type { EngineSetup } from './engine-types.js';
import type { PartitionOptions } from './options.js';

export interface HeldSteps {
  /** Whether the states after `step` points stay in the tasks' memory. */
  held(step: number): boolean;
  /** Whether the states after `step` points were made at a window's first step: they changed owner, and some are written by two tasks. */
  exchanged(step: number): boolean;
}

export function heldSteps(
  sweep: Sweep,
  partitioned: PartitionOptions,
  setup: EngineSetup,
  windowRows: number | undefined,
  cores: number,
  statesAfter: (step: number) => number,
): HeldSteps {
  const { width, columns } = sweep;
  const steps = width * columns;
  const { partitions } = partitioned;
  const threads = setup.threads ?? 1;
  const owners = partitions * setup.workers;
  const rows = windowRows ?? defaultWindowRows(width, owners);
  // Slurm runs a process a part; the local launcher as many as the cores hold, each serving parts in turn beyond that.
  const onePartEach = partitioned.launcher === 'slurm' || unitsOf(partitions, Math.floor(cores / threads)).every((u) => u.length === 1);
  const holding = onePartEach && holdsWindows({ workers: setup.workers, partitions }, threads);
  const exchanged = (step: number) => step > 0 && isWindowStart((step - 1) % width, rows);
  return {
    exchanged,
    held: (step) =>
      holding &&
      step > 0 &&
      step < steps &&
      !exchanged(step) &&
      statesAfter(step) <= partitions * threads * statesInMemory(setup.plans[0], residuesAt(setup.passes[0], step, { width, columns })),
  };
}
