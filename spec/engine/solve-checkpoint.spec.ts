import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { checkCheckpoint, readCheckpoint } from '../../lib/solve/files/search-checkpoint.js';
import { checkTableFile } from '../../lib/solve/files/table-file.js';
import { solve, solveBoard, type SolveProgress } from '../../lib/solve/solve.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

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

test("a no-cycle solve stopped within a state's search resumes from its checkpoint to the values of one run through", (t) => {
  const dir = tempScratch(t);
  const through = solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  t.deepEqual(readdirSync(dir), [], 'a solve shorter than a checkpoint interval keeps none');
  t.throws(() => solveBoard({ m: 1, n: 8, scratch: dir, checkpointSeconds: -1 }), {
    message: 'checkpointSeconds -1: not a number of seconds, 0 or more',
  });
  t.throws(() => solveBoard({ m: 1, n: 8, scratch: dir, nodesPerReport: 0.5 }), {
    message: 'nodesPerReport 0.5: not a whole number of search nodes, 1 or more',
  });

  t.throws(stop1x8(dir, WITHIN_STATE), { message: 'stopped' });
  t.deepEqual(readdirSync(dir).sort(), [NAME, TABLE], 'the checkpoint and the table, and no temporary file');
  const file = path.join(dir, NAME);
  const stopped = readCheckpoint(file);
  if (typeof stopped === 'string') return t.fail(stopped);
  // XXX..... was under way: 12 states valued (with their images), 3 of its moves searched, the
  // checkpoint written at the report within it.
  t.like(stopped.header, {
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
    stopped.done.reduce((sum, d) => sum + d, 0),
    12,
  );
  for (let s = 0; s < 4802; s++) if (stopped.done[s]) t.is(stopped.values[s], through.values[s], `state ${s}`);
  t.deepEqual(checkCheckpoint(file).problems, []);
  t.deepEqual(checkTableFile(path.join(dir, TABLE)).problems, []);
  const saved = readFileSync(file);

  // Without the table, or with one of another shape (another budget), the search proves again what it held.
  const savedTable = readFileSync(path.join(dir, TABLE));
  rmSync(path.join(dir, TABLE));
  const cold = solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  t.is(cold.stats.tableResumed, `not taken back: no ${TABLE}`);
  t.deepEqual(Array.from(cold.values), Array.from(through.values));
  t.true(
    cold.stats.searchNodes > through.stats.searchNodes,
    `${cold.stats.searchNodes} search nodes, ${through.stats.searchNodes} run through`,
  );
  writeFileSync(file, saved);
  writeFileSync(path.join(dir, TABLE), savedTable);
  const other = solveBoard({ m: 1, n: 8, scratch: dir, memory: 2 * MEMORY });
  t.regex(other.stats.tableResumed, /^not taken back: its buckets is \d+, this solve's \d+$/);
  t.deepEqual(Array.from(other.values), Array.from(through.values));
  // A table of an earlier build, with fewer arrays or arrays of other lengths, is named briefly and left aside.
  const tableFile = path.join(dir, TABLE);
  const lengthsSaying = (change: (lengths: number[]) => number[]): string => {
    writeFileSync(file, saved);
    writeFileSync(tableFile, savedTable);
    rewriteHeader(tableFile, (header) => ({ ...header, lengths: change(header.lengths as number[]) }));
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

  // With the table saved with the checkpoint, the resumed search takes back what the stopped one proved.
  writeFileSync(file, saved);
  writeFileSync(path.join(dir, TABLE), savedTable);
  const resumed = solveBoard({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  t.like(resumed.stats, { resumed: 12, tableResumed: 'taken back' });
  t.true(
    resumed.stats.searchNodes < cold.stats.searchNodes,
    `${resumed.stats.searchNodes} search nodes with the table, ${cold.stats.searchNodes} without`,
  );
  t.deepEqual(Array.from(resumed.values), Array.from(through.values));
  // The search finished, the checkpoint holds every state: solve() takes them and removes it.
  const finished = readCheckpoint(file);
  if (typeof finished === 'string') return t.fail(finished);
  t.like(finished.header, { valued: 4802, state: -1, searchNodes: resumed.stats.searchNodes });
  t.deepEqual(checkCheckpoint(file).problems, []);
  // What a killed process left half written is removed; a running process's temporary file is left alone.
  const dead = `${TABLE}.${spawnSync('true').pid}.tmp`;
  const running = `${NAME}.${process.ppid}.tmp`;
  for (const name of [dead, running]) writeFileSync(path.join(dir, name), 'half');
  const result = solve({ m: 1, n: 8, scratch: dir, memory: MEMORY });
  t.is(result.value, 3);
  t.is(result.retrograde.searchNodes, finished.header.searchNodes, 'nothing searched again');
  t.deepEqual(readdirSync(dir), [running]);
  for (const solved of [through, cold, other, resumed]) solved.dispose();
});

test("a checkpoint written within a move keeps in its table what that move's search had proved", (t) => {
  const dir = tempScratch(t);
  const through = solveBoard({ m: 1, n: 8, memory: MEMORY });
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
  for (const solved of [through, cold, warm]) solved.dispose();
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

test('gocount solve resumes from the checkpoint in --scratch and removes it once the database is written; a damaged one or one of another state space stops it in one line', (t) => {
  const dir = tempScratch(t);
  const db = path.join(dir, 'through.db');
  t.is(runCli(['solve', '1x8', '--db', db, '--scratch', dir, '--memory', '64M', '--quiet']).status, 0);
  t.throws(stop1x8(dir, WITHIN_STATE));
  const file = path.join(dir, NAME);
  const saved = readFileSync(file);
  const table = path.join(dir, TABLE);
  const savedTable = readFileSync(table);

  const resumedDb = path.join(dir, 'resumed.db');
  const resumed = runCli(['solve', '1x8', '--db', resumedDb, '--scratch', dir, '--memory', '64M', '--stats']);
  t.is(resumed.status, 0, resumed.stderr);
  t.is(resumed.stderr.split('\n')[0], `solve 1x8: resuming from ${file}`);
  t.regex(resumed.stdout, /; resumed with 12 states valued, the table of earlier results taken back\n/);
  t.regex(resumed.stdout, / bounded by earlier results \(a table of 42048 entries, 63 MiB\), /);
  t.deepEqual(readFileSync(resumedDb), readFileSync(db));
  t.deepEqual(readdirSync(dir).sort(), ['resumed.db', 'through.db'], 'the checkpoint and its table removed');

  // A damaged table stops the resume in one line; verify finds it.
  writeFileSync(file, saved);
  const damagedTable = Buffer.from(savedTable);
  damagedTable[damagedTable.length - 10] ^= 1;
  writeFileSync(table, damagedTable);
  const refusedTable = runCli(['solve', '1x8', '--scratch', dir, '--memory', '64M', '--quiet']);
  t.is(refusedTable.status, 1);
  t.is(refusedTable.stderr, `gocount: ${table}: CRC-32 mismatch: the file is damaged; remove it to resume without it\n`);
  t.is(
    runCli(['verify', table]).stdout,
    `${table}: CRC-32 mismatch: the file is damaged\nchecked 1 solve table file, 0 states: 1 problem\n`,
  );
  writeFileSync(table, savedTable);
  t.is(runCli(['verify', table]).stdout, 'checked 1 solve table file, 4802 states: no problems\n');
  rmSync(table);

  const damaged = Buffer.from(saved);
  damaged[damaged.length - 10] ^= 1;
  writeFileSync(file, damaged);
  const refused = runCli(['solve', '1x8', '--scratch', dir, '--quiet']);
  t.is(refused.status, 1);
  t.is(refused.stderr, `gocount: ${file}: CRC-32 mismatch: the file is damaged; remove it to solve from the start\n`);
  const verified = runCli(['verify', file]);
  t.is(verified.status, 1);
  t.is(verified.stdout, `${file}: CRC-32 mismatch: the file is damaged\nchecked 1 solve checkpoint, 0 states: 1 problem\n`);

  writeFileSync(file, saved);
  t.is(runCli(['verify', file]).stdout, 'checked 1 solve checkpoint, 4802 states: no problems\n');
  rewriteHeader(file, (header) => ({ ...header, scoring: 'split-shared' }));
  const other = runCli(['solve', '1x8', '--scratch', dir, '--quiet']);
  t.is(other.status, 1);
  t.is(other.stderr, `gocount: ${file}: its scoring is split-shared, this solve's tromp-taylor; remove it to solve from the start\n`);
  t.is(runCli(['solve', '1x8', '--scratch', dir, '--quiet', '--rule', 'cycle-draw']).status, 0, 'cycle-draw keeps no checkpoint');
  t.is(runCli(['solve', '1x8', '--scratch', dir, '--quiet', '--empty-board-only']).status, 0, 'nor does the empty board alone');
});

test('verify names a value of a checkpoint its moves contradict, and a count of states valued the file does not mark', (t) => {
  const dir = tempScratch(t);
  t.throws(stop1x8(dir, WITHIN_STATE));
  const file = path.join(dir, NAME);
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
  rewriteHeader(file, (header) => ({ ...header, valued: 13 }));
  t.deepEqual(checkCheckpoint(file).problems, [{ file, problem: 'the header gives 13 states valued, the file marks 12' }]);
});
