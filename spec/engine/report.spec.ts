import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { countLegal } from '../../lib/count/count-legal.js';
import { COUNT_FILE, LOCK_FILE } from '../../lib/format/folder-names.js';
import { formatStepLog, readStepLog, STEP_LOG_FILE, STEP_LOG_FORMAT, STEP_LOG_VERSION, StepLogEntry } from '../../lib/format/step-log.js';
import { renderReport } from '../../lib/report/html-report.js';
import { countStep, loadReport, replayEta } from '../../lib/report/report-data.js';
import { EtaModel } from '../../lib/observe/eta.js';
import { escapeXml, renderChart } from '../../lib/report/svg-chart.js';
import { testRefusals } from '../support/refusals.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

/** A log of `passes` passes over a width × columns sweep, with values no rounding would leave alone. */
function syntheticLog(width: number, columns: number, passes: number): StepLogEntry[] {
  const steps = width * columns;
  const entries: StepLogEntry[] = [];
  for (let pass = 1; pass <= passes; pass++) {
    for (let step = 1; step <= steps; step++) {
      const states = Math.min(3 ** (step - 1), 5000 + 37 * step) + pass;
      entries.push({
        format: STEP_LOG_FORMAT,
        version: STEP_LOG_VERSION,
        width,
        columns,
        pass,
        passes,
        step,
        steps,
        states,
        recordsIn: states * 2,
        runsIn: step > 3 ? 2 : 0,
        redundancy: step > 3 ? 2 : 1,
        successors: states * 3 - step,
        runsOut: step > 3 ? 1 : 0,
        bytesOut: step > 3 ? 1_234_567 * step + pass : 0,
        seconds: 0.1 + 0.2 * step + 1 / (3 * pass),
        nsPerState: { read: 10, expand: 200, aggregate: 30, sort: 40, write: 50, drain: 6 },
        finishedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, pass * steps + step)).toISOString(),
      });
    }
  }
  return entries;
}

/** Every drawn point of the page's SVG: series → [step, value] in drawing order. */
function drawnPoints(html: string): Map<string, Array<[number, number]>> {
  const series = new Map<string, Array<[number, number]>>();
  for (const match of html.matchAll(/<(?:rect|circle) data-series="([^"]+)" data-step="([^"]+)" data-value="([^"]+)"/g)) {
    const [, id, step, value] = match;
    series.set(id, [...(series.get(id) ?? []), [Number(step), Number(value)]]);
  }
  return series;
}

/** Every polyline's listed values: series → [steps, values]. */
function polylines(html: string): Map<string, [number[], number[]]> {
  const lines = new Map<string, [number[], number[]]>();
  for (const [, id, steps, values] of html.matchAll(/<polyline data-series="([^"]+)" data-steps="([^"]*)" data-values="([^"]*)"/g)) {
    lines.set(id, [steps.split(',').map(Number), values.split(',').map(Number)]);
  }
  return lines;
}

/** The states, seconds and bytes charts hold exactly the log's values, at the log's steps. */
function assertChartsMatch(t: ExecutionContext, html: string, entries: readonly StepLogEntry[]): void {
  const points = drawnPoints(html);
  const expected = (value: (entry: StepLogEntry) => number) => entries.map((entry): [number, number] => [countStep(entry), value(entry)]);
  t.deepEqual(
    points.get('states'),
    expected((e) => e.states),
  );
  t.deepEqual(
    points.get('seconds'),
    expected((e) => e.seconds),
  );
  t.deepEqual(
    points.get('bytes'),
    expected((e) => e.bytesOut),
  );
  t.deepEqual(polylines(html).get('states'), [entries.map(countStep), entries.map((e) => e.states)]);
}

function writeLog(file: string, entries: readonly StepLogEntry[]): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, formatStepLog(entries));
  return file;
}

/** A count folder as the engine lays it out, holding `entries` as its log. */
function countFolder(scratch: string, name: string, entries: readonly StepLogEntry[]): string {
  const { width, columns } = entries[0];
  const dir = path.join(scratch, `${width}x${columns}`, name);
  writeLog(path.join(dir, STEP_LOG_FILE), entries);
  writeFileSync(path.join(dir, COUNT_FILE), JSON.stringify({ format: 'gocount-count', version: 3, width, columns }));
  return dir;
}

