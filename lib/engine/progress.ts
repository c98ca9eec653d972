/**
 * What a running count tells its caller: events, in order. The engine emits them; presenting them
 * (a bar on a terminal, lines in a log) is the caller's business (cli/progress-display.ts).
 */

export interface StepReport {
  /** Points placed in the step's input; the step places one more. */
  readonly step: number;
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
}

export type ProgressEvent =
  /**
   * A pass of `steps` steps over a sweep `width` points wide begins, at `firstStep` when it resumes
   * an interrupted count; `workers` threads share its states (a partitioned count's tasks' in all).
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
  return `steps 1–${done} of ${steps} are complete in ${folder}: resuming at step ${done + 1}`;
}

/** Why a count stopped before step `next` (1-based), and what running it again does. */
export function stoppedMessage(next: number, steps: number, done: number | undefined, folder: string): string {
  const resume =
    done === undefined
      ? 'no step was on disk yet, so the same command starts it again'
      : `steps 1–${done} are complete in ${folder}, and the same command resumes at step ${done + 1}`;
  return `stopped before step ${next} of ${steps}; ${resume}`;
}
