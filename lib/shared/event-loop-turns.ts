/**
 * Long synchronous work (the toolkit's game search, its sampling) made stoppable: it asks often
 * whether a turn is due, which reads the clock only every so many asks, and every TURN_MS gives the
 * event loop a turn (timers, I/O, an AbortSignal's timeout) and stops if its signal was aborted.
 */

import { AbortedError } from './errors.js';

/** How long the work runs between two turns of the event loop. */
export const TURN_MS = 50;

export class EventLoopTurns {
  private last = performance.now();
  private untilClock: number;

  /**
   * `asksPerClock`: asks between two readings of the clock, so that a reading costs little beside
   * the work between asks; `stopped` makes the error thrown once the signal is aborted.
   */
  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly stopped: () => AbortedError,
    private readonly asksPerClock = 1,
  ) {
    this.untilClock = asksPerClock;
    this.throwIfAborted();
  }

  /** Whether a turn is due: cheap, to be asked between small pieces of the work. */
  due(): boolean {
    if (--this.untilClock > 0) return false;
    this.untilClock = this.asksPerClock;
    return performance.now() - this.last >= TURN_MS;
  }

  /** Gives the event loop a turn, then throws the `stopped` error if the signal was aborted meanwhile. */
  async take(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.last = performance.now();
    this.throwIfAborted();
  }

  private throwIfAborted(): void {
    if (this.signal?.aborted) throw this.stopped();
  }
}
