import test from 'ava';
import path from 'node:path';
import { progressDisplay, ProgressStream } from '../../cli/progress-display.js';
import { EtaModel } from '../../lib/observe/eta.js';
import type { ProgressEvent, StepReport } from '../../lib/observe/progress.js';
import { readStepLog, StepLogEntry } from '../../lib/format/step-log.js';
import { formatDuration } from '../../lib/shared/units.js';
import { verifyPath, VerifyProgress } from '../../lib/verify/verify.js';
import { verifyProgress } from '../../cli/verify-progress.js';
import { UnsavedSteps } from '../../cli/unsaved-steps.js';
import { fixtureRuns } from '../support/fixture-runs.js';
import { fixturesDir } from '../support/paths.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

/**
 * Per-step logs of real counts (--stats-json), recorded once by the engine and replayed here with
 * their own step times, so no test times anything: `gocount 9x9 --workers 1 --memory 8M` (the count
 * the ETA was first reported wrong for), and, on a shared 2-core machine when it was otherwise idle,
 * `9x9 --workers 2`, `11x11 --workers 2` (in memory) and `11x11 --workers 2 --memory 256M` (most
 * steps on disk); later, `10x10`, `10x30` (a long rectangle: 300 steps, 15 moduli) and `12x12`, each
 * `--workers 2 --memory 2G` (in memory), while the 1-minute load, their own two workers included,
 * stayed between 1.2 and 4.2. A log in which other work had slowed some columns was recorded again,
 * as no ETA can foresee that: the same three recorded under a load of 4 to 14 took 2 to 5 times as
 * long a state. Logs older than the `workers` field are of one worker.
 */
const log9x9 = readStepLog(path.join(fixturesDir, 'steps-9x9.jsonl'));
const recordedLogs = [
  'steps-9x9.jsonl',
  'steps-9x9-w2.jsonl',
  'steps-10x10.jsonl',
  'steps-11x11.jsonl',
  'steps-11x11-256M.jsonl',
  'steps-12x12.jsonl',
  'steps-10x30.jsonl',
];

/** The first step whose ETA is held to a factor 2, and the remainders too small to hold it to. */
const FIRST_CHECKED_STEP = 10;
const LEAST_CHECKED = { seconds: 0.25, fraction: 0.02 };

/**
 * Replays a log through the model as the progress display feeds it: halfway through each step
 * (the bar, redrawn during a step) and at its end. Returns predicted / actual time left at every
 * point from FIRST_CHECKED_STEP on where the actual time left is at least LEAST_CHECKED.
 */
function etaRatios(log: readonly StepLogEntry[]): Array<{ at: string; ratio: number }> {
  const { width, steps, passes, workers } = log[0];
  const model = new EtaModel(width, steps, passes, workers ?? 1);
  const total = log.reduce((sum, entry) => sum + entry.seconds, 0);
  const floor = Math.max(LEAST_CHECKED.seconds, LEAST_CHECKED.fraction * total);
  const ratios: Array<{ at: string; ratio: number }> = [];
  let left = total;
  for (const entry of log) {
    const into = entry.seconds / 2;
    const midway = model.secondsLeft(entry.pass - 1, entry.step - 1, into);
    if (entry.step >= FIRST_CHECKED_STEP && left - into >= floor)
      ratios.push({ at: `halfway through step ${entry.step}`, ratio: midway / (left - into) });
    model.stepDone(entry.step - 1, entry.states, entry.seconds);
    left -= entry.seconds;
    const [pass, step] = entry.step < steps ? [entry.pass - 1, entry.step] : [entry.pass, 0];
    const after = pass < passes ? model.secondsLeft(pass, step) : 0;
    if (entry.step >= FIRST_CHECKED_STEP && left >= floor) ratios.push({ at: `after step ${entry.step}`, ratio: after / left });
  }
  return ratios;
}

for (const name of recordedLogs) {
  test(`the ETA, replayed over the recorded log ${name}, is within a factor 2 of the time left from step 10 on`, (t) => {
    const log = readStepLog(path.join(fixturesDir, name));
    t.is(log.length, log[0].steps * log[0].passes, 'every step is logged');
    const ratios = etaRatios(log);
    t.true(ratios.length >= 20, `${ratios.length} points checked`);
    const worst = ratios.reduce((a, b) => (Math.abs(Math.log(b.ratio)) > Math.abs(Math.log(a.ratio)) ? b : a));
    t.log(`worst: predicted / actual ${worst.ratio.toFixed(2)} ${worst.at}`);
    const outside = ratios.filter(({ ratio }) => !(ratio >= 0.5 && ratio <= 2)).map(({ at, ratio }) => `${at}: ${ratio.toFixed(2)}`);
    t.deepEqual(outside, []);
  });
}

