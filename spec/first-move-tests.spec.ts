import test from 'ava';
import { readdirSync } from 'node:fs';
import { seededRandom } from '../lib/random.js';
import { MoveTestPool, valueByMoveTests } from '../lib/solve/first-move-tests.js';
import { solve } from '../lib/solve/solve.js';
import { runCli } from './support/run-cli.js';
import { tempScratch } from './support/scratch.js';

/**
 * Workers that know each move's value and answer in an order drawn at random; a test given up
 * answers undefined or, as a worker that finished first would, the truth.
 */
class DrawnPool implements MoveTestPool {
  started = 0;
  private readonly running: Array<{ i: number; t: number; cancelled: boolean } | null>;

  constructor(
    private readonly values: number[],
    readonly size: number,
    private readonly random: () => number,
  ) {
    this.running = new Array(size).fill(null);
  }

  start(w: number, i: number, t: number): void {
    if (this.running[w]) throw new Error(`worker ${w} started while busy`);
    this.running[w] = { i, t, cancelled: false };
    this.started++;
  }

  cancel(w: number): void {
    if (!this.running[w]) throw new Error(`worker ${w} cancelled while idle`);
    this.running[w].cancelled = true;
  }

  next(): { worker: number; atLeast: boolean | undefined } {
    const busy = this.running.flatMap((task, w) => (task ? [w] : []));
    if (busy.length === 0) throw new Error('waited with no test running');
    const worker = busy[Math.floor(this.random() * busy.length)];
    const { i, t, cancelled } = this.running[worker]!;
    this.running[worker] = null;
    return { worker, atLeast: cancelled && this.random() < 0.5 ? undefined : this.values[i] >= t };
  }
}

test('the first moves tested several at once give the best of their values and every move that achieves it', (t) => {
  const random = seededRandom(13);
  for (let round = 0; round < 300; round++) {
    const points = 1 + Math.floor(random() * 12);
    const values = Array.from({ length: 1 + Math.floor(random() * (points + 1)) }, () => Math.floor(random() * (2 * points + 1)) - points);
    const best = Math.max(...values);
    const guess = Math.floor(random() * (2 * points + 1)) - points;
    const pool = new DrawnPool(values, 1 + Math.floor(random() * 4), random);
    const state = { proved: { lower: 1, upper: 0 }, testing: new Int32Array(pool.size) };
    const tests = valueByMoveTests(values.length, points, guess, pool, state);
    const label = `values ${values}, guess ${guess}, ${pool.size} workers`;
    t.is(tests.value, best, label);
    t.deepEqual(
      tests.best,
      values.map((v) => v === best),
      label,
    );
    t.deepEqual(state.proved, { lower: best, upper: best }, label);
    t.deepEqual(Array.from(state.testing), new Array(pool.size).fill(-1), label);
    // Each test a move's answer to one threshold, each threshold once unless given up: a bound on the work.
    t.true(pool.started <= values.length * (2 * points + 2), label);
  }
});

test('--workers: the empty board tested in worker threads has the value, best moves and bounds of the main thread; 1x6 to 1x9, 2x4, 3x3', (t) => {
  for (const [m, n] of [
    [1, 6],
    [1, 7],
    [1, 8],
    [1, 9],
    [2, 4],
    [3, 3],
  ]) {
    const reports: string[] = [];
    const main = solve({ m, n, emptyBoardOnly: true, memory: 384 << 20 });
    const workers = solve({
      m,
      n,
      emptyBoardOnly: true,
      memory: 384 << 20,
      workers: 2,
      onProgress: (phase, _done, _total, detail) => {
        if (phase === 'history search' && detail) reports.push(detail);
      },
    });
    t.is(workers.value, main.value, `${m}x${n}`);
    t.deepEqual(workers.bestMoves, main.bestMoves, `${m}x${n}`);
    t.deepEqual(workers.moves, main.moves, `${m}x${n}`);
    t.is(workers.retrograde.fromImages, main.retrograde.fromImages, `${m}x${n}`);
    t.true(workers.retrograde.searchNodes > 0, `${m}x${n}`);
    // A report at each answer at least, naming the moves being tested, if any.
    t.true(reports.length > 0, `${m}x${n}`);
    const moves = '([a-h][1-3]|i1|pass)(, ([a-h][1-3]|i1|pass))*';
    const line = new RegExp(
      `^\\d+ positions searched; the empty board's value (from -?\\d+ to -?\\d+(, first moves? ${moves} being searched)?|-?\\d+, (its moves|its moves? ${moves}) being tested)$`,
    );
    t.true(
      reports.every((detail) => line.test(detail)),
      reports.join('\n'),
    );
  }
  // With the moves generated in every thread (a budget below them).
  const generated = solve({ m: 2, n: 4, emptyBoardOnly: true, memory: 1600 * 1024, workers: 3 });
  t.true(generated.retrograde.movesOnDisk);
  t.deepEqual(generated.moves, solve({ m: 2, n: 4, emptyBoardOnly: true, memory: 64 << 20 }).moves);
});

test('--workers is refused in one line where it does not apply, out of range, or with too little memory for its parts', (t) => {
  const dir = tempScratch(t);
  const refusals: Array<[string[], string | RegExp]> = [
    [['solve', '2x2', '--workers', '2'], '--workers applies only to --empty-board-only, under no-cycle'],
    [
      ['solve', '2x2', '--rule', 'cycle-draw', '--empty-board-only', '--workers', '2'],
      '--workers applies only to --empty-board-only, under no-cycle',
    ],
    [['solve', '2x2', '--empty-board-only', '--workers', '0'], 'workers 0: must be an integer from 1 to 256'],
    [['solve', '2x2', '--empty-board-only', '--workers', 'two'], '--workers two: not a number'],
    [
      ['solve', '2x2', '--db', 'x.db', '--position', '../..', '--workers', '2'],
      '--workers applies only to a solve, not to a look-up with --position',
    ],
    [
      ['solve', '2x4', '--empty-board-only', '--workers', '2', '--memory', '30K', '--scratch', dir, '--quiet'],
      /^board 2x4, rule no-cycle: its 8250 states need at least \d+ KiB in memory, more than 1\/3 of --memory 30 KiB, the part of each of the 3 threads with --workers 2$/,
    ],
  ];
  for (const [args, expected] of refusals) {
    const { status, stderr } = runCli(args);
    t.is(status, 2, args.join(' '));
    const line = stderr.trim();
    t.is(line.split('\n').length, 1, line);
    if (typeof expected === 'string') t.true(line.endsWith(expected), line);
    else t.regex(line.replace(/^gocount: /, ''), expected);
  }
  t.deepEqual(readdirSync(dir), []);
  // The library's own refusal names its option.
  t.throws(() => solve({ m: 2, n: 2, workers: 2 }), {
    message: "workers 2: applies only to the empty board's tests (no-cycle, emptyBoardOnly)",
  });
  t.throws(() => solve({ m: 2, n: 2, emptyBoardOnly: true, workers: 1.5 }), { message: 'workers 1.5: must be an integer from 1 to 256' });
});
