// How many workers a count starts: those asked for, but no more than its board can use (the tests
// force those a count names elsewhere, GOCOUNT_FORCE_WORKERS=1), with a warning for more workers than cores.
import test from 'ava';
import os from 'node:os';
import { normalizeCountOptions } from '../../lib/count/options.js';
import { countWarnings } from '../../lib/count/warnings.js';
import { largestStates } from '../../lib/board/table1.js';
import { setUpEngine, usableWorkers } from '../../lib/count/with-engine.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

const unforced = { GOCOUNT_FORCE_WORKERS: '' };

test('5x5 with 256 workers asked for counts with the one it can use, says so, and is quick', (t) => {
  const started = performance.now();
  const run = runCli(['5x5', '--workers', '256', '--scratch', tempScratch(t)], { env: unforced });
  const seconds = (performance.now() - started) / 1000;
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '414295148741\n');
  t.is(run.stderr, 'gocount: this board holds at most 642 states a step: counting with 1 worker, not 256\n');
  t.true(seconds < 10, `${seconds.toFixed(1)} s`);
});

test('the workers a board can use grow with its largest step, by Table 1', (t) => {
  const previous = process.env.GOCOUNT_FORCE_WORKERS;
  delete process.env.GOCOUNT_FORCE_WORKERS;
  try {
    t.deepEqual(
      [5, 9, 11].map((width) => largestStates({ width, columns: width })),
      [642, 160286, 2772774],
    );
    t.deepEqual(
      [3, 5, 7, 9, 11, 13].map((width) => usableWorkers({ width, columns: width })),
      [1, 1, 1, 10, 170, 3068],
    );
  } finally {
    process.env.GOCOUNT_FORCE_WORKERS = previous;
  }
});

test('in the tests a count starts every worker it names, and one that names none only those its board can use, whatever the cores', (t) => {
  t.is(process.env.GOCOUNT_FORCE_WORKERS, '1');
  const scratch = tempScratch(t);
  t.is(setUpEngine(normalizeCountOptions({ m: 5, n: 5, workers: 3, scratch }), 2).workers, 3);
  t.is(setUpEngine(normalizeCountOptions({ m: 5, n: 5, scratch }), 2).workers, 1);
  t.is(setUpEngine(normalizeCountOptions({ m: 5, n: 5, scratch }), 16).workers, 1);
  t.is(setUpEngine(normalizeCountOptions({ m: 11, n: 11, scratch }), 16).workers, 16);
});

test('more workers than cores are allowed, with a warning before the count', (t) => {
  const cores = os.availableParallelism();
  const options = normalizeCountOptions({ m: 11, n: 11, workers: cores + 1, memory: '1G', scratch: tempScratch(t) });
  const setup = setUpEngine(options);
  t.is(setup.workers, cores + 1);
  t.deepEqual(countWarnings(options, setup), [
    `${cores + 1} workers on ${cores} core${cores === 1 ? '' : 's'}: the workers take turns, so the count runs slower than with ${cores}`,
  ]);
  const fewer = normalizeCountOptions({ m: 11, n: 11, workers: cores, memory: '1G', scratch: tempScratch(t) });
  t.deepEqual(countWarnings(fewer, setUpEngine(fewer)), []);
});
