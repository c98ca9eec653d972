/**
 * Line and bar charts as standalone SVG text, readable without script. Every drawn point carries
 * its exact value (`data-value`, and `data-values` on a line), so a test or a script can check the
 * picture against the numbers it was drawn from; a point's <title> is its tooltip in a browser.
 */

export interface ChartPoint {
  readonly x: number;
  readonly y: number;
  /** The point's tooltip; by default the chart's formatted x and y. */
  readonly note?: string;
}

export interface ChartSeries {
  /** The `data-series` attribute: the name a checker looks the series up by. */
  readonly id: string;
  /** Legend text. */
  readonly label: string;
  readonly colour: string;
  readonly kind: 'line' | 'bars';
  readonly dashed?: boolean;
  readonly points: readonly ChartPoint[];
}

export interface ChartRule {
  readonly x: number;
  readonly label: string;
}

export interface Chart {
  /** The chart's `id`, for links within the page. */
  readonly id: string;
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly yScale: 'linear' | 'log';
  /** Linear ticks fall on 1, 2 or 5 times a power of this: 10, or 1024 for bytes. */
  readonly yTickBase?: number;
  /** The x values drawn, inclusive: bars are centred on whole x values within it. */
  readonly xDomain: readonly [number, number];
  /** The attribute holding a point's x: `step` gives data-step="12". */
  readonly xName: string;
  readonly formatX: (x: number) => string;
  readonly formatY: (y: number) => string;
  readonly series: readonly ChartSeries[];
  /** Vertical rules, such as where a pass begins. */
  readonly rules?: readonly ChartRule[];
  readonly width?: number;
  readonly height?: number;
}

const MARGIN = { left: 84, right: 24, top: 56, bottom: 56 };
const TEXT = '#1f2328';
const MUTED = '#57606a';
const GRID = '#d8dee4';

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function renderChart(chart: Chart): string {
  const width = chart.width ?? 1080;
  const height = chart.height ?? 340;
  const plot = { left: MARGIN.left, top: MARGIN.top, right: width - MARGIN.right, bottom: height - MARGIN.bottom };
  const values = chart.series.flatMap((s) => s.points.map((p) => p.y));
  const y = chart.yScale === 'log' ? logScale(values, plot) : linearScale(values, plot, chart.yTickBase ?? 10);
  // Half a slot either side of the first and last x, for bars, and so charts of one x line up.
  const [x0, x1] = [chart.xDomain[0] - 0.5, chart.xDomain[1] + 0.5];
  const xOf = (x: number) => plot.left + ((x - x0) / Math.max(x1 - x0, 1e-9)) * (plot.right - plot.left);
  const slot = (plot.right - plot.left) / Math.max(x1 - x0, 1);
  const bars = chart.series.filter((s) => s.kind === 'bars');
  const context: DrawContext = { chart, plot, xOf, y, barWidth: Math.max(1, (slot * 0.8) / Math.max(bars.length, 1)), bars };

  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" id="${escapeXml(chart.id)}" class="chart" viewBox="0 0 ${width} ${height}"` +
      ` width="${width}" height="${height}" role="img" aria-label="${escapeXml(chart.title)}" font-family="system-ui, sans-serif">`,
    `<title>${escapeXml(chart.title)}</title>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${plot.left}" y="22" font-size="16" font-weight="600" fill="${TEXT}">${escapeXml(chart.title)}</text>`,
    ...yAxis(context),
    ...xAxis(context, x0, x1),
    ...(chart.rules ?? []).map((rule) => ruleAt(context, rule)),
    ...chart.series.map((series) => (series.kind === 'bars' ? barSeries(context, series) : lineSeries(context, series))),
    legend(chart.series, plot.right),
    `<rect x="${plot.left}" y="${plot.top}" width="${plot.right - plot.left}" height="${plot.bottom - plot.top}" fill="none" stroke="${MUTED}"/>`,
    '</svg>',
  ];
  return parts.join('\n');
}

interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

