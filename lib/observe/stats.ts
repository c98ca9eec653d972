/** The figures of a finished count, in total: time, states, runs, bytes, memory, the cost model. */

import type { StepReport } from './progress.js';
import { PHASES, type Phase } from '../format/step-log.js';

export interface CountStats {
  readonly seconds: number;
  /** States expanded over all steps and passes. */
  readonly statesExpanded: number;
  readonly statesPerSecond: number;
  /** The largest step's distinct states. */
  readonly maxStates: number;
  readonly runsWritten: number;
  readonly bytesWritten: number;
  /** Records read from run files per distinct state, over the steps that read files (1 when none did). */
  readonly redundancy: number;
  /** Peak resident set size of this process, bytes. */
  readonly peakRss: number;
  /** CPU time of this process and its worker threads, seconds. */
  readonly userSeconds: number;
  readonly systemSeconds: number;
  /** The cost model: thread nanoseconds per expanded state in each phase, over all steps. */
  readonly nsPerState: Record<Phase, number>;
  /** Slots probed beyond the home slot, per successor inserted. */
  readonly probesPerSuccessor: number;
  /**
   * With several worker threads: records moved between them per expanded state, and the busiest
   * one's share against the mean over the steps of at least half the largest (the worst of them).
   */
  readonly movedPerState?: number;
  readonly busiest?: number;
}

export function summarize(reports: readonly StepReport[], seconds: number): CountStats {
  const statesExpanded = reports.reduce((n, r) => n + r.states, 0);
  const fromFiles = reports.filter((r) => r.runsIn > 0);
  const filesStates = fromFiles.reduce((n, r) => n + r.states, 0);
  const withOwners = reports.filter((r) => r.moved !== undefined);
  const maxStates = reports.reduce((n, r) => Math.max(n, r.states), 0);
  const owners =
    withOwners.length === 0
      ? {}
      : {
          movedPerState: withOwners.reduce((n, r) => n + r.moved!, 0) / Math.max(statesExpanded, 1),
          busiest: Math.max(...withOwners.filter((r) => r.states >= maxStates / 2).map((r) => r.busiest ?? 1)),
        };
  return {
    ...owners,
    seconds,
    statesExpanded,
    statesPerSecond: statesExpanded / Math.max(seconds, 1e-3),
    maxStates: reports.reduce((n, r) => Math.max(n, r.states), 0),
    runsWritten: reports.reduce((n, r) => n + r.runsOut, 0),
    bytesWritten: reports.reduce((n, r) => n + r.bytesOut, 0),
    redundancy: filesStates > 0 ? fromFiles.reduce((n, r) => n + r.recordsIn, 0) / filesStates : 1,
    peakRss: process.resourceUsage().maxRSS * 1024,
    userSeconds: process.resourceUsage().userCPUTime / 1e6,
    systemSeconds: process.resourceUsage().systemCPUTime / 1e6,
    nsPerState: Object.fromEntries(
      PHASES.map((phase) => [
        phase,
        Math.round(reports.reduce((ns, r) => ns + r.nsPerState[phase] * r.states, 0) / Math.max(statesExpanded, 1)),
      ]),
    ) as Record<Phase, number>,
    probesPerSuccessor:
      reports.reduce((n, r) => n + r.probes, 0) /
      Math.max(
        1,
        reports.reduce((n, r) => n + r.successors, 0),
      ),
  };
}
