/**
 * A task process of a partitioned count (`gocount task DIR --part J`, as the launchers start it):
 * it serves its parts for every step of the pass. It waits for the driver to commit a step (the
 * step's manifest), expands its parts of it with the workers it keeps across steps, writes their
 * done-markers, and waits for the next, until the pass's last step is done, the pass is over, or
 * its driver is gone. Between steps it costs a few file checks, not a process start.
 */

import fse from 'fs-extra';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { MANIFEST_FILE, RESULT_FILE } from '../format/folder-names.js';
import { counted } from '../shared/plural.js';
import { DriverWatch } from './driver-presence.js';
import { PartitionTask, TaskOutcome, TaskSetup } from './task.js';
import { TaskStatusFile, taskStatusPath } from './task-status.js';
import { waitFor } from './wait-for-files.js';

export interface ServeOptions extends TaskSetup {
  /** The parts this process serves, one after another in each step. */
  readonly parts: readonly number[];
  /** Where the status file goes: the count folder's logs/. */
  readonly logDir?: string;
  /** Each part's outcome, and why the process stops. */
  readonly onLine?: (line: string) => void;
  /** How long the driver's lock may go unrefreshed before the task stops (tests shorten it). */
  readonly driverSilenceMs?: number;
}

/** Why a task process stopped: the pass's last step is done, or it had to stop waiting. */
export interface ServeOutcome {
  readonly stepsRun: number;
  readonly reason: string;
}

export async function serveTask(options: ServeOptions): Promise<ServeOutcome> {
  const parts = [...new Set(options.parts)];
  // A process serving one part keeps that part's states in memory through a window's steps.
  const task = PartitionTask.open({ ...options, holdStates: parts.length === 1 });
  const { scratch } = task;
  parts.forEach((part) => task.checkPart(part));
  const driver = new DriverWatch(scratch.root, options.driverSilenceMs);
  if (!driver.present)
    throw new UsageError(
      `${scratch.root}: no driver is running this count (it has no lock); a task serves its driver, or runs one step by hand with --step`,
    );
  const line = options.onLine ?? (() => {});
  const status = new TaskStatusFile(taskStatusPath(options.logDir ?? path.join(scratch.root, 'logs'), parts), parts);
  const resultFile = path.join(scratch.root, RESULT_FILE);
  // Why to stop waiting for a manifest, if there is a reason.
  const overOrGone = (): string | undefined => {
    if (fse.pathExistsSync(resultFile)) return 'the pass is finished';
    if (!fse.pathExistsSync(scratch.root)) return 'the count folder is gone';
    const gone = driver.gone();
    return gone === undefined ? undefined : `the driver is gone: ${gone}`;
  };
  let stepsRun = 0;
  const stopBeating = status.beatEvery();
  try {
    for (let step = latestCompleteStep(task); step < task.steps; step++) {
      status.write(step, undefined, 0, true);
      // Its status stays fresh while it waits: the task is alive.
      const stop = await waitForManifest(task, step, () => {
        status.write(step, undefined, 0, false);
        return overOrGone();
      });
      if (stop !== undefined) return { stepsRun, reason: stop };
      if (task.isComplete(step + 1)) continue; // committed without this process: it was started late
      for (const part of parts) {
        status.write(step, part, 0, true);
        const outcome = await task.runStep(step, part, (states) => status.write(step, part, states, false));
        line(outcomeLine(part, step, outcome));
      }
      stepsRun++;
    }
    status.write(task.steps, undefined, 0, true);
    return { stepsRun, reason: 'the last step is done' };
  } finally {
    stopBeating();
    status.close();
    await task.close();
  }
}

export function outcomeLine(part: number, step: number, { alreadyDone, marker, countedAgainFrom }: TaskOutcome): string {
  const kept = marker.held ? 'its successors kept in memory' : `${counted(marker.runs.length, 'run')} written`;
  const again =
    countedAgainFrom === undefined ? '' : ` (its states counted again from step ${countedAgainFrom}, where they were last written)`;
  const what = alreadyDone ? 'was done already' : `done: ${counted(marker.statesIn, 'state')} expanded${again}, ${kept}`;
  return `task ${part} of step ${step} ${what}`;
}

/** Where a process starts: the latest complete step, or step 0 before the driver has written it. */
function latestCompleteStep(task: PartitionTask): number {
  const complete = task.scratch.steps().filter((step) => task.isComplete(step));
  return complete.at(-1) ?? 0;
}

/** Waits until `step` is complete; undefined then, else why the task stops waiting. */
async function waitForManifest(task: PartitionTask, step: number, overOrGone: () => string | undefined): Promise<string | undefined> {
  const dir = task.scratch.stepDir(step);
  const manifest = path.join(dir, MANIFEST_FILE);
  const outcome = await waitFor<{ stop?: string }>(
    () => {
      if (fse.pathExistsSync(manifest)) return {};
      const stop = overOrGone();
      return stop === undefined ? undefined : { stop };
    },
    { watch: dir },
  );
  return outcome.stop;
}