interface YScale {
  /** Pixel row of a value; a value below the scale's floor (0 on a log scale) sits on the floor. */
  readonly of: (value: number) => number;
  readonly ticks: readonly number[];
  /** The value bars grow from. */
  readonly base: number;
}

interface DrawContext {
  readonly chart: Chart;
  readonly plot: Box;
  readonly xOf: (x: number) => number;
  readonly y: YScale;
  readonly barWidth: number;
  readonly bars: readonly ChartSeries[];
}

function linearScale(values: readonly number[], plot: Box, base: number): YScale {
  const max = Math.max(0, ...values.filter(Number.isFinite));
  // In a base other than 10, ticks are nice multiples of its largest power below the range.
  const unit = base === 10 || max < base ? 1 : base ** Math.floor(Math.log(max) / Math.log(base));
  const step = niceStep(max > 0 ? max / 5 / unit : 1) * unit;
  const top = Math.max(step, Math.ceil(max / step) * step);
  const ticks: number[] = [];
  for (let k = 0; k * step <= top * (1 + 1e-9); k++) ticks.push(k * step);
  return { of: (v) => plot.bottom - (Math.max(0, v) / top) * (plot.bottom - plot.top), ticks, base: 0 };
}

function logScale(values: readonly number[], plot: Box): YScale {
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  const low = Math.floor(Math.log10(positive.length > 0 ? Math.min(...positive) : 1));
  const high = Math.max(low + 1, Math.ceil(Math.log10(positive.length > 0 ? Math.max(...positive) : 10)));
  const decades = high - low;
  // Every decade while they fit; 2 and 5 between them when there are few.
  const every = Math.ceil(decades / 8);
  const ticks: number[] = [];
  for (let e = low; e <= high; e += every) {
    ticks.push(10 ** e);
    if (decades <= 2 && e < high) ticks.push(2 * 10 ** e, 5 * 10 ** e);
  }
  const of = (v: number) => {
    const t = v > 0 ? (Math.log10(v) - low) / decades : 0;
    return plot.bottom - Math.max(0, t) * (plot.bottom - plot.top);
  };
  return { of, ticks: ticks.sort((a, b) => a - b), base: 10 ** low };
}

