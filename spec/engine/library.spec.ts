// The library's surface, in process: countLegal against the oracle, its events, its abort and its
// errors (which name options, never flags).
import test from 'ava';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AbortedError,
  countLegal,
  GocountError,
  InvalidOptionError,
  type GocountErrorCode,
  type ProgressEvent,
  type StepReport,
} from '../../lib/index.js';
import { countInMemoryByColumn } from '../../lib/count/in-memory.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';

/** What several tests below share, each made once. */
const shared = sharedScratch();

/** 5×7 counted with allColumns in a scratch folder of its own (made before, so kept), and by the oracle: once, for the tests below. */
const SCRATCH_5X7 = path.join(shared, '5x7');
const count5x7 = once(() => {
  mkdirSync(SCRATCH_5X7);
  return countLegal({ m: 5, n: 7, memory: '64M', workers: 1, scratch: SCRATCH_5X7, allColumns: true });
});
const oracle5x7 = once(() => countInMemoryByColumn({ width: 5, columns: 7 }));

test('countLegal counts 5×7 as the oracle does', async (t) => {
  const result = await count5x7();
  t.is(result.legal, 21026744638200555n);
  t.is(result.legal, oracle5x7()[6]);
  t.deepEqual(result.sweep, { width: 5, columns: 7 });
});

test('countLegal with allColumns counts every column prefix as the oracle does', async (t) => {
  const result = await count5x7();
  t.deepEqual(
    result.columns,
    oracle5x7().map((legal, k) => ({ m: 5, n: k + 1, legal })),
  );
});

test("countLegal's result has every step's report, and the states expanded are theirs summed", async (t) => {
  const result = await count5x7();
  t.is(result.steps.length, 35);
  t.is(
    result.stats.statesExpanded,
    result.steps.reduce((n, step) => n + step.states, 0),
  );
});

test('countLegal leaves its scratch folder empty', async (t) => {
  await count5x7();
  t.deepEqual(readdirSync(SCRATCH_5X7), []);
});

test('the progress events come in order: pass-start, then step-start … step-end for each step, then done', async (t) => {
  const events: ProgressEvent[] = [];
  const result = await countLegal({
    m: 3,
    n: 4,
    memory: 1 << 20,
    workers: 2,
    fanIn: 2,
    scratch: tempScratch(t),
    onProgress: (event) => events.push(event),
  });
  t.deepEqual(events[0], { type: 'pass-start', pass: 1, passes: 1, width: 3, steps: 12, firstStep: 1, workers: 2 });
  t.deepEqual(
    result.log.map((entry) => entry.workers),
    Array.from({ length: 12 }, () => 2),
  );
  const steps = events.filter((event) => event.type === 'step-start' || event.type === 'step-end');
  t.is(steps.length, 24);
  steps.forEach((event, i) => {
    t.is(event.type, i % 2 === 0 ? 'step-start' : 'step-end');
    t.is(event.type === 'step-start' ? event.step : event.type === 'step-end' ? event.report.step : -1, Math.floor(i / 2) + 1);
  });
  t.deepEqual(events.at(-1), { type: 'done' });
});

test('a step-end report is the step log entry (1-based step and pass, states, nsPerState) plus the probes', async (t) => {
  const reports: StepReport[] = [];
  const result = await countLegal({
    m: 3,
    n: 3,
    workers: 1,
    scratch: tempScratch(t),
    onProgress: (event) => event.type === 'step-end' && reports.push(event.report),
  });
  t.deepEqual(
    reports.map(({ probes: _probes, ...entry }) => entry),
    result.log,
  );
  t.deepEqual(result.steps, reports);
  t.deepEqual(
    reports.map((report) => [report.pass, report.step]),
    Array.from({ length: 9 }, (_, i) => [1, i + 1]),
  );
  t.deepEqual(
    reports.map((report) => report.states),
    [1, 2, 5, 14, 24, 35, 29, 43, 14],
  );
  t.true(reports.every((report) => Object.keys(report.nsPerState).join() === 'read,expand,aggregate,sort,write,drain'));
});

/** 7×7 with a budget small enough that every step goes to files, in a scratch folder of its own. */
const ABORTED = { m: 7, n: 7, memory: 300 << 10, fanIn: 4, workers: 1, scratch: path.join(shared, '7x7') };

