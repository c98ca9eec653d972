import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { checkCheckpoint, readCheckpoint } from '../../lib/solve/files/search-checkpoint.js';
import { checkTableFile } from '../../lib/solve/files/table-file.js';
import { solve, solveBoard } from '../../lib/solve/solve.js';
import type { SolveProgress } from '../../lib/solve/option-types.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';

const NAME = 'solve-1x8-no-cycle-tromp-taylor.checkpoint';
const TABLE = 'solve-1x8-no-cycle-tromp-taylor.table';
/** A budget that keeps the table of earlier results, saved with each checkpoint, small: the same in every solve, so that it is taken back. */
const MEMORY = 64 * 2 ** 20;
/** Search nodes between two reports of the solves stopped at one: 1x8's solve takes 167,738 search nodes, 40 reports. */
const EVERY = 4096;

/**
 * Stops a solve (by throwing) at the history search's report-th report of its search nodes, within
 * a state's search; `details` gets what each report says.
 */
function stopAtReport(report: number, details: string[] = []): SolveProgress {
  return (phase, _done, _total, detail) => {
    if (phase === 'history search' && detail !== undefined && details.push(detail) === report) throw new Error('stopped');
  };
}

/** The report within XXX..... (its 4th move under way, 3 searched) at which the tests stop 1x8's solve. */
const WITHIN_STATE = 32;

/** A solve of 1x8 writing a checkpoint at every report, stopped at the report-th (see stopAtReport). */
const stop1x8 = (dir: string, report: number, details?: string[]) => () =>
  solveBoard({
    m: 1,
    n: 8,
    scratch: dir,
    memory: MEMORY,
    checkpointSeconds: 0,
    nodesPerReport: EVERY,
    onProgress: stopAtReport(report, details),
  });

/** Rewrites a checkpoint's header and its CRC-32, keeping its body. */
function rewriteHeader(file: string, change: (header: Record<string, unknown>) => Record<string, unknown>): void {
  const bytes = readFileSync(file);
  const newline = bytes.indexOf(10);
  const head = Buffer.from(`${JSON.stringify(change(JSON.parse(bytes.subarray(0, newline).toString())))}\n`);
  const whole = Buffer.concat([head, bytes.subarray(newline + 1, bytes.length - 4)]);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(crc32(whole));
  writeFileSync(file, Buffer.concat([whole, trailer]));
}

/** What the tests below share: each thing made once, in a folder of its own. */
const shared = sharedScratch();
const sharedFolder = (name: string): string => mkdtempSync(path.join(shared, `${name}-`));

/** 1x8 solved run through with a scratch folder, once, for the tests that compare with it; and what it left in the folder. */
const runThrough = once(() => {
  const dir = sharedFolder('through');
  const through = solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  return { through, left: readdirSync(dir) };
});

/** 1x8's solve stopped within a state's search, at WITHIN_STATE, once: each call throws what the stop threw. */
const STOPPED = path.join(shared, 'stopped');
const stopWithinState = once(() => {
  mkdirSync(STOPPED);
  stop1x8(STOPPED, WITHIN_STATE)();
});

/** The checkpoint and table the stopped solve left in STOPPED, and their bytes, to start other folders from. */
const stopped = once(() => {
  try {
    stopWithinState();
  } catch {
    // The stop: the tests of the stop itself check what it threw.
  }
  const file = path.join(STOPPED, NAME);
  const table = path.join(STOPPED, TABLE);
  return { file, table, saved: readFileSync(file), savedTable: readFileSync(table) };
});

/** Puts the stopped solve's checkpoint in `dir`, and beside it its table, or the table given, or none (null). */
function withCheckpoint(dir: string, table: Buffer | null = stopped().savedTable): string {
  writeFileSync(path.join(dir, NAME), stopped().saved);
  if (table !== null) writeFileSync(path.join(dir, TABLE), table);
  return dir;
}

/** Bytes with one bit flipped, 10 bytes from their end. */
function flipped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[copy.length - 10] ^= 1;
  return copy;
}

