/**
 * What a count stopped at once (a second Ctrl-C) loses, followed from its progress events: the
 * steps done or under way since the last one on disk, and the step the same command resumes at.
 */

import type { ProgressEvent } from '../lib/observe/progress.js';

export class UnsavedSteps {
  /** In the pass under way, the first step not on disk; undefined before a pass starts. */
  private resumeAt?: number;
  /** The latest step begun. */
  private latest = 0;

  track(event: ProgressEvent): void {
    if (event.type === 'pass-start') {
      this.resumeAt = event.firstStep;
      this.latest = event.firstStep - 1;
    } else if (event.type === 'step-start') {
      this.latest = event.step;
    } else if (event.type === 'step-end' && event.report.runsOut > 0) {
      // A step that wrote run files is on disk: its manifest is written before its step-end.
      this.resumeAt = event.report.step + 1;
    }
  }

  /** What the second signal's line says after "stopped at once". */
  lost(): string {
    if (this.resumeAt === undefined) return '; the same command resumes from the last complete step';
    const resume = this.resumeAt === 1 ? 'starts again at step 1' : `resumes at step ${this.resumeAt}`;
    if (this.latest < this.resumeAt) return `: nothing is lost, and the same command ${resume}`;
    const lost = this.latest === this.resumeAt ? `step ${this.latest} is` : `steps ${this.resumeAt}–${this.latest} are`;
    return `: ${lost} lost, and the same command ${resume}`;
  }
}
