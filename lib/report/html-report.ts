/**
 * The report page: one self-contained HTML file (inline CSS and SVG, no script, nothing fetched),
 * so it can be mailed or archived with the count and opened in any browser.
 */

import type { StepLogEntry } from '../format/step-log.js';
import { formatBytes, formatCount, formatDuration } from '../shared/units.js';
import { countStep, ReportData, ReportTotals } from './report-data.js';
import { Chart, ChartPoint, ChartRule, ChartSeries, escapeXml, renderChart } from './svg-chart.js';
import { counted } from '../shared/plural.js';

const COLOURS = {
  states: '#0969da',
  seconds: '#bc4c00',
  bytes: '#8250df',
  predicted: '#cf222e',
  actual: '#1a7f37',
  moved: '#116329',
  busiest: '#953800',
};

export function renderReport(data: ReportData): string {
  const title = `gocount report: ${data.width} × ${data.columns}, ${data.status}`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${header(data)}
${facts(data)}
${charts(data)
  .map((chart) => `<figure>\n${renderChart(chart.chart)}\n<figcaption>${chart.caption}</figcaption>\n</figure>`)
  .join('\n')}
${totalsTable(data)}
<footer>Read from ${data.files.map((file) => `<code>${escapeXml(file)}</code>`).join(', ')}.</footer>
</main>
</body>
</html>
`;
}

function header(data: ReportData): string {
  const passes = counted(data.passes, 'pass', 'passes');
  return `<header>
<h1>${data.width} × ${data.columns} board <span class="status ${data.status}">${data.status}</span></h1>
<p class="sub">Swept ${counted(data.width, 'point')} wide over ${counted(data.columns, 'column')}, ${passes} of ${counted(data.steps, 'step')} each · <code>${escapeXml(data.path)}</code></p>
</header>`;
}

function facts(data: ReportData): string {
  const last = data.entries[data.entries.length - 1];
  const items: Array<[string, string]> = [
    ['Steps done', `${data.stepsDone.toLocaleString('en-US')} of ${data.stepsTotal.toLocaleString('en-US')}`],
    ['Pass', `${last.pass} of ${data.passes}`],
    ['Time in steps', formatDuration(data.totals.seconds)],
    ['States expanded', formatCount(data.totals.states)],
    ['Bytes written', formatBytes(data.totals.bytesOut)],
    ['Last step finished', moment(last.finishedAt)],
  ];
  if (data.secondsLeft !== undefined) {
    items.push(['Time left (predicted)', formatDuration(data.secondsLeft)]);
    if (data.expectedEnd) items.push(['Expected end', moment(data.expectedEnd)]);
  }
  const notes = [statusNote(data)];
  if (data.stepsUnlogged > 0) notes.push(`${data.stepsUnlogged} step(s) before the last logged one have no line in the log.`);
  // The count itself is too long for a box: a 13 × 13 count has 80 digits.
  const legal =
    data.legal === undefined
      ? ''
      : `\n<p class="legal">Legal positions: L(${data.width}, ${data.columns}) = <code>${data.legal}</code></p>`;
  return `<section class="facts">
${items.map(([name, value]) => `<div class="fact"><div class="name">${name}</div><div class="value">${value}</div></div>`).join('\n')}
</section>${legal}
<p class="note">${notes.join(' ')}</p>`;
}

/** An ISO time as the time of day over its date, so it fits a fact's box. */
function moment(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso);
  return match ? `${match[2]}<br><small>${match[1]} UTC</small>` : escapeXml(iso);
}

function statusNote(data: ReportData): string {
  const holder = data.lockHolder ? escapeXml(data.lockHolder) : '';
  switch (data.status) {
    case 'finished':
      return 'The count is finished: every step of every pass is logged.';
    case 'running':
      return `The count is running: its folder is locked by ${holder}. The page shows the log as it was when written; make it again for later steps.`;
    case 'stopped':
      return data.lockHolder
        ? `The count stopped: its folder is still locked by ${holder}, which is no longer running. Running it again resumes it.`
        : 'The count stopped before its last step (or its log ends there). Running it again resumes it.';
  }
}

interface Figure {
  readonly chart: Chart;
  readonly caption: string;
}

function charts(data: ReportData): Figure[] {
  const { entries } = data;
  const xDomain: [number, number] = [countStep(entries[0]), Math.max(countStep(entries[entries.length - 1]), data.steps)];
  const rules: ChartRule[] = Array.from({ length: data.passes - 1 }, (_, p) => ({ x: (p + 1) * data.steps + 0.5, label: `pass ${p + 2}` }));
  const stepAxis = data.passes === 1 ? 'step (points placed)' : `step over the whole count: pass p, step s is (p − 1) × ${data.steps} + s`;
  const common = { xDomain, xName: 'step', formatX: String, xLabel: stepAxis, rules };
  const points = (value: (entry: StepLogEntry) => number, unit: (v: number) => string): ChartPoint[] =>
    entries.map((entry) => ({ x: countStep(entry), y: value(entry), note: `${stepName(data, entry)}: ${unit(value(entry))}` }));
  const exact = (v: number) => v.toLocaleString('en-US');
  const figures: Figure[] = [
    {
      chart: {
        ...common,
        id: 'chart-states',
        title: 'States per step',
        yLabel: 'input states',
        yScale: 'log',
        formatY: formatCompact,
        series: [{ id: 'states', label: 'input states', colour: COLOURS.states, kind: 'line', points: points((e) => e.states, exact) }],
      },
      caption: 'Distinct states in each step’s input. They grow threefold a point through the first column, then level off.',
    },
    {
      chart: {
        ...common,
        id: 'chart-seconds',
        title: 'Seconds per step',
        yLabel: 'wall time',
        yScale: 'linear',
        formatY: formatSeconds,
        series: [
          { id: 'seconds', label: 'wall time', colour: COLOURS.seconds, kind: 'bars', points: points((e) => e.seconds, formatSeconds) },
        ],
      },
      caption: 'Wall time of each step.',
    },
    {
      chart: {
        ...common,
        id: 'chart-bytes',
        title: 'Bytes written per step',
        yLabel: 'bytes written',
        yScale: 'linear',
        yTickBase: 1024,
        formatY: formatBytesTick,
        series: [
          { id: 'bytes', label: 'run files written', colour: COLOURS.bytes, kind: 'bars', points: points((e) => e.bytesOut, formatBytes) },
        ],
      },
      caption: 'Bytes of run files each step wrote to the scratch folder; 0 while a step’s output stays in memory.',
    },
    ...ownerFigures(entries, common, points),
    etaFigure(data, common),
  ];
  return figures;
}

/** With several worker threads: what moved between them, and how evenly they shared each step. */
function ownerFigures(
  entries: readonly StepLogEntry[],
  common: Pick<Chart, 'xDomain' | 'xName' | 'formatX' | 'xLabel' | 'rules'>,
  points: (value: (entry: StepLogEntry) => number, unit: (v: number) => string) => ChartPoint[],
): Figure[] {
  if (!entries.some((e) => e.moved !== undefined)) return [];
  const ratio = (v: number) => `${v.toFixed(3)}×`;
  return [
    {
      chart: {
        ...common,
        id: 'chart-moved',
        title: 'Records moved between workers, per input state',
        yLabel: 'records moved per state',
        yScale: 'linear',
        formatY: (v) => v.toFixed(2),
        series: [
          {
            id: 'moved',
            label: 'moved per state',
            colour: COLOURS.moved,
            kind: 'bars',
            points: points(
              (e) => (e.moved ?? 0) / Math.max(e.states, 1),
              (v) => v.toFixed(3),
            ),
          },
        ],
      },
      caption: 'Successors sent from one worker thread to another: only a window’s first step sends any.',
    },
    {
      chart: {
        ...common,
        id: 'chart-busiest',
        title: 'Busiest worker against the mean',
        yLabel: 'busiest / mean',
        yScale: 'linear',
        formatY: (v) => v.toFixed(2),
        series: [
          { id: 'busiest', label: 'busiest worker', colour: COLOURS.busiest, kind: 'line', points: points((e) => e.busiest ?? 1, ratio) },
        ],
      },
      caption: 'The input states of the busiest worker thread over the mean: 1 is an even share, and the step waits for the busiest.',
    },
  ];
}

function etaFigure(data: ReportData, common: Pick<Chart, 'xDomain' | 'xName' | 'formatX' | 'xLabel' | 'rules'>): Figure {
  const byIndex = new Map(data.entries.map((entry) => [countStep(entry), entry]));
  const note = (index: number, what: string, seconds: number) =>
    `${stepName(data, byIndex.get(index)!)}: ${what} ${formatDuration(seconds)}`;
  const predicted = data.eta.map((p) => ({ x: p.index, y: p.predicted, note: note(p.index, 'predicted', p.predicted) }));
  const series: ChartSeries[] = [
    { id: 'eta-predicted', label: 'predicted time left', colour: COLOURS.predicted, kind: 'line', points: predicted },
  ];
  if (data.status === 'finished') {
    const actual = data.eta.map((p) => ({ x: p.index, y: p.actual!, note: note(p.index, 'actually', p.actual!) }));
    series.push({ id: 'eta-actual', label: 'actual time left', colour: COLOURS.actual, kind: 'line', dashed: true, points: actual });
  }
  const caption =
    data.status === 'finished'
      ? 'How the ETA converged: after each step, the time left that the ETA model predicted from the steps done so far, ' +
        'against the time the later steps actually took (step time only).'
      : 'After each step, the time left that the ETA model predicted from the steps done so far; the last point is the current estimate.';
  return {
    chart: {
      ...common,
      id: 'chart-eta',
      title: data.status === 'finished' ? 'Time left after each step: predicted and actual' : 'Predicted time left after each step',
      yLabel: 'time left',
      yScale: 'linear',
      formatY: formatSeconds,
      series,
    },
    caption,
  };
}

function totalsTable(data: ReportData): string {
  const rows: Array<[string, ReportTotals]> =
    data.passes === 1
      ? [['count', data.totals]]
      : [...data.perPass.map((t, p): [string, ReportTotals] => [`pass ${p + 1}`, t]), ['all', data.totals]];
  const n = (v: number) => v.toLocaleString('en-US');
  const head = ['', 'steps', 'time', 'states expanded', 'most states', 'successors', 'records read', 'run files', 'bytes written'];
  const cells = ([name, t]: [string, ReportTotals]) => [
    name,
    n(t.steps),
    formatDuration(t.seconds),
    n(t.states),
    n(t.peakStates),
    n(t.successors),
    n(t.recordsIn),
    n(t.runsOut),
    `${formatBytes(t.bytesOut)} <small>(${n(t.bytesOut)})</small>`,
  ];
  return `<h2>Totals</h2>
<table class="totals">
<thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead>
<tbody>
${rows
  .map(
    (row) =>
      `<tr>${cells(row)
        .map((c) => `<td>${c}</td>`)
        .join('')}</tr>`,
  )
  .join('\n')}
</tbody>
</table>`;
}

function stepName(data: ReportData, entry: StepLogEntry): string {
  return data.passes === 1 ? `step ${entry.step}` : `pass ${entry.pass}, step ${entry.step} (step ${countStep(entry)} of the count)`;
}

/** Counts for axis ticks: 10k, 2.5M, without formatCount's trailing ".0". */
function formatCompact(n: number): string {
  const [size, suffix] = n >= 1e9 ? [1e9, 'G'] : n >= 1e6 ? [1e6, 'M'] : n >= 1e4 ? [1e3, 'k'] : [1, ''];
  return `${Number((n / size).toPrecision(3))}${suffix}`;
}

/** Bytes for axis ticks, which fall on whole units: 2 MiB rather than 2.0 MiB. */
function formatBytesTick(n: number): string {
  return formatBytes(n).replace(/\.0 /, ' ');
}

/** Seconds for axis ticks: formatDuration rounds to tenths, which merges the ticks of fast steps. */
function formatSeconds(seconds: number): string {
  if (seconds === 0) return '0';
  return seconds < 10 ? `${Number(seconds.toPrecision(2))}s` : formatDuration(seconds);
}

const STYLE = `
:root { color-scheme: light; }
body { margin: 0; background: #f6f8fa; color: #1f2328; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 24px 20px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 28px 0 8px; }
.sub { margin: 0 0 18px; color: #57606a; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; background: #eaeef2; padding: 1px 4px; border-radius: 4px; overflow-wrap: anywhere; }
.status { display: inline-block; vertical-align: middle; font-size: 14px; font-weight: 600; padding: 2px 10px; border-radius: 12px; color: #fff; }
.status.finished { background: #1a7f37; }
.status.running { background: #0969da; }
.status.stopped { background: #9a6700; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 10px; }
.fact { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px 12px; }
.fact .name { font-size: 12px; color: #57606a; text-transform: uppercase; letter-spacing: 0.04em; }
.fact .value { font-size: 19px; font-weight: 600; }
.fact small, td small { font-weight: 400; color: #57606a; }
.note { color: #57606a; margin: 10px 0 6px; }
.legal { font-size: 17px; margin: 14px 0 0; }
figure { margin: 18px 0 0; background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 8px; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { color: #57606a; font-size: 13px; padding: 4px 8px 2px; }
table.totals { border-collapse: collapse; background: #fff; width: 100%; font-variant-numeric: tabular-nums; }
table.totals th, table.totals td { border: 1px solid #d0d7de; padding: 5px 10px; text-align: right; }
table.totals th { background: #eaeef2; font-weight: 600; }
table.totals td:first-child { text-align: left; font-weight: 600; }
footer { margin-top: 24px; color: #57606a; font-size: 13px; }
`;