/** Seconds the count still took after each step, from the log itself. */
function actualLeft(log: readonly StepLogEntry[], i: number): number {
  return log.slice(i + 1).reduce((sum, entry) => sum + entry.seconds, 0);
}

test('the ETA model, replayed over a recorded 9x9 count, stays within a factor 3.5 of the time left', (t) => {
  t.is(log9x9.length, 81);
  const model = new EtaModel(9, 81, 1);
  const ratios: number[] = [];
  log9x9.forEach((entry, i) => {
    model.stepDone(entry.step - 1, entry.states, entry.seconds);
    if (entry.step >= 5 && entry.step <= 72) ratios.push(model.secondsLeft(0, entry.step) / actualLeft(log9x9, i));
  });
  for (const [i, ratio] of ratios.entries()) t.true(ratio > 1 / 3.5 && ratio < 3.5, `step ${i + 5}: predicted / actual ${ratio}`);
  // Step 5, where the ETA said 0.5 s of 10: now within a factor 2.
  t.true(ratios[0] > 0.5 && ratios[0] < 2, `step 5: ${ratios[0]}`);
});

test('expected states: known once done, threefold a point in the first column, then closing the gap to Table 1', (t) => {
  // Width 4 over 6 columns: Table 1's bound is 168 from 5 points on.
  const model = new EtaModel(4, 24, 2);
  model.stepDone(0, 1, 0.1);
  model.stepDone(1, 3, 0.1);
  t.is(model.expectedStates(3), 27); // 3 · 3²
  const states = [1, 3, 9, 27, 40, 50, 60, 70, 88, 100, 110, 120, 128];
  for (const [step, held] of states.entries()) if (step > 1) model.stepDone(step, held, 0.1);
  t.is(model.expectedStates(4), 40); // done (in an earlier pass, for the next one)
  // The latest complete column (points 9–12) left 214 of the 404 the one before left to the bound.
  t.is(model.expectedStates(16), 168 - (168 - 128) * (214 / 404)); // point 12 a column on
  t.is(model.expectedStates(14), 168 - (168 - 110) * (214 / 404) ** 1);
  t.is(model.expectedStates(20), 168 - (168 - 128) * (214 / 404) ** 2);
  // The last column: at most 4^(k + 1) with k points left.
  t.is(model.expectedStates(23), 16);
  t.is(model.expectedStates(22), 64);

  // Before two columns past the first are done, the share of the gap a column leaves is a prior (0.7).
  const early = new EtaModel(4, 24, 1);
  for (const [step, held] of states.slice(0, 8).entries()) early.stepDone(step, held, 0.1);
  t.is(early.expectedStates(8), 168 - (168 - 40) * 0.7);
  t.is(early.expectedStates(13), 168 - (168 - 50) * 0.7 ** 2);
  t.true(Number.isNaN(new EtaModel(3, 12, 1).secondsLeft(0, 0)));
});

