/** Figures of a finished count: per step (--stats) and in total (--stats, npm run bench). */

import { formatBytes, formatCount, formatDuration } from '../units.js';
import type { StepReport } from './progress.js';

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
}

export function summarize(reports: readonly StepReport[], seconds: number): CountStats {
  const statesExpanded = reports.reduce((n, r) => n + r.statesIn, 0);
  const fromFiles = reports.filter((r) => r.runsIn > 0);
  const filesStates = fromFiles.reduce((n, r) => n + r.statesIn, 0);
  return {
    seconds,
    statesExpanded,
    statesPerSecond: statesExpanded / Math.max(seconds, 1e-3),
    maxStates: reports.reduce((n, r) => Math.max(n, r.statesIn), 0),
    runsWritten: reports.reduce((n, r) => n + r.runsOut, 0),
    bytesWritten: reports.reduce((n, r) => n + r.bytesOut, 0),
    redundancy: filesStates > 0 ? fromFiles.reduce((n, r) => n + r.recordsIn, 0) / filesStates : 1,
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
}

export function formatStepTable(reports: readonly StepReport[], width: number): string {
  const lines = ['pass  step  col   y      states   runs-in  redundancy  successors  runs-out       written     time'];
  for (const r of reports) {
    const redundancy = r.runsIn > 0 ? (r.recordsIn / Math.max(r.statesIn, 1)).toFixed(3) : '-';
    lines.push(
      [
        String(r.pass + 1).padStart(4),
        String(r.step).padStart(5),
        String(Math.floor(r.step / width) + 1).padStart(4),
        String(r.step % width).padStart(3),
        String(r.statesIn).padStart(11),
        String(r.runsIn).padStart(9),
        redundancy.padStart(11),
        String(r.successors).padStart(11),
        String(r.runsOut).padStart(9),
        formatBytes(r.bytesOut).padStart(13),
        formatDuration(r.seconds).padStart(8),
      ].join(' '),
    );
  }
  return lines.join('\n');
}

export function formatSummary(stats: CountStats): string {
  return [
    `wall time ${formatDuration(stats.seconds)}`,
    `${formatCount(stats.statesExpanded)} states expanded (${formatCount(stats.statesPerSecond)}/s)`,
    `largest step ${formatCount(stats.maxStates)} states`,
    `${stats.runsWritten} runs, ${formatBytes(stats.bytesWritten)} written`,
    `redundancy ${stats.redundancy.toFixed(3)}`,
    `peak RSS ${formatBytes(stats.peakRss)}`,
  ].join(' · ');
}
