/**
 * Progress on stderr. On a terminal, one line redrawn in place and cut to the terminal's width: a
 * bar with pass, step, states, rate, elapsed time and ETA. Otherwise a plain line per finished
 * step. --quiet silences both, not the notes (warnings, where a count resumes, why it stopped). Steps
 * are numbered 1 … width × columns, as --stats numbers them.
 */

import { EtaModel } from '../lib/observe/eta.js';
import type { OnProgress, ProgressEvent, StepReport } from '../lib/observe/progress.js';
import { shortenPaths } from '../lib/shared/errors.js';
import { formatCount, formatDuration } from '../lib/shared/units.js';
import { counted, plural } from '../lib/shared/plural.js';

/** What a display writes to: a terminal has isTTY and columns. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

/** Milliseconds since some fixed moment; Date.now unless a test injects another. */
export type Clock = () => number;

export function progressDisplay(stream: ProgressStream, quiet: boolean, clock: Clock = Date.now): OnProgress {
  if (quiet)
    return (event) => {
      if (event.type === 'note') stream.write(`${noteLine(event.message)}\n`);
    };
  const display = stream.isTTY ? new BarDisplay(stream, clock) : new LineDisplay(stream, clock);
  return (event) => display.handle(event);
}

/** A note as it is printed, in the words of gocount's other messages. */
function noteLine(message: string): string {
  return `gocount: ${shortenPaths(message)}`;
}

/** What both displays track: pass and step, elapsed time, and the ETA model fed with every finished step. */
abstract class Tracker {
  /** The pass and step under way, from 1 as events number them. */
  protected pass = 1;
  protected passes = 1;
  protected steps = 1;
  protected step = 1;
  protected stepStates = 0;
  protected readonly started: number;
  protected stepStarted: number;
  private model?: EtaModel;

  constructor(
    protected readonly stream: ProgressStream,
    protected readonly clock: Clock,
  ) {
    this.started = clock();
    this.stepStarted = this.started;
  }

  handle(event: ProgressEvent): void {
    switch (event.type) {
      case 'pass-start':
        this.pass = event.pass;
        this.passes = event.passes;
        this.steps = event.steps;
        this.model ??= new EtaModel(event.width, event.steps, event.passes, event.workers);
        break;
      case 'note':
        this.note(noteLine(event.message));
        break;
      case 'step-start':
        this.step = event.step;
        this.stepStates = 0;
        this.stepStarted = this.clock();
        break;
      case 'advance':
        this.stepStates = event.states;
        this.advanced();
        break;
      case 'step-end':
        // The model numbers a step by the points placed in its input.
        this.model?.stepDone(event.report.step - 1, event.report.states, event.report.seconds);
        this.stepEnded(event.report);
        break;
      case 'done':
        this.done();
        break;
    }
  }

  protected note(line: string): void {
    this.stream.write(`${line}\n`);
  }

  protected advanced(): void {}
  protected abstract stepEnded(report: StepReport): void;
  protected done(): void {}

  protected elapsed(): number {
    return (this.clock() - this.started) / 1000;
  }

  /** Seconds left: after a finished step, from the next one; during a step, from within it. */
  protected eta(finished: boolean): number {
    if (!this.model) return NaN;
    if (finished) return this.model.secondsLeft(this.pass - 1, this.step);
    return this.model.secondsLeft(this.pass - 1, this.step - 1, (this.clock() - this.stepStarted) / 1000);
  }

  protected where(): string {
    const pass = this.passes > 1 ? `pass ${this.pass}/${this.passes} ` : '';
    return `${pass}step ${this.step}/${this.steps}`;
  }
}

/** A line per finished step, at most one every 2 seconds (and the last), so small counts stay quiet. */
class LineDisplay extends Tracker {
  private lastLine: number;

  constructor(stream: ProgressStream, clock: Clock) {
    super(stream, clock);
    this.lastLine = this.started;
  }

  protected stepEnded(report: StepReport): void {
    const now = this.clock();
    const last = this.pass === this.passes && report.step === this.steps;
    if (now - this.lastLine < 2000 && !(last && now - this.started >= 2000)) return;
    this.lastLine = now;
    const rate = report.states / Math.max(report.seconds, 1e-3);
    const files = report.runsOut > 0 ? `, ${counted(report.runsOut, 'run')}` : '';
    this.stream.write(
      `${this.where()}: ${formatCount(report.states)} ${plural(report.states, 'state')} in ${formatDuration(report.seconds)} ` +
        `(${formatCount(rate)}/s${files}), ${formatDuration(this.elapsed())} elapsed, ETA ${formatDuration(this.eta(true))}\n`,
    );
  }
}

/** The narrowest bar worth drawing; below it the bar goes and the text stays. */
const MIN_BAR = 10;

class BarDisplay extends Tracker {
  private lastDraw = -Infinity;

  protected override advanced(): void {
    const now = this.clock();
    if (now - this.lastDraw > 200) this.draw(false);
  }

  protected stepEnded(): void {
    this.draw(true);
  }

  protected override note(line: string): void {
    this.stream.write(`\r\x1b[K${line}\n`);
  }

  protected override done(): void {
    this.stream.write('\r\x1b[K');
  }

  private draw(finished: boolean): void {
    const now = this.clock();
    this.lastDraw = now;
    this.stream.write(`\r\x1b[K${this.line(finished, now)}`);
  }

  /** The line, at most the terminal's width less one column (a full line would wrap on some terminals). */
  line(finished: boolean, now: number): string {
    const room = Math.max(20, (this.stream.columns ?? 80) - 1);
    const total = this.passes * this.steps;
    const done = (this.pass - 1) * this.steps + this.step - (finished ? 0 : 1);
    const rate = this.stepStates / Math.max((now - this.stepStarted) / 1000, 1e-3);
    const parts = [
      this.where(),
      `${formatCount(this.stepStates)} ${plural(this.stepStates, 'state')}`,
      `${formatCount(rate)}/s`,
      `${formatDuration(this.elapsed())} elapsed`,
      `ETA ${formatDuration(this.eta(finished))}`,
    ];
    // Drop the least useful parts first (the rate, then the states) until the text leaves room for a bar.
    for (const drop of [2, 1]) {
      if (parts.join(' · ').length + MIN_BAR + 3 <= room) break;
      parts.splice(drop, 1);
    }
    const text = parts.join(' · ');
    const width = room - text.length - 3;
    if (width < MIN_BAR) return text.slice(0, room);
    const filled = Math.round((width * done) / total);
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}`;
  }
}
