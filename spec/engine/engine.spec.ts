import test from 'ava';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { countInMemory, countInMemoryByColumn } from '../../lib/count/in-memory.js';
import { countWithEngine, setUpEngine } from '../../lib/count/with-engine.js';
import type { EngineOptions } from '../../lib/count/engine-types.js';
import { shardsFor } from '../../lib/engine/state-table.js';
import { TableRouter } from '../../lib/engine/table-router.js';
import { paper } from '../support/paper.js';
import { ignoreProgress } from '../../lib/observe/progress.js';
import type { Sweep } from '../../lib/board/shape.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch as makeSharedScratch } from '../support/shared.js';
import { withPipelineSteps } from '../support/pipeline-steps.js';
import { buildColumnTransfer, exactTerms } from '../../lib/paper/recurrence/column-transfer.js';
import { MANIFEST_FILE, stepFolderName } from '../../lib/format/folder-names.js';

const engineDefaults = (t: import('ava').ExecutionContext) => ({
  memory: 64 << 20,
  scratchDir: tempScratch(t),
  fanIn: 64,
  keep: false,
  workers: 1,
  onProgress: ignoreProgress,
});

const engine = (t: import('ava').ExecutionContext, sweep: Sweep, options: Partial<EngineOptions> = {}) =>
  countWithEngine({ sweep, ...engineDefaults(t), ...options });

const sharedScratch = makeSharedScratch();

const boards: Array<[number, number]> = [];
for (let m = 1; m <= 6; m++) for (let n = m; n <= 6; n++) boards.push([m, n]);
boards.push([3, 12], [4, 9], [2, 11]);

// Every board up to 6×6 and the rectangles 3×12, 4×9 and 2×11: one test each.
const engineEqualsOracle = test.macro({
  async exec(t, m: number, n: number) {
    const sweep = { width: m, columns: n };
    const expected = countInMemory(sweep);
    const onePass = await engine(t, sweep);
    t.is(onePass.legal, expected, 'in one pass');
    t.is(onePass.passes, 1);
    const split = await engine(t, sweep, { residuesPerPass: 1 });
    t.is(split.legal, expected, 'one modulus per pass');
    t.is(split.passes, split.moduli.length);
    t.deepEqual(split.residues, onePass.residues);
  },
  title: (_given, m: number, n: number) => `${m}×${n}: the engine equals the in-memory oracle, in one pass and one modulus per pass`,
});

for (const [m, n] of boards) test(engineEqualsOracle, m, n);

/** 6×7 with some steps on files, once for the two tests below, and its scratch folder after it. */
const columnsCount = once(async () => {
  const sweep = { width: 6, columns: 7 };
  const scratchDir = mkdtempSync(path.join(sharedScratch, 'columns-'));
  const result = await countWithEngine({
    sweep,
    memory: 200 << 10,
    fanIn: 4,
    scratchDir,
    keep: false,
    workers: 1,
    onProgress: ignoreProgress,
  });
  return { sweep, scratchDir, result };
});

test('the sums at column boundaries are L(m,1) … L(m,n), with some steps on files', async (t) => {
  const { sweep, result } = await columnsCount();
  t.deepEqual(result.perColumn, countInMemoryByColumn(sweep));
  t.true(
    result.reports.some((r) => r.runsOut > 0),
    'some step went to files',
  );
});

test('a count that went to files leaves its scratch folder empty', async (t) => {
  const { scratchDir } = await columnsCount();
  t.deepEqual(readdirSync(scratchDir), []);
});

test('a tiny memory budget and --fan-in 2 force many runs and merges in rounds; the count stays exact', async (t) => {
  const sweep = { width: 7, columns: 5 };
  const result = await engine(t, sweep, { memory: 150 << 10, fanIn: 2 });
  t.is(result.legal, countInMemory(sweep));
  const runsIn = Math.max(...result.reports.map((r) => r.runsIn));
  t.true(runsIn > 4, `the largest step was read from ${runsIn} runs: merged in ${Math.ceil(Math.log2(runsIn))} rounds`);
  t.true(
    result.reports.every((r) => r.runsIn === 0 || r.recordsIn >= r.states),
    'redundancy is at least 1',
  );
});

test('the same with several residues per pass split 2 + 2 + …, and --keep', async (t) => {
  const sweep = { width: 6, columns: 7 };
  const scratchDir = tempScratch(t);
  const result = await engine(t, sweep, { memory: 200 << 10, fanIn: 3, residuesPerPass: 2, keep: true, scratchDir });
  t.is(result.legal, countInMemory(sweep));
  t.is(result.moduli.length, 3);
  t.is(result.passes, 2);
  // --keep: every step of both passes stays, each complete with its manifest.
  const passes = readdirSync(path.join(scratchDir, '6x7'));
  t.is(passes.length, 2);
  for (const pass of passes) {
    const steps = readdirSync(path.join(scratchDir, '6x7', pass)).filter((name) => name.startsWith('step-'));
    t.is(steps.length, 6 * 7 + 1);
    for (const step of steps) t.true(existsSync(path.join(scratchDir, '6x7', pass, step, MANIFEST_FILE)), step);
  }
});

test('width 19: 19×1 counted 19 wide equals 1×19; 12×2 and 11×3 wide equal their narrow sweeps', async (t) => {
  t.is((await engine(t, { width: 19, columns: 1 })).legal, countInMemory({ width: 1, columns: 19 }));
  t.is((await engine(t, { width: 19, columns: 1 }, { memory: 200 << 10, fanIn: 2 })).legal, 176377839n);
  t.is((await engine(t, { width: 12, columns: 2 })).legal, countInMemory({ width: 2, columns: 12 }));
  t.is((await engine(t, { width: 11, columns: 3 }, { memory: 1 << 20, fanIn: 4 })).legal, countInMemory({ width: 3, columns: 11 }));
});

