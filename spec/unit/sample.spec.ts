import test from 'ava';
import { AbortedError, sample } from '../../lib/index.js';
import { publishedCount } from '../../lib/paper/published-counts.js';
import { countInMemory } from '../../lib/count/in-memory.js';
import { HeuristicSampler } from '../../lib/paper/sample/heuristic-sampling.js';
import { seededRandom } from '../../lib/shared/random.js';
import { sampleProgress } from '../../cli/sample-command.js';
import { runCli } from '../support/run-cli.js';
import { testRefusals } from '../support/refusals.js';

/** How many standard errors an unbiased estimate may stray: beyond 4 happens once in 15 000. */
const WITHIN = 4;

test('Heuristic Sampling is unbiased: the exact count lies within a few standard errors (fixed seeds)', (t) => {
  for (const [width, columns, runs] of [
    [3, 3, 20000],
    [4, 9, 5000],
    [5, 5, 5000],
    [7, 7, 2000],
  ]) {
    const exact = Number(countInMemory({ width, columns }));
    const result = new HeuristicSampler({ width, columns }, seededRandom(width * 100 + columns)).sample(runs);
    const deviations = (result.mean - exact) / result.standardError;
    t.true(Math.abs(deviations) < WITHIN, `${width}×${columns}: ${deviations.toFixed(2)} standard errors off`);
    t.true(result.standardError / result.mean < 0.05, `${width}×${columns}: relative standard error ${result.standardError / result.mean}`);
  }
});

test('19×19: 300 probes land near 2.08·10^170, within a few standard errors of the exact count', (t) => {
  const exact = Number(publishedCount(19, 19));
  const result = new HeuristicSampler({ width: 19, columns: 19 }, seededRandom(19)).sample(300);
  t.log(`${result.mean.toPrecision(4)} ± ${result.standardError.toPrecision(2)}`);
  t.true(Math.abs(result.mean - exact) < WITHIN * result.standardError);
  t.true(Math.abs(result.mean / 2.08e170 - 1) < 0.15);
});

test('the same seed gives the same sample; another seed another', (t) => {
  const sample = (seed: number) => new HeuristicSampler({ width: 5, columns: 6 }, seededRandom(seed)).sample(50);
  t.deepEqual(sample(7), sample(7));
  t.notDeepEqual(sample(7).mean, sample(8).mean);
});

test('gocount sample prints the estimate, its standard error and the distance to the exact count', (t) => {
  const run = runCli(['sample', '5x5', '--runs', '400', '--seed', '1']);
  t.is(run.status, 0);
  const lines = run.stdout.split('\n');
  t.regex(lines[0], /^L\(5,5\) ≈ 4\.\d{5}e\+11 ± \d\.\d\de\+9 \(standard error, \d\.\d\d%\)$/);
  t.regex(lines[1], /^400 runs, seed 1, \d+\.\d s$/);
  t.regex(lines[2], /^exact 414295148741: the estimate is -?\d\.\d\d standard errors from it$/);
  const json = JSON.parse(runCli(['sample', '5x5', '--runs', '400', '--seed', '1', '--json']).stdout);
  t.like(json, { m: 5, n: 5, runs: 400, seed: 1, exact: '414295148741' });
  t.true(Math.abs(json.deviations) < WITHIN);
});

// Serial: it runs before the tests beside it, whose synchronous samples would hold up its clock.
test.serial('sample hears its progress with the total, and stops on its signal within a few probes', async (t) => {
  const heard: Array<[number, number]> = [];
  const result = await sample({ m: 5, n: 6, runs: 50, seed: 7, onProgress: (done, runs) => heard.push([done, runs]) });
  t.deepEqual(result, { ...new HeuristicSampler({ width: 5, columns: 6 }, seededRandom(7)).sample(50), seed: 7 });
  t.deepEqual(heard.at(-1), [50, 50]);
  t.true(heard.every(([done, runs], i) => runs === 50 && (i === 0 || done > heard[i - 1][0])));
  const controller = new AbortController();
  const done: number[] = [];
  const onProgress = (probes: number, runs: number) => {
    done.push(probes);
    t.is(runs, 1_000_000);
    controller.abort();
  };
  const started = performance.now();
  const error = await t.throwsAsync(sample({ m: 19, n: 19, runs: 1_000_000, seed: 1, signal: controller.signal, onProgress }), {
    instanceOf: AbortedError,
  });
  t.true(performance.now() - started < 1000);
  t.is(done.length, 1);
  t.is(error?.message, `sample 19x19 stopped after ${done[0]} of 1000000 probes`);
});

test('gocount sample prints the probes done of all every 5 s at most, and nothing for the last', (t) => {
  const lines: string[] = [];
  let now = 1000;
  const progress = sampleProgress(
    'sample 19x19',
    1000,
    (line) => lines.push(line),
    () => now,
  );
  for (const [at, done] of [
    [2000, 100],
    [6000, 500],
    [9000, 800],
    [11500, 1100],
    [30000, 2000],
  ]) {
    now = at;
    progress(done, 2000);
  }
  t.deepEqual(lines, ['sample 19x19: 500 of 2000 probes, 5 s\n', 'sample 19x19: 1100 of 2000 probes, 11 s\n']);
});

testRefusals([
  [['sample', '19x40'], /board 19x40: sample handles boards of up to 640 points/],
  [['sample', '5x5', '--runs', '1'], /--runs 1: must be a whole number of at least 2/],
  [['sample', '5x5', '--seed', '-1'], /--seed -1: must be a whole number/],
]);