test('report: the states, seconds and bytes charts carry exactly the values of a two-pass log', (t) => {
  const entries = syntheticLog(3, 4, 2);
  const file = writeLog(path.join(tempScratch(t), 'stats.jsonl'), entries);
  const data = loadReport(file);
  t.like(data, { width: 3, columns: 4, passes: 2, steps: 12, stepsDone: 24, stepsTotal: 24, status: 'finished', stepsUnlogged: 0 });
  const html = renderReport(data);
  assertChartsMatch(t, html, entries);
  t.is(data.legal, undefined, 'a log without result lines gives no count');
  t.false(html.includes('Legal positions'));
  // Pass 2, step 5 is step 17 of the count.
  t.deepEqual(drawnPoints(html).get('states')![16], [17, entries[16].states]);
  t.regex(html, /pass p, step s is \(p − 1\) × 12 \+ s/);
  t.is(
    data.totals.bytesOut,
    entries.reduce((sum, e) => sum + e.bytesOut, 0),
  );
});

test("report: a finished count's ETA chart has the prediction after every step and the time the later steps took", (t) => {
  const entries = syntheticLog(3, 3, 2);
  const data = loadReport(writeLog(path.join(tempScratch(t), 'log.jsonl'), entries));
  const html = renderReport(data);
  const predicted = drawnPoints(html).get('eta-predicted')!;
  const actual = drawnPoints(html).get('eta-actual')!;
  t.deepEqual(
    predicted.map(([step]) => step),
    entries.map(countStep),
  );
  t.is(predicted.at(-1)![1], 0);
  t.true(predicted.every(([, seconds]) => Number.isFinite(seconds) && seconds >= 0));
  entries.forEach((_, i) => {
    const later = entries.slice(i + 1).reduce((sum, e) => sum + e.seconds, 0);
    t.true(Math.abs(actual[i][1] - later) < 1e-9, `after step ${i + 1}: ${actual[i][1]} ≠ ${later}`);
  });
  t.deepEqual(
    data.eta.map((point) => point.predicted),
    predicted.map(([, seconds]) => seconds),
  );
});

test("report: the replayed ETA shares the prior cost per state between the log's workers", (t) => {
  const entries = syntheticLog(3, 3, 1).map((entry) => ({ ...entry, workers: 4 }));
  const predicted = (workers: number) => {
    const model = new EtaModel(3, 9, 1, workers);
    return entries.map((entry) => {
      model.stepDone(entry.step - 1, entry.states, entry.seconds);
      return entry.step < 9 ? model.secondsLeft(0, entry.step) : 0;
    });
  };
  const replayed = replayEta(entries, true).map((point) => point.predicted);
  t.deepEqual(replayed, predicted(4));
  t.notDeepEqual(replayed, predicted(1));
});

test('report of a real count: its count folder, board folder, scratch folder and --stats-json file give the same charts', async (t) => {
  const scratch = tempScratch(t);
  const statsJson = path.join(scratch, 'stats.jsonl');
  // 5×5 needs two moduli: one a pass gives two passes, each in its own count folder.
  await countLegal({ m: 5, n: 5, keep: true, scratch, workers: 1, memory: '8M', residuesPerPass: 1, statsJson });
  const board = path.join(scratch, '5x5');
  const folders = readdirSync(board).map((name) => path.join(board, name));
  t.true(folders.length >= 2, 'one count folder per pass');
  const logged = folders.map((dir) => readStepLog(path.join(dir, STEP_LOG_FILE)));
  const entries = logged.flat().sort((a, b) => a.pass - b.pass || a.step - b.step);
  t.is(entries.length, 25 * folders.length);
  t.deepEqual(readStepLog(statsJson), entries);
  for (const target of [board, scratch, statsJson]) {
    const data = loadReport(target);
    t.like(data, { status: 'finished', stepsDone: entries.length, passes: folders.length, width: 5, columns: 5 }, target);
    // Each pass's residues, joined by the CRT: L(5,5) of Table 3.
    t.is(data.legal, 414295148741n, target);
    const html = renderReport(data);
    assertChartsMatch(t, html, entries);
    t.true(html.includes('Legal positions: L(5, 5) = <code>414295148741</code>'), target);
  }
  const onePass = loadReport(folders[0]);
  t.is(onePass.status, 'stopped', 'one pass of several is not the whole count');
  t.is(onePass.legal, undefined);
  assertChartsMatch(t, renderReport(onePass), logged[0]);

  // The command writes the page atomically and names it; --json sums it up.
  const output = path.join(scratch, 'out', 'report.html');
  mkdirSync(path.dirname(output));
  const run = runCli(['report', board, '-o', output]);
  t.is(run.stderr, '');
  t.is(run.stdout, `${output}\n`);
  assertChartsMatch(t, readFileSync(output, 'utf8'), entries);
  t.deepEqual(readdirSync(path.dirname(output)), ['report.html']);
  const summary = JSON.parse(runCli(['report', statsJson, '-o', output, '--json']).stdout);
  t.like(summary, { path: statsJson, output, steps: entries.length, status: 'finished', passes: folders.length, legal: '414295148741' });
  const cwd = path.join(scratch, 'out');
  t.is(runCli(['report', board], { cwd }).stdout, `${path.join(cwd, 'report.html')}\n`);
});

