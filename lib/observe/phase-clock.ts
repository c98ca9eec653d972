/**
 * The engine's cost model: where a step's time goes, phase by phase. Each worker times its own
 * phases around whole batches (thousands of states), so the clock costs nothing per state. The
 * figures are thread time spent in each phase; summed over workers they can exceed the wall time.
 */

import { PHASES, type Phase } from '../format/step-log.js';

/** Milliseconds per phase as nanoseconds per state, rounded: the cost model's unit. */
export function nsPerState(ms: ArrayLike<number>, states: number): Record<Phase, number> {
  return Object.fromEntries(PHASES.map((phase, i) => [phase, Math.round((1e6 * ms[i]) / Math.max(states, 1))])) as Record<Phase, number>;
}

export const PHASE_INDEX = Object.fromEntries(PHASES.map((phase, i) => [phase, i])) as Record<Phase, number>;

export class PhaseClock {
  /** Milliseconds per phase since the last reset. */
  readonly ms = new Float64Array(PHASES.length);

  reset(): void {
    this.ms.fill(0);
  }

  /** Milliseconds timed inside the time() call under way, which that call does not charge again. */
  private inner = 0;

  /**
   * Runs fn and charges its time to phase, but for what fn times itself: a send that waits for room
   * in a peer's ring takes in this worker's own rings meanwhile (aggregate time, and write time when
   * they fill its table), which is not expand time as well.
   */
  time<T>(phase: number, fn: () => T): T {
    const started = performance.now();
    const outer = this.inner;
    this.inner = 0;
    try {
      return fn();
    } finally {
      const elapsed = performance.now() - started;
      this.ms[phase] += elapsed - this.inner;
      this.inner = outer + elapsed;
    }
  }

  add(phase: number, ms: number): void {
    this.ms[phase] += ms;
  }

  /** The times as a plain array (to send from a worker). */
  snapshot(): number[] {
    return Array.from(this.ms);
  }
}

/** Sums per-phase millisecond vectors. */
export function addPhaseTimes(into: number[], from: readonly number[]): number[] {
  for (let i = 0; i < PHASES.length; i++) into[i] = (into[i] ?? 0) + (from[i] ?? 0);
  return into;
}

export const noPhaseTimes = (): number[] => PHASES.map(() => 0);
