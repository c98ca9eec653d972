/**
 * The done-marker of a partition task: the last file the task writes, in the folder of the step it
 * made. It is the task's commit point: a task whose marker exists is finished, and the driver takes
 * the step's runs, dropped sums and column sums from the markers rather than from exit codes.
 */

import { RunFileError } from '../shared/errors.js';
import { readCheckedJson, writeCheckedJson } from './checked-json.js';
import type { HeldStates } from './manifest.js';
import type { RunSummary } from './run-writer.js';

export const TASK_FORMAT = 'gocount-task';
/** 2: the runs are split runs, each with every owner's totals in its own index: no totals per owner here. */
export const TASK_VERSION = 2;

export interface TaskMarker {
  readonly format: typeof TASK_FORMAT;
  readonly version: number;
  /** The step the task made: it expanded the states after step − 1 points. */
  readonly step: number;
  readonly part: number;
  readonly partitions: number;
  readonly workers: number;
  /** The moduli of the runs it wrote. */
  readonly moduli: number[];
  /** Its split runs, each with its totals and the worker that wrote it (`source`). */
  readonly runs: RunSummary[];
  /** Inside a window: the states its workers kept in memory instead (then it wrote no runs). */
  readonly held?: HeldStates[];
  /** States it expanded, and successors made. */
  readonly statesIn: number;
  readonly successors: number;
  /** What it sent to dropped successors, per modulus of the runs. */
  readonly dropped: number[];
  /** At a column boundary: the residues of the legal states it expanded, per modulus of its input. */
  readonly legal?: number[];
  /** The records each of its workers read (its sections of the step's split runs), in order. */
  readonly workerRecords?: number[];
  /** Records its runs sent to workers of other threads or tasks (undefined: a marker of an earlier version). */
  readonly moved?: number;
  /** At the step before a window's first: the sampled weights of the window's key buckets, u32 in base64 (window-owners.ts). */
  readonly histogram?: string;
  /** Milliseconds per phase (PHASES), summed over its workers, and its wall time. */
  readonly phases: number[];
  readonly seconds: number;
  readonly crc?: number;
}

export function writeTaskMarker(path: string, marker: TaskMarker): void {
  writeCheckedJson(path, marker);
}

export function readTaskMarker(path: string): TaskMarker {
  const marker = readCheckedJson<TaskMarker>(path, TASK_FORMAT, TASK_VERSION, 'done-marker');
  const integer = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  const wellFormed =
    [marker.step, marker.part, marker.partitions, marker.workers, marker.statesIn, marker.successors].every(integer) &&
    Array.isArray(marker.runs) &&
    marker.runs.every((run) => typeof run?.file === 'string' && integer(run.source) && Array.isArray(run.sums)) &&
    Array.isArray(marker.moduli) &&
    Array.isArray(marker.dropped) &&
    marker.dropped.length === marker.moduli.length &&
    (marker.histogram === undefined || typeof marker.histogram === 'string') &&
    (marker.held === undefined ||
      (Array.isArray(marker.held) &&
        marker.held.every((part) => integer(part?.worker) && integer(part.records) && Array.isArray(part.sums))));
  if (!wellFormed) throw new RunFileError(path, 'done-marker malformed');
  return marker;
}