/** A fake terminal (or pipe) that keeps what is written, and a clock the test moves. */
function fakeStream(columns: number | undefined, isTTY: boolean): ProgressStream & { text: string } {
  return {
    isTTY,
    columns,
    text: '',
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

function report(entry: StepLogEntry): StepReport {
  return { ...entry, probes: 0 };
}

/**
 * Replays the first `steps` steps of the log through a display, the clock moving by each step's
 * seconds, as a count of `workers` workers (which the display passes on to the ETA model).
 */
function replay(stream: ProgressStream, steps: number, workers = 1): { now: number; model: EtaModel } {
  let now = 1_000_000;
  const show = progressDisplay(stream, false, () => now);
  const model = new EtaModel(9, 81, 1, workers);
  const events: ProgressEvent[] = [{ type: 'pass-start', pass: 1, passes: 1, width: 9, steps: 81, firstStep: 1, workers }];
  for (const event of events) show(event);
  for (const entry of log9x9.slice(0, steps)) {
    show({ type: 'step-start', step: entry.step });
    now += entry.seconds * 500;
    show({ type: 'advance', states: entry.states / 2 });
    now += entry.seconds * 500;
    model.stepDone(entry.step - 1, entry.states, entry.seconds);
    show({ type: 'step-end', report: report(entry) });
  }
  return { now, model };
}

test('the bar fits the terminal, numbers steps from 1, and shows elapsed time and the modelled ETA', (t) => {
  for (const columns of [40, 60, 80, 200]) {
    const stream = fakeStream(columns, true);
    const { model } = replay(stream, 30, 4);
    const lines = stream.text.split('\r\x1b[K').filter(Boolean);
    t.true(lines.length >= 30);
    for (const line of lines) t.true(line.length < columns, `${columns} columns: ${line.length} characters: ${line}`);
    const last = lines.at(-1)!;
    t.true(last.includes('step 30/81'), last);
    t.true(last.includes(`ETA ${formatDuration(model.secondsLeft(0, 30))}`), last);
    if (columns >= 80) t.true(last.includes('elapsed') && last.startsWith('['), last);
  }
});

test('without a terminal, a line per step at most every 2 s, with elapsed time and ETA', (t) => {
  const stream = fakeStream(undefined, false);
  const { model } = replay(stream, 81);
  const lines = stream.text.trimEnd().split('\n');
  t.true(lines.length >= 2 && lines.length < 81, `${lines.length} lines`);
  t.regex(lines.at(-1)!, /^step 81\/81: 14 states in .* elapsed, ETA 0\.0s$/);
  t.is(model.secondsLeft(0, 81), 0);
});

test('--stats numbers its steps 1 … m·n, as the bar and the step log do', (t) => {
  const run = runCli(['3x3', '--stats', '--quiet', '--scratch', tempScratch(t)]);
  t.is(run.status, 0);
  const [stepTable, costTable] = run.stderr.split('cost model');
  const stepsOf = (table: string) =>
    table
      .split('\n')
      .filter((line) => /^\s+1\s+\d+\s+\d+/.test(line))
      .map((line) => Number(line.trim().split(/\s+/)[1]));
  t.deepEqual(stepsOf(stepTable), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  t.deepEqual(stepsOf(costTable), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('verify reports its progress step folder by step folder, and the display shows it at most every 5 s without a terminal', (t) => {
  const seen: VerifyProgress[] = [];
  const report = verifyPath(fixtureRuns, (progress) => seen.push(progress));
  t.is(seen.length, report.steps);
  t.deepEqual(
    seen.map((progress) => progress.steps),
    Array.from({ length: report.steps }, (_, i) => i + 1),
  );
  t.true(seen.every((progress) => progress.totalSteps === report.steps));
  t.is(seen.at(-1)!.files, report.files);

  let now = 0;
  const stream = fakeStream(undefined, false);
  const display = verifyProgress(stream, false, () => now);
  for (const progress of seen) {
    now += 1000;
    display.onProgress(progress);
  }
  display.done();
  const lines = stream.text.trimEnd().split('\n');
  t.is(lines.length, Math.floor(seen.length / 5));
  t.regex(lines[0], /^verifying: 5\/27 step folders, \d+ run files, .* read$/);
  const terminal = fakeStream(30, true);
  const bar = verifyProgress(terminal, false, () => (now += 1000));
  for (const progress of seen) bar.onProgress(progress);
  bar.done();
  t.true(terminal.text.split('\r\x1b[K').every((line) => line.length < 30));
  t.true(terminal.text.endsWith('\r\x1b[K'));
});

test("verify's display gives a solve database's states checked", (t) => {
  let now = 0;
  const stream = fakeStream(undefined, false);
  const display = verifyProgress(stream, false, () => (now += 6000));
  display.onProgress({ steps: 0, totalSteps: 0, files: 0, bytes: 0, states: 65536, totalStates: 6262566 });
  t.is(stream.text, 'verifying: 65536 of 6262566 states\n');
});

test('what a second signal says is lost: the steps done in memory or under way since the last on disk, and where the count resumes', (t) => {
  const unsaved = new UnsavedSteps();
  t.is(unsaved.lost(), '; the same command resumes from the last complete step', 'before the pass starts');
  unsaved.track({ type: 'pass-start', pass: 1, passes: 1, width: 9, steps: 81, firstStep: 1, workers: 1 });
  t.is(unsaved.lost(), ': nothing is lost, and the same command starts again at step 1');
  const run = (step: number, runsOut: number) => {
    unsaved.track({ type: 'step-start', step });
    unsaved.track({ type: 'step-end', report: { ...log9x9[step - 1], step, runsOut, probes: 0 } });
  };
  run(1, 0);
  run(2, 0);
  t.is(unsaved.lost(), ': steps 1–2 are lost, and the same command starts again at step 1');
  run(3, 4);
  t.is(unsaved.lost(), ': nothing is lost, and the same command resumes at step 4');
  unsaved.track({ type: 'step-start', step: 4 });
  t.is(unsaved.lost(), ': step 4 is lost, and the same command resumes at step 4');
  unsaved.track({ type: 'pass-start', pass: 1, passes: 1, width: 9, steps: 81, firstStep: 31, workers: 1 });
  t.is(unsaved.lost(), ': nothing is lost, and the same command resumes at step 31', 'a resumed pass');
});