/** The 7×7 count aborted after its step 21, once for the two tests below: a promise that rejects with what the abort threw. */
const abortedCount = once(() => {
  mkdirSync(ABORTED.scratch);
  const controller = new AbortController();
  return countLegal({
    ...ABORTED,
    signal: controller.signal,
    onProgress: (event) => {
      if (event.type === 'step-end' && event.report.step === 21) controller.abort();
    },
  });
});

test('an aborted count stops between steps with GOCOUNT_ABORTED', async (t) => {
  const stopped = await t.throwsAsync(abortedCount(), { instanceOf: AbortedError });
  t.is(stopped?.code, 'GOCOUNT_ABORTED');
  t.regex(stopped?.message ?? '', /^stopped; the same command resumes at step 22 of 49, from .*$/);
});

test('the same count resumes an aborted one to the exact number, saying where', async (t) => {
  const stopped = await abortedCount().then(
    () => undefined,
    (error: Error) => error,
  );
  const notes: string[] = [];
  const resumed = await countLegal({ ...ABORTED, onProgress: (event) => event.type === 'note' && notes.push(event.message) });
  t.is(resumed.legal, 83677847847984287628595n);
  const folder = stopped?.message.split(', from ')[1];
  t.deepEqual(notes, [`steps 1–21 of 49 are complete in ${folder}: resuming at step 22`]);
});

/** What a count stopped by an abort says: the step the same count resumes at, and the folder it resumes from. */
const RESUMES_AT = /^stopped; the same command resumes at step (\d+) of 49, from (.*)$/;

for (const workers of [1, 2]) {
  /** 7×7 at the default budget: every step stays in memory, none goes to a file. */
  const IN_MEMORY = { m: 7, n: 7, workers, scratch: path.join(shared, `7x7-in-memory-${workers}`) };

  /**
   * The count aborted at the end of its step 30, once for the two tests below: what it threw, and
   * the run files each step wrote.
   */
  const abortedInMemory = once(async () => {
    mkdirSync(IN_MEMORY.scratch);
    const controller = new AbortController();
    const runsOut: number[] = [];
    const onProgress = (event: ProgressEvent) => {
      if (event.type !== 'step-end') return;
      runsOut.push(event.report.runsOut);
      if (event.report.step === 30) controller.abort();
    };
    const stopped = await countLegal({ ...IN_MEMORY, signal: controller.signal, onProgress }).then(
      () => undefined,
      (error: unknown) => error,
    );
    return { stopped, runsOut };
  });

  test(`a count of ${workers === 1 ? 'one worker' : 'two workers'} aborted while its steps are in memory names one step, the one after the last it did`, async (t) => {
    const { stopped, runsOut } = await abortedInMemory();
    t.deepEqual(runsOut, new Array(30).fill(0), 'every step was in memory');
    t.true(stopped instanceof AbortedError);
    t.is(RESUMES_AT.exec((stopped as Error).message)?.[1], '31', (stopped as Error).message);
  });

  test(`a count of ${workers === 1 ? 'one worker' : 'two workers'} aborted while its steps are in memory resumes at the step it named, to the exact number`, async (t) => {
    const { stopped } = await abortedInMemory();
    const [, named, folder] = RESUMES_AT.exec((stopped as Error).message) ?? [];
    const starts: number[] = [];
    const notes: string[] = [];
    const resumed = await countLegal({
      ...IN_MEMORY,
      onProgress: (event) => {
        if (event.type === 'pass-start') starts.push(event.firstStep);
        if (event.type === 'note') notes.push(event.message);
      },
    });
    t.deepEqual(starts, [31], 'the step after the last the abort saw done');
    t.is(named, '31', 'the step the abort named');
    t.deepEqual(notes, [`steps 1–30 of 49 are complete in ${folder}: resuming at step 31`]);
    t.is(resumed.legal, 83677847847984287628595n);
  });
}

