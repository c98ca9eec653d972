/**
 * Progress on stderr. On a terminal, one line redrawn in place: a bar with pass, step, states, rate
 * and ETA. Otherwise a plain line per finished step. --quiet silences both.
 */

import type { OnProgress, ProgressEvent, StepReport } from '../lib/engine/progress.js';
import { ignoreProgress } from '../lib/engine/progress.js';
import { formatCount, formatDuration } from '../lib/units.js';

export function progressDisplay(stream: NodeJS.WriteStream, quiet: boolean): OnProgress {
  if (quiet) return ignoreProgress;
  const display = stream.isTTY ? new BarDisplay(stream) : new LineDisplay(stream);
  return (event) => display.handle(event);
}

/** What both displays track: pass and step counts, elapsed time, a running ETA. */
abstract class Tracker {
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

  handle(event: ProgressEvent): void {
    switch (event.type) {
      case 'pass-start':
        this.pass = event.pass;
        this.passes = event.passes;
        this.steps = event.steps;
        this.stepsLeft = (event.passes - event.pass) * event.steps - event.firstStep;
        break;
      case 'note':
        this.note(`gocount: ${event.message}`);
        break;
      case 'step-start':
        this.step = event.step;
        this.stepStates = 0;
        this.stepStarted = Date.now();
        break;
      case 'advance':
        this.stepStates = event.states;
        this.advanced();
        break;
      case 'step-end':
        this.stepsDone++;
        this.stepsLeft--;
        this.lastStepSeconds = event.report.seconds;
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
class LineDisplay extends Tracker {
  private lastLine = Date.now();

  protected stepEnded(report: StepReport): void {
    const now = Date.now();
    const last = this.pass === this.passes - 1 && report.step === this.steps - 1;
    if (now - this.lastLine < 2000 && !(last && now - this.started >= 2000)) return;
    this.lastLine = now;
    const rate = report.statesIn / Math.max(report.seconds, 1e-3);
    const files = report.runsOut > 0 ? `, ${report.runsOut} runs` : '';
    this.stream.write(
      `${this.where()}: ${formatCount(report.statesIn)} states in ${formatDuration(report.seconds)} ` +
        `(${formatCount(rate)}/s${files}), ETA ${formatDuration(this.eta())}\n`,
    );
  }
}

class BarDisplay extends Tracker {
  private lastDraw = 0;

  protected override advanced(): void {
    const now = Date.now();
    if (now - this.lastDraw > 200) this.draw(now);
  }

  protected stepEnded(): void {
    this.draw(Date.now());
  }

  protected override note(line: string): void {
    this.stream.write(`\r\x1b[K${line}\n`);
  }

  protected override done(): void {
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
    this.stream.write(
      `\r\x1b[K[${bar}] ${this.where()} · ${formatCount(this.stepStates)} states · ${formatCount(rate)}/s · ETA ${formatDuration(this.eta())}`,
    );
  }
}