test('report: a log without its last step is running while a live process holds the lock, stopped otherwise', (t) => {
  const scratch = tempScratch(t);
  const entries = syntheticLog(3, 3, 1).slice(0, 5);
  const dir = countFolder(scratch, 'moduli-1-aaaaaaaaaa', entries);
  const stopped = loadReport(dir);
  t.like(stopped, { status: 'stopped', stepsDone: 5, stepsTotal: 9 });
  t.true(stopped.secondsLeft! > 0);
  t.is(stopped.expectedEnd, undefined, 'a stopped count ends only once it is run again');
  t.false(renderReport(stopped).includes('Expected end'));

  const lock = (pid: number) =>
    writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid, host: os.hostname(), started: entries[0].finishedAt }));
  lock(process.pid);
  const running = loadReport(path.join(scratch, '3x3'));
  t.is(running.status, 'running');
  t.is(running.secondsLeft, stopped.secondsLeft);
  t.is(running.expectedEnd, new Date(Date.parse(entries[4].finishedAt) + running.secondsLeft! * 1000).toISOString());
  const html = renderReport(running);
  t.regex(html, /class="status running">running</);
  t.regex(html, /Expected end/);
  t.regex(html, new RegExp(`locked by process ${process.pid} on `));
  t.regex(html, /Time left \(predicted\)/);
  t.false(html.includes('data-series="eta-actual"'), 'no actual time left before the count ends');
  t.is(drawnPoints(html).get('eta-predicted')!.length, 5);

  lock(2 ** 22 + 12345); // above Linux's pid_max: no such process
  const dead = loadReport(dir);
  t.is(dead.status, 'stopped');
  t.regex(renderReport(dead), /no longer running/);
});

