import test from 'ava';
import { closeSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { BorderStates } from '../../lib/border/border.js';
import { keyOfBorder } from '../../lib/border/window-key.js';
import { oracleCount } from '../support/oracle.js';
import { readSplitIndex, SectionReader } from '../../lib/format/section-reader.js';
import { stepFolderName } from '../../lib/format/folder-names.js';
import { dealtOwners, packedOwners } from '../../lib/engine/window-owners.js';
import { sampleMask } from '../../lib/engine/step-routing.js';
import { maxStates } from '../../lib/board/table1.js';
import { BUCKETS } from '../../lib/border/window-key.js';
import { numberWords, stateNumber } from '../support/state-key.js';
import { tempScratch } from '../support/scratch.js';
import { heldTwice, holders, stateName } from '../support/holders.js';
import { verifyPath } from '../../lib/verify/verify.js';
import { keptCount, SWEEP_8X6 } from '../support/kept-count.js';
import { countLegal } from '../../lib/count/count-legal.js';
import { paper } from '../support/paper.js';

const SWEEP = SWEEP_8X6;

/**
 * 8×6 in three worker threads, every step kept: who holds what, step by step. No state is held by
 * two workers; the states of one window key (for the window the state's step is in, or, for a
 * window's first step, the window before, which made them) are held by one worker; records move
 * between workers only at a window's first step; and the count is exact.
 */
const whoHoldsWhat = test.macro({
  async exec(t, windowRows: number) {
    const sweep = SWEEP;
    const scratchDir = tempScratch(t);
    const result = await keptCount(scratchDir, { workers: 3, windowRows });
    t.is(result.legal, oracleCount(sweep));
    const [pass] = readdirSync(path.join(scratchDir, '8x6'));
    const border = new BorderStates(sweep.width);
    let states = 0;
    let split = 0;
    const workersSeen = new Set<number>();
    for (let step = 1; step <= sweep.width * sweep.columns; step++) {
      const held = holders(path.join(scratchDir, '8x6', pass, stepFolderName(step)));
      const y = step % sweep.width;
      // The step that made these states (it placed row y − 1) was in the window from row r.
      const madeAt = (y + sweep.width - 1) % sweep.width;
      const r = madeAt - (madeAt % windowRows);
      const lastColumn = Math.floor((step - 1) / sweep.width) === sweep.columns - 1;
      const keyHolder = new Map<bigint, number>();
      // Collected, then asserted once a step: an assertion per state costs more than the count.
      t.deepEqual(heldTwice(step, held), []);
      const undecoded: string[] = [];
      for (const [state, workers] of held) {
        if (!border.decode(...numberWords(state), y)) undecoded.push(stateName(state));
        const key = keyOfBorder(border.kind, border.colour, r, windowRows, lastColumn);
        const holder = keyHolder.get(key);
        if (holder !== undefined && holder !== workers[0]) split++;
        keyHolder.set(key, workers[0]);
        workersSeen.add(workers[0]);
        states++;
      }
      t.deepEqual(undecoded, [], `step ${step}: states that are not border states of the step`);
    }
    t.is(split, 0, 'a window key held by two workers');
    t.deepEqual([...workersSeen].sort(), [0, 1, 2]);
    t.true(states > 10_000, `${states} states`);
    for (const report of result.reports) {
      const y = (report.step - 1) % sweep.width;
      if (y % windowRows !== 0) t.is(report.moved, 0, `step ${report.step} moved records inside a window`);
      t.true(report.busiest! >= 1);
    }
    t.true(result.reports.some((report) => report.moved! > 0));
  },
  title: (_given, windowRows: number) =>
    `8×6 in three threads, windows of ${windowRows} rows: no state held twice, a window's key by one worker, records moved only at a window's first step, exact`,
});

for (const rows of [1, 2, 3, 7]) test(whoHoldsWhat, rows);

// Weighed by the successors as the expansion made them, 9×9's larger steps left the busier thread
// 1.047 times the mean on average, and up to 1.154: a state counted once for each of its parents.
// The states weighed are picked by their hash, not by the order the threads hand them over in, so
// every run gives the same figure: 1.0057, every state weighed on a board this small (1.016–1.032
// when one in 32 was weighed, picked by the order). In 10 threads, what a count of 9×9 uses, it was
// 1.17–1.20 and is 1.029: not tested here, as 10 threads take half a minute in the suite.
test('9×9 in two threads through the stream pipeline: owners packed by the states the tables drain share the states within 1.5%, exact', async (t) => {
  const result = await countLegal({ m: 9, n: 9, workers: 2, memory: '16M', scratch: tempScratch(t) });
  t.is(result.legal, BigInt(paper.legalSquare.values['9']));
  const largest = Math.max(...result.steps.map((step) => step.states));
  const larger = result.steps.filter((step) => step.states > largest / 4);
  const busiest = larger.reduce((sum, step) => sum + step.busiest!, 0) / larger.length;
  t.true(larger.length > 50, `${larger.length} steps`);
  t.true(busiest < 1.015, `the busier thread held ${busiest} times the mean`);
});

test('the states weighed: one in 32 where each worker still weighs 2^16 at the largest steps, else more, up to every one', (t) => {
  t.is(sampleMask(13, 2), 31);
  t.is(sampleMask(11, 2), 15);
  t.is(sampleMask(11, 16), 1);
  t.is(sampleMask(9, 2), 0);
  t.is(sampleMask(9, 16), 0);
  for (const width of [3, 7, 9, 11, 13, 15, 19])
    for (const workers of [1, 2, 16, 256]) {
      const every = sampleMask(width, workers) + 1;
      const weighed = maxStates(width) / workers / every;
      t.true(every === 1 || weighed >= 2 ** 16, `${width} wide, ${workers} workers: one in ${every}`);
      t.true(every === 32 || weighed / 2 < 2 ** 16, `${width} wide, ${workers} workers: one in ${every}, not fewer`);
    }
});

test('packing deals the heaviest buckets first, each to the lightest worker, and empty ones in turn', (t) => {
  const weights = new Float64Array(BUCKETS);
  weights[5] = 100;
  weights[9] = 60;
  weights[11] = 50;
  weights[12] = 10;
  const owners = packedOwners(weights, 2);
  t.is(owners[5], 0);
  t.is(owners[9], 1);
  t.is(owners[11], 1);
  t.is(owners[12], 0);
  const load = [0, 0];
  for (let b = 0; b < BUCKETS; b++) load[owners[b]] += weights[b];
  t.deepEqual(load, [110, 110]);
  const counts = [0, 0];
  for (let b = 0; b < BUCKETS; b++) counts[owners[b]]++;
  t.true(Math.abs(counts[0] - counts[1]) <= 2, counts.join(' '));
  t.deepEqual(
    [...packedOwners(weights, 1)].every((d) => d === 0),
    true,
  );
  t.deepEqual([...dealtOwners(3).subarray(0, 6)], [0, 1, 2, 0, 1, 2]);
});

/**
 * Every kept split run of a step folder: per state, the sections holding it (owner; a mask, bit w for
 * worker w) and how many times it was written; records moved are those in the sections of another
 * thread's workers (each thread serving `served` workers in a row).
 */
function sections(dir: string, served = 1): { owners: Map<number, number>; writes: Map<number, number>; records: number; moved: number } {
  const owners = new Map<number, number>();
  const writes = new Map<number, number>();
  let records = 0;
  let moved = 0;
  for (const file of readdirSync(dir).filter((f) => f.startsWith('split-w'))) {
    const fd = openSync(path.join(dir, file), 'r');
    const { header } = readSplitIndex(file, fd);
    closeSync(fd);
    for (let owner = 0; owner < header.owners; owner++) {
      const reader = new SectionReader(path.join(dir, file), owner, Buffer.alloc(1 << 14));
      while (reader.next()) {
        const state = stateNumber(reader.hi, reader.lo);
        if (owner >= 32) throw new RangeError(`a mask of owners holds 32, not owner ${owner}`);
        owners.set(state, (owners.get(state) ?? 0) | (1 << owner));
        writes.set(state, (writes.get(state) ?? 0) + 1);
        records++;
        if (Math.floor(owner / served) !== Math.floor(header.writer / served)) moved++;
      }
    }
  }
  return { owners, writes, records, moved };
}

/** The states in more than one worker's sections, in words. */
function inTwoSections(step: number, owners: Map<number, number>): string[] {
  const twice: string[] = [];
  for (const [state, held] of owners) {
    if ((held & (held - 1)) === 0) continue; // one bit: one worker's
    const workers = [...Array(32).keys()].filter((w) => (held >>> w) & 1);
    twice.push(`step ${step}: state ${stateName(state)} in the sections of workers ${workers.join(', ')}`);
  }
  return twice;
}

/**
 * 8×6 in two partitions of two workers (a thread each), every step kept: no state is in two
 * workers' sections; inside a window every state is written once, by its owner, and nothing moves;
 * at a window's first step its successors move to their key's owner; the step log's `moved` is
 * what the sections show; exact.
 */
const whoHoldsWhatInPartitions = test.macro({
  async exec(t, windowRows: number) {
    const sweep = SWEEP;
    const scratchDir = tempScratch(t);
    const result = await keptCount(scratchDir, {
      workers: 2,
      windowRows,
      partitioned: { partitions: 2, launcher: 'local', retries: 0, threads: 2 },
    });
    t.is(result.legal, oracleCount(sweep));
    const [pass] = readdirSync(path.join(scratchDir, '8x6'));
    let movedAtStarts = 0;
    for (const report of result.reports) {
      const step = report.step; // its states are in the folder of this step
      const { owners, writes, moved } = sections(path.join(scratchDir, '8x6', pass, stepFolderName(step)));
      t.deepEqual(inTwoSections(step, owners), []);
      t.is(report.moved, moved, `step ${step}: the log's moved`);
      const y = (step - 1) % sweep.width; // the row the step placed
      if (y % windowRows !== 0) {
        t.is(moved, 0, `step ${step} moved records inside a window`);
        const writtenTwice = [...writes].filter(([, times]) => times !== 1);
        t.deepEqual(
          writtenTwice.map(([state, times]) => `step ${step}: state ${stateName(state)} written ${times} times`),
          [],
        );
      } else movedAtStarts += moved;
      t.true(report.busiest! >= 1);
    }
    t.true(movedAtStarts > 0);
  },
  title: (_given, windowRows: number) =>
    `8×6 in two partitions of two workers, windows of ${windowRows} rows: no state in two sections, nothing moved or written twice inside a window, exact`,
});

for (const rows of [1, 3, 7]) test(whoHoldsWhatInPartitions, rows);

test('8×6 in two partitions of 16 workers: string keys, each state in one section, verified clean, exact', async (t) => {
  const sweep = SWEEP;
  const scratchDir = tempScratch(t);
  const result = await keptCount(scratchDir, {
    workers: 16,
    windowRows: 3,
    partitioned: { partitions: 2, launcher: 'local', retries: 0, threads: 1 },
  });
  t.is(result.legal, oracleCount(sweep));
  const [pass] = readdirSync(path.join(scratchDir, '8x6'));
  let movedInside = 0;
  let recordsInside = 0;
  for (const report of result.reports) {
    const { owners, records, moved } = sections(path.join(scratchDir, '8x6', pass, stepFolderName(report.step)), 16);
    t.deepEqual(inTwoSections(report.step, owners), []);
    t.is(report.moved, moved);
    if (((report.step - 1) % sweep.width) % 3 !== 0) {
      movedInside += moved;
      recordsInside += records;
    }
  }
  // Inside a window only the states whose string keys changed move: a string lost its last stone there.
  t.true(movedInside > 0 && movedInside < recordsInside / 4, `${movedInside} of ${recordsInside} records moved inside windows`);
  t.like(verifyPath(scratchDir), { problems: [] });
});

test('8×6 in three threads stopped inside a window resumes there, exact, with no state held by two workers after', async (t) => {
  const sweep = SWEEP;
  const scratchDir = tempScratch(t);
  const controller = new AbortController();
  const options = { workers: 3, windowRows: 3 };
  // Asked to stop as step 21 begins, the count stops once it ends: it resumes at step 22, which
  // places row 5 of column 3, inside the window of rows 3–5.
  await t.throwsAsync(
    keptCount(scratchDir, {
      ...options,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === 'step-start' && event.step === 21) controller.abort();
      },
    }),
  );
  const notes: string[] = [];
  const resumed = await keptCount(scratchDir, { ...options, onProgress: (event) => event.type === 'note' && notes.push(event.message) });
  t.is(resumed.legal, oracleCount(sweep));
  t.true(
    notes.some((note) => /steps 1–21 of 48 are complete in .*: resuming at step 22/.test(note)),
    notes.join('\n'),
  );
  const [pass] = readdirSync(path.join(scratchDir, '8x6'));
  for (let step = 22; step <= 25; step++) {
    t.deepEqual(heldTwice(step, holders(path.join(scratchDir, '8x6', pass, stepFolderName(step)))), []);
  }
});