const refusals: Array<[string, object, GocountErrorCode, RegExp]> = [
  ['fanIn', { fanIn: 1 }, 'GOCOUNT_INVALID_OPTION', /^fanIn 1: must be an integer of at least 2$/],
  ['workers', { workers: 0 }, 'GOCOUNT_INVALID_OPTION', /^workers 0: must be an integer from 1 to 256$/],
  ['residuesPerPass', { residuesPerPass: 1.5 }, 'GOCOUNT_INVALID_OPTION', /^residuesPerPass 1.5: must be an integer from 1 to 64$/],
  ['memory', { memory: '12Q' }, 'GOCOUNT_INVALID_OPTION', /^memory 12Q: not a size/],
  ['memory', { memory: -5 }, 'GOCOUNT_INVALID_OPTION', /^memory -5: not a positive whole number of bytes$/],
  [
    'memory',
    { memory: '10K', workers: 1 },
    'GOCOUNT_INVALID_OPTION',
    /^memory 10 KiB: too small, for 1 residue with a fan-in of 64: give at least/,
  ],
  ['tableMemory', { tableMemory: '32K' }, 'GOCOUNT_INVALID_OPTION', /^tableMemory 32K: must be from 64 KiB to 3.5 GiB$/],
  ['tableMemory', { tableMemory: 4 * 2 ** 30 }, 'GOCOUNT_INVALID_OPTION', /^tableMemory 4294967296: must be from 64 KiB to 3.5 GiB$/],
  [
    'tableMemory',
    { tableMemory: '1M', partitions: 2 },
    'GOCOUNT_INVALID_OPTION',
    /^tableMemory 1M: not for a count split into partitions: its tasks take the default$/,
  ],
  [
    'tableMemory',
    { tableMemory: '64K', memory: '8G', m: 13, n: 13, workers: 1 },
    'GOCOUNT_INVALID_OPTION',
    /^tableMemory 64 KiB: too small for a table of .* per worker in at most 1024 memories: give at least .*$/,
  ],
  [
    'disk',
    { memory: '4M', disk: '1K', m: 9, n: 9 },
    'GOCOUNT_INVALID_OPTION',
    /^disk 1.0 KiB: less than the .* of disk this count may need$/,
  ],
];

for (const [option, given, code, message] of refusals) {
  test(`countLegal refuses a bad ${option} (${JSON.stringify(given)}) with ${code}, naming the option and no flag`, async (t) => {
    const error = await t.throwsAsync(countLegal({ m: 3, n: 3, scratch: tempScratch(t), ...given }), { instanceOf: InvalidOptionError });
    t.is(error?.code, code);
    t.is(error?.option, option);
    t.regex(error?.message ?? '', message);
    t.notRegex(error?.message ?? '', /--/);
  });
}

test('countLegal refuses a board that is not one with GOCOUNT_INVALID_SIZE', async (t) => {
  for (const [m, n] of [
    [0, 3],
    [2.5, 3],
    [20, 20],
  ]) {
    const error = await t.throwsAsync(countLegal({ m, n }), { instanceOf: GocountError });
    t.is(error?.code, 'GOCOUNT_INVALID_SIZE', `${m}×${n}`);
    t.is(error?.exitCode, 2);
  }
});

test('a resume says what is complete in words: only the empty board, or every step when result.json was damaged', async (t) => {
  const scratch = tempScratch(t);
  const notes: string[] = [];
  const onProgress = (event: ProgressEvent) => event.type === 'note' && notes.push(event.message);
  const options = { m: 4, n: 4, workers: 1, keep: true, scratch };
  const stop = new AbortController();
  stop.abort();
  await t.throwsAsync(countLegal({ ...options, signal: stop.signal }), { instanceOf: AbortedError });
  t.is((await countLegal({ ...options, onProgress })).legal, 24318165n);
  t.regex(notes[0], /^no step is complete yet in .*4x4\/moduli-1-[0-9a-f]+, only the empty board: starting at step 1$/);

  const count = / in (.*), only the empty board/.exec(notes[0])![1];
  writeFileSync(path.join(count, 'result.json'), '{"moduli":[1],"perColumn":[],"crc":0}\n');
  notes.length = 0;
  t.is((await countLegal({ ...options, onProgress })).legal, 24318165n);
  t.deepEqual(notes.slice(0, 2), [
    `${count}/result.json was damaged and is removed: the count's result is made again from its last step on disk`,
    `all 16 steps are complete in ${count}: the count is summed again from step 16`,
  ]);
});