test('report: the page is self-contained: no script, nothing fetched, and text from the log is escaped', (t) => {
  const dir = path.join(tempScratch(t), '<b>&"x"');
  const html = renderReport(loadReport(writeLog(path.join(dir, 'log.jsonl'), syntheticLog(2, 2, 1))));
  t.false(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i.test(html));
  t.deepEqual([...new Set(html.match(/https?:\/\/[^"\s)]+/g))], ['http://www.w3.org/2000/svg']);
  t.false(html.includes('<b>&"x"'));
  t.true(html.includes(escapeXml(dir)));
  t.is(escapeXml(`<a href='x'>&</a>`), '&#60;a href=&#39;x&#39;&#62;&#38;&#60;/a&#62;');
  const svg = renderChart({
    id: 'c',
    title: 'a < b & "c"',
    xLabel: 'x',
    yLabel: 'y',
    yScale: 'linear',
    xDomain: [1, 2],
    xName: 'step',
    formatX: String,
    formatY: String,
    series: [{ id: 'x"y', label: '<legend>', colour: '#000', kind: 'line', points: [{ x: 1, y: 0.1 + 0.2 }] }],
  });
  t.false(/a < b|<legend>|x"y/.test(svg));
  t.regex(svg, /data-series="x&#34;y" data-step="1" data-value="0.30000000000000004"/);
});

test('report refuses the folders of different boards, naming them', (t) => {
  const scratch = tempScratch(t);
  countFolder(scratch, 'moduli-1-aaaaaaaaaa', syntheticLog(3, 3, 1));
  countFolder(scratch, 'moduli-1-bbbbbbbbbb', syntheticLog(2, 3, 1));
  const run = runCli(['report', scratch, '-o', path.join(scratch, 'r.html')]);
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.is(
    run.stderr,
    `gocount: ${scratch}: holds the logs of different counts: 2x3 (2x3/moduli-1-bbbbbbbbbb); 3x3 (3x3/moduli-1-aaaaaaaaaa); name one count's folder\n`,
  );
});

/** A board folder holding two logs of one pass, in a scratch folder of the test's own. */
function twoLogsOfOnePass(t: ExecutionContext): string {
  const scratch = tempScratch(t);
  countFolder(scratch, 'moduli-1-aaaaaaaaaa', syntheticLog(3, 3, 1));
  countFolder(scratch, 'moduli-1-cccccccccc', syntheticLog(3, 3, 1));
  return scratch;
}

test('report refuses two logs of one pass, naming them', (t) => {
  const scratch = twoLogsOfOnePass(t);
  t.throws(() => loadReport(path.join(scratch, '3x3')), {
    message: `${path.join(scratch, '3x3')}: pass 1 is logged in two folders, moduli-1-aaaaaaaaaa and moduli-1-cccccccccc; name one count's folder`,
  });
});

test("report takes one count's folder of a board folder holding two logs of one pass", (t) => {
  const scratch = twoLogsOfOnePass(t);
  t.is(loadReport(path.join(scratch, '3x3', 'moduli-1-aaaaaaaaaa')).stepsDone, 9);
});

// Bad paths, made before the tests are declared (testRefusals needs their names).
const bad = mkdtempSync(path.join(os.tmpdir(), 'gocount-report-spec-'));
test.after.always(() => rmSync(bad, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const at = path.join(bad, name);
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, text);
  return at;
}
const goodLog = file('good.jsonl', formatStepLog(syntheticLog(2, 2, 1)));
const emptyLog = file('empty.jsonl', '');
const notLog = file('notes.txt', 'a shopping list\n');
const otherJson = file('other.jsonl', '{"format":"something-else","version":1}\n');
const twoCounts = file('two.jsonl', formatStepLog([...syntheticLog(2, 2, 1), ...syntheticLog(2, 3, 1)]));
const noLog = path.dirname(file('9x9/moduli-1-aaaaaaaaaa/count.json', '{}'));
const cutLog = path.dirname(file('5x5/moduli-1-aaaaaaaaaa/steps.jsonl', '{"format":"gocount-st'));
const emptyFolder = path.join(bad, 'nothing');
mkdirSync(emptyFolder);

testRefusals([
  [['report', path.join(bad, 'missing')], /missing: no such file or folder$/m],
  [['report', emptyLog], /empty\.jsonl: not a gocount step log \(it is not JSON lines\)$/m],
  [['report', notLog], /notes\.txt: not a gocount step log \(it is not JSON lines\)$/m],
  [['report', otherJson], /other\.jsonl: not a gocount step log \(no line of format gocount-step\)$/m],
  [['report', twoCounts], /two\.jsonl: holds the steps of different counts \(2x2, 2x3\)$/m],
  [['report', noLog], /moduli-1-aaaaaaaaaa: no step log \(steps\.jsonl\) in this count folder$/m],
  [['report', path.join(bad, '9x9')], /9x9: no step log \(steps\.jsonl\) in its count folder moduli-1-aaaaaaaaaa$/m],
  [['report', cutLog], /moduli-1-aaaaaaaaaa: no finished step is logged in this count folder$/m],
  [['report', emptyFolder], /nothing: holds no gocount count folder \(count\.json\) and is not a step log$/m],
  [
    ['report', goodLog, '-o', path.join(bad, 'no', 'such', 'dir', 'r.html')],
    /^gocount: --output .*r\.html: its folder .*no\/such\/dir does not exist$/m,
  ],
]);
