/**
 * The engine's cost model: where a step's time goes, phase by phase. Each partition times its own
 * phases around whole batches (thousands of states), so the clock costs nothing per state. The
 * figures are thread time spent in each phase; summed over partitions they can exceed the wall time.
 */

export const PHASES = ['read', 'expand', 'aggregate', 'sort', 'write', 'drain'] as const;
export type Phase = (typeof PHASES)[number];

/** What each phase covers, for the documentation and the --stats legend. */
export const PHASE_MEANING: Record<Phase, string> = {
  read: 'reading run files and merging them (and merge rounds above --fan-in)',
  expand: 'successor expansion, with the residue copies, the dropped and legal tallies, and queueing the successors other workers own',
  aggregate: 'adding successors into the state table (own and from other workers)',
  sort: 'sorting the table\'s states before a run is written',
  write: 'encoding records and writing run files',
  drain: 'moving a step that fits into the in-memory run',
};

export const PHASE_INDEX = Object.fromEntries(PHASES.map((phase, i) => [phase, i])) as Record<Phase, number>;

export class PhaseClock {
  /** Milliseconds per phase since the last reset. */
  readonly ms = new Float64Array(PHASES.length);

  reset(): void {
    this.ms.fill(0);
  }

  /** Runs fn and charges its time to phase. */
  time<T>(phase: number, fn: () => T): T {
    const started = performance.now();
    try {
      return fn();
    } finally {
      this.ms[phase] += performance.now() - started;
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
