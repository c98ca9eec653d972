/** The figures of a finished count as text for stderr (--stats): per step, the cost model, in total. */

import { PHASES } from '../lib/format/step-log.js';
import type { StepReport } from '../lib/observe/progress.js';
import type { CountStats } from '../lib/observe/stats.js';
import { formatBytes, formatCount, formatDuration } from '../lib/shared/units.js';
import { counted, plural } from '../lib/shared/plural.js';

/**
 * The cost model per step: nanoseconds per input state in each phase (thread time, summed over
 * workers), their total, and the step's wall time per state.
 */
export function formatCostTable(reports: readonly StepReport[]): string {
  const head = ['pass', 'step', 'states', ...PHASES, 'total', 'wall', 'probes'];
  const lines = [head.map((h, i) => h.padStart(i === 2 ? 11 : 9)).join(' ')];
  const row = (pass: string, step: string, states: number, ns: readonly number[], seconds: number, probes: number, successors: number) =>
    [
      pass.padStart(9),
      step.padStart(9),
      String(states).padStart(11),
      ...ns.map((v) => v.toFixed(0).padStart(9)),
      ns
        .reduce((a, b) => a + b, 0)
        .toFixed(0)
        .padStart(9),
      ((1e9 * seconds) / Math.max(states, 1)).toFixed(0).padStart(9),
      (probes / Math.max(successors, 1)).toFixed(2).padStart(9),
    ].join(' ');
  for (const r of reports)
    lines.push(
      row(
        String(r.pass),
        String(r.step),
        r.states,
        PHASES.map((phase) => r.nsPerState[phase]),
        r.seconds,
        r.probes,
        r.successors,
      ),
    );
  const sum = (f: (r: StepReport) => number) => reports.reduce((n, r) => n + f(r), 0);
  const states = sum((r) => r.states);
  const ns = PHASES.map((phase) => sum((r) => r.nsPerState[phase] * r.states) / Math.max(states, 1));
  lines.push(
    row(
      'all',
      '',
      states,
      ns,
      sum((r) => r.seconds),
      sum((r) => r.probes),
      sum((r) => r.successors),
    ),
  );
  return `cost model, ns per input state (thread time summed over workers):\n${lines.join('\n')}`;
}

/**
 * The steps, one a line; with several worker threads also the records moved between them and the
 * busiest one's input states against the mean.
 */
export function formatStepTable(reports: readonly StepReport[], width: number): string {
  const owners = reports.some((r) => r.moved !== undefined);
  const lines = [
    `pass  step  col   y      states   runs-in  redundancy  successors  runs-out       written     time${owners ? '       moved  busiest' : ''}`,
  ];
  for (const r of reports) {
    const ownerColumns = owners
      ? [String(r.moved ?? '-').padStart(11), (r.busiest === undefined ? '-' : r.busiest.toFixed(3)).padStart(8)]
      : [];
    const redundancy = r.runsIn > 0 ? r.redundancy.toFixed(3) : '-';
    lines.push(
      [
        String(r.pass).padStart(4),
        String(r.step).padStart(5),
        String(Math.floor((r.step - 1) / width) + 1).padStart(4),
        String((r.step - 1) % width).padStart(3),
        String(r.states).padStart(11),
        String(r.runsIn).padStart(9),
        redundancy.padStart(11),
        String(r.successors).padStart(11),
        String(r.runsOut).padStart(9),
        formatBytes(r.bytesOut).padStart(13),
        formatDuration(r.seconds).padStart(8),
        ...ownerColumns,
      ].join(' '),
    );
  }
  return lines.join('\n');
}

export function formatSummary(stats: CountStats): string {
  return [
    `wall time ${formatDuration(stats.seconds)} (user ${formatDuration(stats.userSeconds)}, system ${formatDuration(stats.systemSeconds)})`,
    `${formatCount(stats.statesExpanded)} ${plural(stats.statesExpanded, 'state')} expanded (${formatCount(stats.statesPerSecond)}/s)`,
    `largest step ${formatCount(stats.maxStates)} ${plural(stats.maxStates, 'state')}`,
    `${counted(stats.runsWritten, 'run')}, ${formatBytes(stats.bytesWritten)} written`,
    `redundancy ${stats.redundancy.toFixed(3)}`,
    ...(stats.movedPerState === undefined
      ? []
      : [`moved ${stats.movedPerState.toFixed(3)} per state, busiest worker ${stats.busiest!.toFixed(3)}× the mean`]),
    `peak RSS ${formatBytes(stats.peakRss)}`,
    `ns/state ${PHASES.map((phase) => `${phase} ${stats.nsPerState[phase]}`).join(', ')}`,
  ].join(' · ');
}