test('7×7 in memory, from files, and over passes agree with Table 3', async (t) => {
  const expected = 83677847847984287628595n;
  t.is((await engine(t, { width: 7, columns: 7 })).legal, expected);
  t.is((await engine(t, { width: 7, columns: 7 }, { memory: 400 << 10, fanIn: 4, residuesPerPass: 2 })).legal, expected);
});

test('9×9 with its state table split over memories of 1 MiB of records equals Table 3, which the oracle gives', async (t) => {
  const sweep = { width: 9, columns: 9 };
  const options = { memory: 256 << 20, tableMemory: 1 << 20 };
  const plan = setUpEngine({ ...engineDefaults(t), sweep, ...options }).plans[0];
  t.is(shardsFor(plan.tableCapacity, 5, plan.tableShardBytes), 7);
  // One worker counts in this thread: its successors pass the router, which only a table of several memories has.
  const route = TableRouter.prototype.route;
  let routed = 0;
  TableRouter.prototype.route = function (this: TableRouter, states, residues, n, k) {
    routed += n;
    route.call(this, states, residues, n, k);
  };
  try {
    // Its steps all fit in memory: made to fall back to the pipeline, whose table they fill.
    t.is((await withPipelineSteps(() => engine(t, sweep, options))).legal, BigInt(paper.legalSquare.values['9']));
  } finally {
    TableRouter.prototype.route = route;
  }
  t.true(routed > 1e6, `${routed} successors routed`);
});

test('7×7 with two workers, each table split over memories of 64 KiB, and a budget that spills equals the oracle', async (t) => {
  const sweep = { width: 7, columns: 7 };
  const options = { workers: 2, memory: 1000 << 10, fanIn: 4, tableMemory: 64 << 10 };
  const plan = setUpEngine({ ...engineDefaults(t), sweep, ...options }).plans[0];
  t.is(shardsFor(plan.tableCapacity, 3, plan.tableShardBytes), 2);
  const result = await engine(t, sweep, options);
  t.is(result.legal, countInMemory(sweep));
  const spilled = result.reports.filter((r) => r.runsOut > 0).length;
  t.true(spilled >= 10, `${spilled} steps went to files`);
});

test('7×7 at a budget whose table cannot hold the largest steps keeps whole the steps of fewer residues, beyond the run capacity in records of all three', async (t) => {
  const sweep = { width: 7, columns: 7 };
  const options = { memory: 600 << 10, fanIn: 4 };
  const plan = setUpEngine({ ...engineDefaults(t), sweep, ...options }).plans[0];
  t.true(plan.mayOverflow);
  const result = await engine(t, sweep, options);
  t.is(result.legal, countInMemory(sweep));
  const fromMemory = result.reports.filter((r) => r.runsIn === 0 && r.states > plan.memoryRunCapacity);
  t.true(fromMemory.length >= 10, `${fromMemory.length} steps of more than ${plan.memoryRunCapacity} states read from memory`);
});

const workersGiveTheOracleCount = test.macro({
  async exec(t, workers: number, m: number, n: number) {
    const sweep = { width: m, columns: n };
    const expected = countInMemory(sweep);
    t.is((await engine(t, sweep, { workers })).legal, expected, 'in memory');
    t.is((await engine(t, sweep, { workers, memory: workers * (150 << 10), fanIn: 2 })).legal, expected, 'from files');
  },
  title: (_given, workers: number, m: number, n: number) => `${m}×${n}, ${workers} workers: the oracle count, in memory and from files`,
});

for (const workers of [2, 3, 4]) {
  for (const [m, n] of [
    [1, 1],
    [2, 3],
    [3, 3],
    [4, 4],
    [3, 7],
    [5, 5],
    [4, 6],
  ])
    test.serial(workersGiveTheOracleCount, workers, m, n);
}

test('two workers with a tiny budget, --keep, and passes: runs from both workers in every step, exact', async (t) => {
  const sweep = { width: 7, columns: 5 };
  const scratchDir = tempScratch(t);
  const result = await engine(t, sweep, { workers: 2, memory: 260 << 10, fanIn: 2, keep: true, residuesPerPass: 1, scratchDir });
  t.is(result.legal, countInMemory(sweep));
  t.true(
    result.reports.some((r) => r.runsIn > 4),
    'some step merged in rounds',
  );
  const pass = readdirSync(path.join(scratchDir, '7x5'))[0];
  const files = readdirSync(path.join(scratchDir, '7x5', pass, stepFolderName(20)));
  t.true(files.some((f) => f.startsWith('run-w0-')) && files.some((f) => f.startsWith('run-w1-')), files.join(' '));
});

test('the column-boundary sums with two workers', async (t) => {
  const sweep = { width: 3, columns: 8 };
  t.deepEqual((await engine(t, sweep, { workers: 2 })).perColumn, countInMemoryByColumn(sweep));
});

test('a board whose moduli are more than a state table holds (64) is counted in passes of 64: 2×700 equals the column transfer', async (t) => {
  const sweep = { width: 2, columns: 700 };
  const result = await engine(t, sweep);
  t.is(result.moduli.length, 70);
  t.is(result.passes, 2);
  t.is(result.legal, exactTerms(buildColumnTransfer(2), 701)[700]);
});