/** 1, 2 or 5 times a power of ten, at least `rough`. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough * (1 - 1e-9)) ?? 10 * power;
}

function yAxis({ chart, plot, y }: DrawContext): string[] {
  const lines = y.ticks.map((tick) => {
    const row = round(y.of(tick));
    return (
      `<line x1="${plot.left}" y1="${row}" x2="${plot.right}" y2="${row}" stroke="${GRID}"/>` +
      `<text x="${plot.left - 8}" y="${row}" font-size="12" fill="${MUTED}" text-anchor="end" dominant-baseline="middle">` +
      `${escapeXml(chart.formatY(tick))}</text>`
    );
  });
  const middle = round((plot.top + plot.bottom) / 2);
  const scale = chart.yScale === 'log' ? ' (log scale)' : '';
  lines.push(
    `<text x="18" y="${middle}" font-size="13" fill="${TEXT}" text-anchor="middle" transform="rotate(-90 18 ${middle})">` +
      `${escapeXml(chart.yLabel + scale)}</text>`,
  );
  return lines;
}

function xAxis({ chart, plot, xOf }: DrawContext, x0: number, x1: number): string[] {
  const [first, last] = chart.xDomain;
  const step = Math.max(1, niceStep(Math.max(last - first, 1) / 12));
  const lines: string[] = [];
  for (let x = Math.ceil(first / step) * step; x <= last; x += step) {
    if (x < x0 || x > x1) continue;
    const column = round(xOf(x));
    lines.push(
      `<line x1="${column}" y1="${plot.bottom}" x2="${column}" y2="${plot.bottom + 5}" stroke="${MUTED}"/>` +
        `<text x="${column}" y="${plot.bottom + 18}" font-size="12" fill="${MUTED}" text-anchor="middle">${escapeXml(chart.formatX(x))}</text>`,
    );
  }
  lines.push(
    `<text x="${round((plot.left + plot.right) / 2)}" y="${plot.bottom + 44}" font-size="13" fill="${TEXT}" text-anchor="middle">` +
      `${escapeXml(chart.xLabel)}</text>`,
  );
  return lines;
}

function ruleAt({ plot, xOf }: DrawContext, rule: ChartRule): string {
  const column = round(xOf(rule.x));
  return (
    `<line class="rule" x1="${column}" y1="${plot.top}" x2="${column}" y2="${plot.bottom}" stroke="${MUTED}" stroke-dasharray="4 4"/>` +
    `<text x="${column + 4}" y="${plot.top + 14}" font-size="12" fill="${MUTED}">${escapeXml(rule.label)}</text>`
  );
}

function pointNote(chart: Chart, series: ChartSeries, point: ChartPoint): string {
  return point.note ?? `${series.label}, ${chart.formatX(point.x)}: ${chart.formatY(point.y)}`;
}

function dataAttributes(chart: Chart, series: ChartSeries, point: ChartPoint): string {
  return `data-series="${escapeXml(series.id)}" data-${attributeName(chart.xName)}="${point.x}" data-value="${point.y}"`;
}

function barSeries(context: DrawContext, series: ChartSeries): string {
  const { chart, xOf, y, barWidth, bars } = context;
  const offset = (bars.indexOf(series) - (bars.length - 1) / 2) * barWidth;
  const rects = series.points.map((point) => {
    const top = Math.min(y.of(point.y), y.of(y.base));
    const height = Math.abs(y.of(y.base) - y.of(point.y));
    const left = xOf(point.x) + offset - barWidth / 2;
    return (
      `<rect ${dataAttributes(chart, series, point)} x="${round(left)}" y="${round(top)}" width="${round(barWidth)}" height="${round(height)}">` +
      `<title>${escapeXml(pointNote(chart, series, point))}</title></rect>`
    );
  });
  return `<g class="series" data-series="${escapeXml(series.id)}" fill="${series.colour}">\n${rects.join('\n')}\n</g>`;
}

function lineSeries(context: DrawContext, series: ChartSeries): string {
  const { chart, xOf, y } = context;
  const id = escapeXml(series.id);
  const xs = series.points.map((p) => p.x).join(',');
  const ys = series.points.map((p) => p.y).join(',');
  const coordinates = series.points.map((p) => `${round(xOf(p.x))},${round(y.of(p.y))}`).join(' ');
  const dash = series.dashed ? ' stroke-dasharray="6 4"' : '';
  // Dots only while they stay apart; the values are on the polyline either way.
  const radius = series.points.length > 400 ? 1.5 : 3;
  const dots = series.points.map(
    (point) =>
      `<circle ${dataAttributes(chart, series, point)} cx="${round(xOf(point.x))}" cy="${round(y.of(point.y))}" r="${radius}">` +
      `<title>${escapeXml(pointNote(chart, series, point))}</title></circle>`,
  );
  return (
    `<g class="series" data-series="${id}">\n` +
    `<polyline data-series="${id}" data-${attributeName(chart.xName)}s="${xs}" data-values="${ys}" points="${coordinates}"` +
    ` fill="none" stroke="${series.colour}" stroke-width="2"${dash}/>\n` +
    `<g fill="${series.colour}">\n${dots.join('\n')}\n</g>\n</g>`
  );
}

function legend(series: readonly ChartSeries[], right: number): string {
  const items: string[] = [];
  let x = right;
  // Laid out from the right edge leftwards, at a width estimated from the label's length.
  for (const s of [...series].reverse()) {
    const textWidth = s.label.length * 7;
    x -= textWidth + 28;
    const swatch =
      s.kind === 'bars'
        ? `<rect x="${x}" y="30" width="14" height="10" fill="${s.colour}"/>`
        : `<line x1="${x}" y1="35" x2="${x + 16}" y2="35" stroke="${s.colour}" stroke-width="3"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>`;
    items.push(`${swatch}<text x="${x + 20}" y="39" font-size="12" fill="${TEXT}">${escapeXml(s.label)}</text>`);
  }
  return `<g class="legend">${items.join('')}</g>`;
}

function attributeName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9-]/g, '-');
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
