/**
 * How a worker routes a step's successors (lib/border/window-key.ts): at a window's first
 * step by their parent's key, through the owner table the pass coordinator packed; inside a
 * window all to itself. The step before a window's first weighs its states by their keys for that
 * window, as its table drains them (or its grouped run holds them), so that the coordinator can pack
 * its owners by weight.
 */

import type { KeyWindow, StepRouting } from '../border/expander-kernel.js';
import { isWindowStart, STRING_KEYS_FROM } from '../border/window-key.js';
import type { SplitRule } from '../format/split-layout.js';
import { dealtOwners } from './window-owners.js';
import { maxStates } from '../board/table1.js';
import type { GroupWindow } from './grouped-run.js';

/**
 * At most one in SAMPLE_EVERY of the states a step drains is weighed (its key computed) for the next
 * window: those a hash of the state picks (window-key.as.ts, sampledState).
 */
export const SAMPLE_EVERY = 32;
/**
 * The states each worker weighs at a board's largest steps, at least: on small boards every one or
 * one in fewer than SAMPLE_EVERY. Weighing one in 32, 9×9 in 10 workers left the busiest worker
 * 1.17–1.20 times the mean over the larger steps; weighing all, 1.03.
 */
const WEIGHED_PER_WORKER = 1 << 16;

/** The mask that picks the states weighed (one in mask + 1) for a board `width` wide in `workers` workers. */
export function sampleMask(width: number, workers: number): number {
  let every = SAMPLE_EVERY;
  while (every > 1 && maxStates(width) / workers / every < WEIGHED_PER_WORKER) every /= 2;
  return every - 1;
}

/**
 * A step's routing and, at the step before a window's first, `sample`: that window, and which of
 * the step's states to weigh by their keys for it (one in mask + 1). The state table weighs them as
 * it drains them (lib/engine/state-table.ts), a group step's grouped run when the step ends.
 */
export interface StepPlan extends StepRouting {
  readonly sample?: KeyWindow & { readonly mask: number };
}

export function stepRouting(
  step: number,
  count: { readonly width: number; readonly columns: number; readonly windowRows: number; readonly workers: number },
  self: number,
  owners?: Uint16Array,
): StepPlan {
  const { width, columns, windowRows: rows, workers } = count;
  const y = step % width;
  const column = Math.floor(step / width);
  const routing: { self: number; owners?: Uint16Array; window?: KeyWindow; sample?: StepPlan['sample'] } = { self };
  if (isWindowStart(y, rows)) {
    routing.owners = owners ?? dealtOwners(workers);
    routing.window = { r: y, rows, lastColumn: column === columns - 1 };
  }
  const next = step + 1;
  if (next < width * columns && isWindowStart(next % width, rows))
    routing.sample = { r: next % width, rows, lastColumn: Math.floor(next / width) === columns - 1, mask: sampleMask(width, workers) };
  return routing;
}

/**
 * How a partitioned worker splits the successors of `step` by owner (lib/engine/owner-split.ts):
 * each to the owner of its key's bucket for the window that holds the step. Inside a window that
 * is the worker whose parent made it, as its key is its parent's; with more than STRING_KEYS_FROM
 * owners the keys tell strings apart too, and a few states change owner inside a window.
 */
export function splitRule(
  step: number,
  count: { readonly width: number; readonly columns: number; readonly windowRows: number; readonly workers: number },
  owners?: Uint16Array,
): SplitRule {
  const { width, columns, windowRows: rows, workers } = count;
  const y = step % width;
  const strings = workers > STRING_KEYS_FROM;
  return { r: y - (y % rows), rows, lastColumn: Math.floor(step / width) === columns - 1, owners: owners ?? dealtOwners(workers), strings };
}

/**
 * Rows of the windows whose key buckets group a grouped run's states (lib/engine/grouped-run.ts):
 * shorter windows leave more fields outside and split the states into more, smaller groups, whose
 * combining stays in cache, but put the states in new groups more often (docs/performance.md).
 */
export const GROUP_ROWS = 3;

/**
 * The window whose key buckets group the states of `step` in a grouped run: the window of the
 * workers' ownership that holds the step, cut into pieces of GROUP_ROWS rows, so that a group never
 * spans two owners.
 */
export function groupWindow(
  step: number,
  count: { readonly width: number; readonly columns: number; readonly windowRows: number },
): GroupWindow {
  const { width, columns, windowRows } = count;
  const y = step % width;
  const column = Math.floor(step / width);
  const start = y - (y % windowRows);
  const end = Math.min(width, start + windowRows);
  const r = start + Math.floor((y - start) / GROUP_ROWS) * GROUP_ROWS;
  return { r, rows: Math.min(GROUP_ROWS, end - r), lastColumn: column === columns - 1, column };
}
