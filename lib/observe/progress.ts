/**
 * What a running count tells its caller: events, in order. The engine emits them; presenting them
 * (a bar on a terminal, lines in a log) is the caller's business (cli/progress-display.ts).
 * Steps and passes count from 1 in events as in the step log, the bar and the messages.
 */

import { STEP_LOG_FORMAT, STEP_LOG_VERSION, type StepLogEntry } from '../format/step-log.js';
import { nsPerState } from './phase-clock.js';

/**
 * What the engine measures of a step as it runs: `step` points were placed in its input (0-based),
 * phases in milliseconds. Callers never see it: stepReport turns it into the step log's terms.
 */
export interface StepFigures {
  /** Points placed in the step's input; the step places one more. */
  readonly step: number;
  /** 0-based. */
  readonly pass: number;
  /** Distinct input states, and records read for them (redundancy = records / states). */
  readonly statesIn: number;
  readonly recordsIn: number;
  readonly runsIn: number;
  readonly successors: number;
  /** Run files written by this step and their bytes; 0 when it stayed in memory. */
  readonly runsOut: number;
  readonly bytesOut: number;
  readonly seconds: number;
  /** Milliseconds per phase (PHASES), summed over workers: the cost model. */
  readonly phases: number[];
  /** Slots the table's inserts probed beyond their home slots. */
  readonly probes: number;
  /**
   * Several workers: records sent between them, and the busiest one's input against the mean (a
   * thread's states; in a partitioned count, each of the P·W workers' records read).
   */
  readonly moved?: number;
  readonly busiest?: number;
}

/**
 * A finished step as events, CountResult.steps and the step log all give it: step s (1 … width ×
 * columns) places the s-th point, pass p is 1 … passes, and the cost model is in nanoseconds per
 * input state. Beside the log's fields, the table's probes beyond their home slots.
 */
export interface StepReport extends StepLogEntry {
  readonly probes: number;
}

/** The report of a step the engine has measured, in the step log's terms. */
export function stepReport(
  figures: StepFigures,
  count: { readonly width: number; readonly columns: number; readonly passes: number; readonly workers: number },
  finishedAt: Date = new Date(),
): StepReport {
  const states = figures.statesIn;
  return {
    format: STEP_LOG_FORMAT,
    version: STEP_LOG_VERSION,
    width: count.width,
    columns: count.columns,
    pass: figures.pass + 1,
    passes: count.passes,
    step: figures.step + 1,
    steps: count.width * count.columns,
    workers: count.workers,
    states,
    recordsIn: figures.recordsIn,
    runsIn: figures.runsIn,
    redundancy: figures.runsIn > 0 ? figures.recordsIn / Math.max(states, 1) : 1,
    successors: figures.successors,
    runsOut: figures.runsOut,
    bytesOut: figures.bytesOut,
    seconds: figures.seconds,
    nsPerState: nsPerState(figures.phases, states),
    ...(count.workers > 1 && figures.moved !== undefined ? { moved: figures.moved, busiest: figures.busiest } : {}),
    finishedAt: finishedAt.toISOString(),
    probes: figures.probes,
  };
}

export type ProgressEvent =
  /**
   * Pass `pass` of `passes` (from 1) begins: `steps` steps over a sweep `width` points wide, the
   * first to run being `firstStep` (1, or where an interrupted count resumes); `workers` threads
   * share its states (a partitioned count's tasks' in all).
   */
  | {
      readonly type: 'pass-start';
      readonly pass: number;
      readonly passes: number;
      readonly width: number;
      readonly steps: number;
      readonly firstStep: number;
      readonly workers: number;
    }
  /** Something worth telling the user, such as where a count resumes. */
  | { readonly type: 'note'; readonly message: string }
  /** Step `step` (1 … steps) begins: it places the step-th point. */
  | { readonly type: 'step-start'; readonly step: number }
  /** States expanded so far in the current step. */
  | { readonly type: 'advance'; readonly states: number }
  | { readonly type: 'step-end'; readonly report: StepReport }
  | { readonly type: 'done' };

export type OnProgress = (event: ProgressEvent) => void;

export const ignoreProgress: OnProgress = () => {};

/*
 * Steps are named to the user as the progress bar, --stats and the step log number them: step s
 * places the s-th point, 1 … width × columns, and its states are those of the folder step-<s>.
 */

/** The note of a count that resumes: `done` steps of `steps` are complete in `folder`. */
export function resumeNote(done: number, steps: number, folder: string): string {
  if (done === 0) return `no step is complete yet in ${folder}, only the empty board: starting at step 1`;
  if (done >= steps) return `all ${steps} steps are complete in ${folder}: the count is summed again from step ${steps}`;
  const complete = done === 1 ? `step 1 of ${steps} is` : `steps 1–${done} of ${steps} are`;
  return `${complete} complete in ${folder}: resuming at step ${done + 1}`;
}

/** Where a stopped count stands: the step the same command resumes at (1: nothing to resume from), and the folder it resumes from. */
export interface StopPoint {
  readonly resumeAt: number;
  readonly steps: number;
  readonly folder: string;
  /** Of several passes, the one stopped (from 1). */
  readonly pass?: { readonly pass: number; readonly passes: number };
  /** A step done in memory that the stop could not write to disk, and why. */
  readonly unsaved?: { readonly step: number; readonly problem: string };
}

/** What a stopped count says: one line, with the one step the same command resumes at. */
export function stoppedMessage({ resumeAt, steps, folder, pass, unsaved }: StopPoint): string {
  const of = `of ${steps}${pass && pass.passes > 1 ? ` in pass ${pass.pass} of ${pass.passes}` : ''}`;
  const resume = resumeAt <= 1 ? `starts again at step 1 ${of}` : `resumes at step ${resumeAt} ${of}`;
  if (unsaved)
    return `stopped, but ${unsaved.problem}: step ${unsaved.step} could not be written to ${folder}, and the same command ${resume}`;
  return resumeAt <= 1 ? `stopped; the same command ${resume}` : `stopped; the same command ${resume}, from ${folder}`;
}
