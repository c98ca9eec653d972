/**
 * Progress on stderr. On a terminal, one line redrawn in place: a bar with pass, step, states, rate
 * and ETA. Otherwise a plain line per finished step. --quiet silences both.
 */

import { formatCount, formatDuration } from '../units.js';

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
  /** Milliseconds per phase (PHASES), summed over partitions: the cost model. */
  readonly phases: number[];
  /** Slots the table's inserts probed beyond their home slots. */
  readonly probes: number;
}

export interface Progress {
  /** A pass of `steps` steps begins, at `firstStep` when it resumes after a crash. */
  passStart(pass: number, passes: number, steps: number, firstStep: number): void;
  /** A line worth telling the user, such as where a count resumes. */
  note(message: string): void;
  stepStart(step: number): void;
  /** States expanded so far in the current step. */
  advance(states: number): void;
  stepEnd(report: StepReport): void;
  done(): void;
}

export const silentProgress: Progress = {
  passStart() {},
  note() {},
  stepStart() {},
  advance() {},
  stepEnd() {},
  done() {},
};

export function progressFor(stream: NodeJS.WriteStream, quiet: boolean): Progress {
  if (quiet) return silentProgress;
  return stream.isTTY ? new BarProgress(stream) : new LineProgress(stream);
}

/** What both reporters track: pass and step counts, elapsed time, a running ETA. */
abstract class Tracker implements Progress {
  protected pass = 0;
  protected passes = 1;
  protected steps = 1;
  protected step = 0;
  protected stepStates = 0;
  protected readonly started = Date.now();
  protected stepStarted = Date.now();
  private stepsDone = 0;
  private stepsLeft = 0;
  private lastStepSeconds = 0;

  constructor(protected readonly stream: NodeJS.WriteStream) {}

  passStart(pass: number, passes: number, steps: number, firstStep: number): void {
    this.pass = pass;
    this.passes = passes;
    this.steps = steps;
    this.stepsLeft = (passes - pass) * steps - firstStep;
  }

  note(message: string): void {
    this.stream.write(`${message}\n`);
  }

  stepStart(step: number): void {
    this.step = step;
    this.stepStates = 0;
    this.stepStarted = Date.now();
  }

  advance(states: number): void {
    this.stepStates = states;
  }

  stepEnd(report: StepReport): void {
    this.stepsDone++;
    this.stepsLeft--;
    this.lastStepSeconds = report.seconds;
  }

  done(): void {}

  /**
   * Seconds left. Steps grow through the first columns and then stay about as large as the
   * latest, so the latest step's time is the better guide; the average step's is a floor.
   */
  protected eta(): number {
    const elapsed = (Date.now() - this.started) / 1000;
    if (this.stepsDone === 0) return NaN;
    return Math.max(elapsed / this.stepsDone, this.lastStepSeconds) * this.stepsLeft;
  }

  protected where(): string {
    const pass = this.passes > 1 ? `pass ${this.pass + 1}/${this.passes} ` : '';
    return `${pass}step ${this.step + 1}/${this.steps}`;
  }
}

/** A line per finished step, at most one every 2 seconds (and the last), so small counts stay quiet. */
class LineProgress extends Tracker {
  private lastLine = Date.now();

  override stepEnd(report: StepReport): void {
    super.stepEnd(report);
    const now = Date.now();
    const last = this.pass === this.passes - 1 && report.step === this.steps - 1;
    if (now - this.lastLine < 2000 && !(last && now - this.started >= 2000)) return;
    this.lastLine = now;
    const rate = report.statesIn / Math.max(report.seconds, 1e-3);
    const files = report.runsOut > 0 ? `, ${report.runsOut} runs` : '';
    this.stream.write(`${this.where()}: ${formatCount(report.statesIn)} states in ${formatDuration(report.seconds)} (${formatCount(rate)}/s${files}), ETA ${formatDuration(this.eta())}\n`);
  }
}

class BarProgress extends Tracker {
  private lastDraw = 0;

  override advance(states: number): void {
    super.advance(states);
    const now = Date.now();
    if (now - this.lastDraw > 200) this.draw(now);
  }

  override stepEnd(report: StepReport): void {
    super.stepEnd(report);
    this.draw(Date.now());
  }

  override note(message: string): void {
    this.stream.write(`\r\x1b[K${message}\n`);
  }

  override done(): void {
    this.stream.write('\r\x1b[K');
  }

  private draw(now: number): void {
    this.lastDraw = now;
    const total = this.passes * this.steps;
    const done = this.pass * this.steps + this.step;
    const width = 24;
    const filled = Math.round((width * done) / total);
    const rate = this.stepStates / Math.max((now - this.stepStarted) / 1000, 1e-3);
    const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
    this.stream.write(`\r\x1b[K[${bar}] ${this.where()} · ${formatCount(this.stepStates)} states · ${formatCount(rate)}/s · ETA ${formatDuration(this.eta())}`);
  }
}