/** The stopped solve resumed without its table, once. */
const resumedCold = once(() => solveBoard({ m: 1, n: 8, scratch: withCheckpoint(sharedFolder('cold'), null), memory: MEMORY }));

/** The stopped solve resumed with its table, once; and its folder, where the finished checkpoint is left. */
const resumedWarm = once(() => {
  const dir = withCheckpoint(sharedFolder('resumed'));
  return { dir, resumed: solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY }) };
});

/**
 * solve() in a copy of the resumed solve's folder, beside what a killed process left half written
 * and a running process's temporary file, once; and what it leaves in the folder.
 */
const solvedFromFinished = once(() => {
  const dir = sharedFolder('finished');
  cpSync(resumedWarm().dir, dir, { recursive: true });
  const dead = `${TABLE}.${spawnSync('true').pid}.tmp`;
  const running = `${NAME}.${process.ppid}.tmp`;
  for (const name of [dead, running]) writeFileSync(path.join(dir, name), 'half');
  const result = solve({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  return { result, running, left: readdirSync(dir) };
});

test('a solve shorter than a checkpoint interval keeps no checkpoint', (t) => {
  t.deepEqual(runThrough().left, [], 'a solve shorter than a checkpoint interval keeps none');
});

test('a solve refuses a checkpoint interval below 0 seconds', (t) => {
  t.throws(() => solveBoard({ m: 1, n: 8, scratch: tempScratch(t), checkpointSeconds: -1 }), {
    message: 'checkpointSeconds -1: not a number of seconds, 0 or more',
  });
});

test('a solve refuses a report interval that is not a whole number of search nodes', (t) => {
  t.throws(() => solveBoard({ m: 1, n: 8, scratch: tempScratch(t), nodesPerReport: 0.5 }), {
    message: 'nodesPerReport 0.5: not a whole number of search nodes, 1 or more',
  });
});

test("a no-cycle solve stopped within a state's search leaves its checkpoint and table, and no temporary file", (t) => {
  t.throws(stopWithinState, { message: 'stopped' });
  t.deepEqual(readdirSync(STOPPED).sort(), [NAME, TABLE], 'the checkpoint and the table, and no temporary file');
});

test("the checkpoint of a solve stopped within a state's search holds where the search was, and the values of one run through", (t) => {
  const { through } = runThrough();
  const checkpoint = readCheckpoint(stopped().file);
  if (typeof checkpoint === 'string') return t.fail(checkpoint);
  // XXX..... was under way: 12 states valued (with their images), 3 of its moves searched, the
  // checkpoint written at the report within it.
  t.like(checkpoint.header, {
    m: 1,
    n: 8,
    rule: 'no-cycle',
    states: 4802,
    valued: 12,
    state: 14,
    moves: 3,
    best: -3,
    searchNodes: WITHIN_STATE * EVERY,
  });
  t.is(
    checkpoint.done.reduce((sum, d) => sum + d, 0),
    12,
  );
  for (let s = 0; s < 4802; s++) if (checkpoint.done[s]) t.is(checkpoint.values[s], through.values[s], `state ${s}`);
});

test('the checkpoint and the table of a stopped solve check', (t) => {
  t.deepEqual(checkCheckpoint(stopped().file).problems, []);
  t.deepEqual(checkTableFile(stopped().table).problems, []);
});

test('resumed without its table, a solve proves again what the table held, to the same values', (t) => {
  const { through } = runThrough();
  const cold = resumedCold();
  t.is(cold.stats.tableResumed, `not taken back: no ${TABLE}`);
  t.deepEqual(Array.from(cold.values), Array.from(through.values));
  t.true(
    cold.stats.searchNodes > through.stats.searchNodes,
    `${cold.stats.searchNodes} search nodes, ${through.stats.searchNodes} run through`,
  );
});

test('a table of another shape (another budget) is not taken back, and the values are the same', (t) => {
  const other = solveBoard({ m: 1, n: 8, scratch: withCheckpoint(tempScratch(t)), memory: 2 * MEMORY });
  t.regex(other.stats.tableResumed, /^not taken back: its buckets is \d+, this solve's \d+$/);
  t.deepEqual(Array.from(other.values), Array.from(runThrough().through.values));
  other.dispose();
});

test('a table of an earlier build, with fewer arrays or arrays of other lengths, is named briefly and left aside', (t) => {
  const lengthsSaying = (change: (lengths: number[]) => number[]): string => {
    const dir = withCheckpoint(tempScratch(t));
    rewriteHeader(path.join(dir, TABLE), (header) => ({ ...header, lengths: change(header.lengths as number[]) }));
    return solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY }).stats.tableResumed ?? '';
  };
  t.is(
    lengthsSaying((lengths) => lengths.slice(0, 14)),
    "not taken back: it holds 14 arrays, this solve's table 15",
  );
  t.is(
    lengthsSaying((lengths) => lengths.map((length, i) => (i === 14 ? length - 1 : length))),
    "not taken back: its array 15 is 4801 bytes, this solve's 4802",
  );
});

test('resumed with the table saved with its checkpoint, a solve takes back what the stopped search proved, to the same values', (t) => {
  const { resumed } = resumedWarm();
  const cold = resumedCold();
  t.like(resumed.stats, { resumed: 12, tableResumed: 'taken back' });
  t.true(
    resumed.stats.searchNodes < cold.stats.searchNodes,
    `${resumed.stats.searchNodes} search nodes with the table, ${cold.stats.searchNodes} without`,
  );
  t.deepEqual(Array.from(resumed.values), Array.from(runThrough().through.values));
});

test('a resumed solve that finishes leaves a checkpoint holding every state, which checks', (t) => {
  const { dir, resumed } = resumedWarm();
  const file = path.join(dir, NAME);
  const finished = readCheckpoint(file);
  if (typeof finished === 'string') return t.fail(finished);
  t.like(finished.header, { valued: 4802, state: -1, searchNodes: resumed.stats.searchNodes });
  t.deepEqual(checkCheckpoint(file).problems, []);
});

test('solve() takes the values of a finished checkpoint, searching nothing again', (t) => {
  const { result } = solvedFromFinished();
  t.is(result.value, 3);
  t.is(result.retrograde.searchNodes, resumedWarm().resumed.stats.searchNodes, 'nothing searched again');
});

test("solve() removes a finished checkpoint and what a killed process left half written, not a running process's temporary file", (t) => {
  const { running, left } = solvedFromFinished();
  t.deepEqual(left, [running]);
});

test("a checkpoint written within a move keeps in its table what that move's search had proved", (t) => {
  const dir = tempScratch(t);
  const { through } = runThrough();
  const details: string[] = [];
  t.throws(stop1x8(dir, 1, details), { message: 'stopped' });
  const stopped = readCheckpoint(path.join(dir, NAME));
  if (typeof stopped === 'string') return t.fail(stopped);
  // Within the first move of the first state searched: nothing done but the search nodes. The
  // progress names the state (its player's stones X) and how far its search has got.
  t.like(stopped.header, { valued: 0, state: 2, moves: 0, best: -8, searchNodes: EVERY });
  t.deepEqual(details, ['4096 positions searched; X....... under way, move 1 of 8, depth limit 11']);

  const saved = readFileSync(path.join(dir, NAME));
  const savedTable = readFileSync(path.join(dir, TABLE));

  // Without the table the resume searches everything again, as the solve run through.
  rmSync(path.join(dir, TABLE));
  const cold = solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  t.is(cold.stats.searchNodes - EVERY, through.stats.searchNodes);
  writeFileSync(path.join(dir, NAME), saved);
  writeFileSync(path.join(dir, TABLE), savedTable);
  // With it, searching the first move again takes fewer search nodes than the stopped search had taken.
  const warm = solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  t.is(warm.stats.tableResumed, 'taken back');
  const again = warm.stats.searchNodes - through.stats.searchNodes;
  t.true(again > 0 && again < EVERY, `${again} search nodes more than run through`);
  for (const solved of [cold, warm]) t.deepEqual(Array.from(solved.values), Array.from(through.values));
  for (const solved of [cold, warm]) solved.dispose();
});

test('a checkpoint of a solve with its moves generated (a budget below them) resumes in memory, to the same values', (t) => {
  const dir = tempScratch(t);
  const through = solveBoard({ m: 3, n: 3, memory: MEMORY });
  const stop = () => solveBoard({ m: 3, n: 3, scratch: dir, memory: 1100 * 1024, checkpointSeconds: 0, onProgress: stopAtReport(1) });
  // The table of 1,100 KiB beside the generated moves is not the shape of one in memory: the values alone are taken.
  t.throws(stop, { message: 'stopped' });
  const stopped = readCheckpoint(path.join(dir, 'solve-3x3-no-cycle-tromp-taylor.checkpoint'));
  if (typeof stopped === 'string') return t.fail(stopped);
  t.like(stopped.header, { valued: 1846, state: 1848, moves: 0, best: -9 });
  const resumed = solveBoard({ m: 3, n: 3, scratch: dir, memory: MEMORY });
  t.false(resumed.stats.statesOnDisk);
  t.regex(resumed.stats.tableResumed, /^not taken back: /);
  t.deepEqual(Array.from(resumed.values), Array.from(through.values));
  for (const solved of [through, resumed]) solved.dispose();
});

/**
 * gocount solve run through into a database, then resumed into another from the stopped solve's
 * checkpoint and table in the same --scratch folder: once, for the tests below.
 */
const cliResumed = once(() => {
  const dir = sharedFolder('cli');
  const db = path.join(dir, 'through.db');
  const through = runCli(['solve', '1x8', '--db', db, '--scratch', dir, '--memory', '64M', '--quiet']);
  withCheckpoint(dir);
  const resumedDb = path.join(dir, 'resumed.db');
  const resumed = runCli(['solve', '1x8', '--db', resumedDb, '--scratch', dir, '--memory', '64M', '--stats']);
  return { dir, db, resumedDb, through, resumed, left: readdirSync(dir).sort() };
});

/** A scratch folder of the test's own holding the stopped solve's checkpoint, rewritten as one of split-shared scoring. */
function checkpointOfAnotherScoring(t: ExecutionContext): string {
  const dir = withCheckpoint(tempScratch(t), null);
  rewriteHeader(path.join(dir, NAME), (header) => ({ ...header, scoring: 'split-shared' }));
  return dir;
}

test('gocount solve resumes from the checkpoint in --scratch, saying so, and takes its table back', (t) => {
  t.throws(stopWithinState);
  const { dir, resumed } = cliResumed();
  t.is(resumed.status, 0, resumed.stderr);
  t.is(resumed.stderr.split('\n')[0], `solve 1x8: resuming from ${path.join(dir, NAME)}`);
  t.regex(resumed.stdout, /; resumed with 12 states valued, the table of earlier results taken back\n/);
  t.regex(resumed.stdout, / bounded by earlier results \(a table of 42048 entries, 63 MiB\), /);
});

test('a resumed gocount solve writes the database of one run through', (t) => {
  const { through, db, resumedDb } = cliResumed();
  t.is(through.status, 0);
  t.deepEqual(readFileSync(resumedDb), readFileSync(db));
});

test('gocount solve removes the checkpoint and its table once the database is written', (t) => {
  t.deepEqual(cliResumed().left, ['resumed.db', 'through.db'], 'the checkpoint and its table removed');
});

test('gocount solve stops in one line at a damaged table beside its checkpoint', (t) => {
  const dir = withCheckpoint(tempScratch(t), flipped(stopped().savedTable));
  const table = path.join(dir, TABLE);
  const refusedTable = runCli(['solve', '1x8', '--scratch', dir, '--memory', '64M', '--quiet']);
  t.is(refusedTable.status, 1);
  t.is(refusedTable.stderr, `gocount: ${table}: CRC-32 mismatch: the file is damaged; remove it to resume without it\n`);
});

test('verify finds a damaged solve table', (t) => {
  const table = path.join(tempScratch(t), TABLE);
  writeFileSync(table, flipped(stopped().savedTable));
  t.is(
    runCli(['verify', table]).stdout,
    `${table}: CRC-32 mismatch: the file is damaged\nchecked 1 solve table file, 0 states: 1 problem\n`,
  );
});

test('verify checks a solve table', (t) => {
  t.is(runCli(['verify', stopped().table]).stdout, 'checked 1 solve table file, 4802 states: no problems\n');
});

test('gocount solve stops in one line at a damaged checkpoint', (t) => {
  const dir = tempScratch(t);
  const file = path.join(dir, NAME);
  writeFileSync(file, flipped(stopped().saved));
  const refused = runCli(['solve', '1x8', '--scratch', dir, '--quiet']);
  t.is(refused.status, 1);
  t.is(refused.stderr, `gocount: ${file}: CRC-32 mismatch: the file is damaged; remove it to solve from the start\n`);
});

test('verify finds a damaged solve checkpoint', (t) => {
  const file = path.join(tempScratch(t), NAME);
  writeFileSync(file, flipped(stopped().saved));
  const verified = runCli(['verify', file]);
  t.is(verified.status, 1);
  t.is(verified.stdout, `${file}: CRC-32 mismatch: the file is damaged\nchecked 1 solve checkpoint, 0 states: 1 problem\n`);
});

test('verify checks a solve checkpoint', (t) => {
  t.is(runCli(['verify', stopped().file]).stdout, 'checked 1 solve checkpoint, 4802 states: no problems\n');
});

test('gocount solve stops in one line at a checkpoint of another state space', (t) => {
  const dir = checkpointOfAnotherScoring(t);
  const other = runCli(['solve', '1x8', '--scratch', dir, '--quiet']);
  t.is(other.status, 1);
  t.is(
    other.stderr,
    `gocount: ${path.join(dir, NAME)}: its scoring is split-shared, this solve's tromp-taylor; remove it to solve from the start\n`,
  );
});

test('gocount solve --rule cycle-draw keeps no checkpoint, and takes none of no-cycle', (t) => {
  const dir = checkpointOfAnotherScoring(t);
  t.is(runCli(['solve', '1x8', '--scratch', dir, '--quiet', '--rule', 'cycle-draw']).status, 0, 'cycle-draw keeps no checkpoint');
});

test('gocount solve --empty-board-only keeps no checkpoint, and takes none', (t) => {
  const dir = checkpointOfAnotherScoring(t);
  t.is(runCli(['solve', '1x8', '--scratch', dir, '--quiet', '--empty-board-only']).status, 0, 'nor does the empty board alone');
});

test('verify names a value of a checkpoint its moves contradict', (t) => {
  t.throws(stopWithinState);
  const file = path.join(withCheckpoint(tempScratch(t)), NAME);
  const read = readCheckpoint(file);
  if (typeof read === 'string') return t.fail(read);
  // The first state valued at +8 (its player ends the game with a pass and owns the board), at -8
  // instead: the CRC made right, the consistency check finds it.
  const first = read.values.findIndex((value, s) => read.done[s] === 1 && value === 8);
  if (first < 0) return t.fail('no state valued +8 in the checkpoint');
  const bytes = readFileSync(file);
  bytes[bytes.indexOf(10) + 1 + first] = 256 - 8;
  writeFileSync(file, bytes);
  rewriteHeader(file, (header) => header);
  t.deepEqual(checkCheckpoint(file).problems, [
    { file, record: first, problem: "value -8, but the game's end or a move out of its cycle gives 8" },
  ]);
});

test('verify names a count of states valued that a checkpoint does not mark', (t) => {
  const file = path.join(withCheckpoint(tempScratch(t)), NAME);
  rewriteHeader(file, (header) => ({ ...header, valued: 13 }));
  t.deepEqual(checkCheckpoint(file).problems, [{ file, problem: 'the header gives 13 states valued, the file marks 12' }]);
});
