import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkSolveDb, readSolveDb, writeSolveDb } from '../lib/solve/solve-db.js';
import { oracleValue } from '../lib/solve/history-search.js';
import { moverOf, opponentOf, SolveBoard } from '../lib/solve/solve-board.js';
import { solve, solveBoard } from '../lib/solve/solve.js';
import { AFTER_PASS, CycleRule, PLAIN } from '../lib/solve/state-space.js';
import { runCli } from './support/run-cli.js';

const RULES: CycleRule[] = ['no-cycle', 'cycle-draw'];

test('play captures, marks a lone retake as ko, and refuses a taken point and suicide', (t) => {
  const board = new SolveBoard(1, 3);
  // x on 0, o on 1: x plays 2 and takes 1, its lone stone left with the one liberty 1.
  const after = board.play(0b001, 0b010, 2);
  t.is(board.captured, 1);
  t.is(board.capturedAt, 1);
  t.is(board.koPoint, 1);
  t.is(moverOf(after), 0, 'the opponent, now to move, has nothing left');
  t.is(opponentOf(after), 0b101);
  t.is(board.play(0b001, 0b010, 1), -1, 'a taken point');
  t.is(board.play(0, 0b010, 0), -1, 'suicide: no liberty, nothing taken');
});

test('Tromp–Taylor area scores count stones and the empty regions reaching one colour only', (t) => {
  const board = new SolveBoard(2, 2);
  t.is(board.score(0, 0), 0);
  t.is(board.score(0b0001, 0), 4, 'one stone owns the board');
  t.is(board.score(0b0001, 0b1000), 0, 'the two empty points reach both');
  t.is(board.score(0b0011, 0b1000), 1, 'two stones against one, the empty point shared');
});

test('the empty board values agree with a search over game histories: 1x1 to 1x5 and 2x2, both rules', (t) => {
  for (const [m, n] of [
    [1, 1],
    [1, 2],
    [1, 3],
    [1, 4],
    [1, 5],
    [2, 2],
  ]) {
    for (const rule of RULES) t.is(solve({ m, n, rule }).value, oracleValue(m, n, rule), `${m}x${n} ${rule}`);
  }
});

test('the pinned values: 2x2 +1 without cycles, a draw with them; 3x3 +9 with cycles drawn', (t) => {
  t.is(solve({ m: 2, n: 2 }).value, 1);
  t.is(solve({ m: 2, n: 2, rule: 'cycle-draw' }).value, 0);
  const nine = solve({ m: 3, n: 3, rule: 'cycle-draw' });
  t.is(nine.value, 9);
  t.deepEqual(nine.bestMoves, ['b2']);
  t.is(nine.positions, 12675, 'L(3,3)');
});

test('every 2x2 state reached from the empty board has the value a history search gives it, both rules', (t) => {
  for (const rule of RULES) {
    const { space, graph, values } = solveBoard(2, 2, rule);
    const root = space.stateOf(0, PLAIN);
    const reached = new Set([root]);
    const queue = [root];
    while (queue.length > 0) {
      const s = queue.shift()!;
      for (let e = graph.start[s]; e < graph.start[s + 1]; e++) {
        const c = graph.children[e];
        if (!reached.has(c)) {
          reached.add(c);
          queue.push(c);
        }
      }
    }
    t.true(reached.size > 50, `${rule}: ${reached.size} states`);
    for (const s of reached) {
      const key = space.keyOfState(s);
      const board = Array.from({ length: 4 }, (_, p) => ((moverOf(key) >> p) & 1 ? 1 : (opponentOf(key) >> p) & 1 ? 2 : 0));
      const start = { board, toMove: 1 as const, afterPass: space.statusOf[s] === AFTER_PASS, koBan: space.koOf[s] };
      t.is(values[s], oracleValue(2, 2, rule, start), `${rule} state ${s}: ${board.join('')}`);
    }
  }
});

test('gocount solve prints the value and best moves, as JSON with a value field, and refuses large boards in one line', (t) => {
  const text = runCli(['solve', '2x2']);
  t.is(text.status, 0);
  t.regex(text.stdout, /^2x2, rule no-cycle: \+1 for Black/);
  t.regex(text.stdout, /best first moves: a1, b1, a2, b2/);
  const json = runCli(['solve', '2x2', '--rule', 'cycle-draw', '--json']);
  t.is(JSON.parse(json.stdout).value, 0);
  const big = runCli(['solve', '5x5']);
  t.is(big.status, 2);
  t.is(big.stderr.trim(), 'gocount: board 5x5: solve handles boards of up to 16 points');
});

test('a database file verifies, and verify finds a damaged byte and a value its moves contradict', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gocount-solve-'));
  try {
    const file = path.join(dir, '3x3.db');
    const solved = solveBoard(3, 3, 'cycle-draw');
    writeSolveDb(file, solved);
    t.deepEqual(readdirSync(dir), ['3x3.db'], 'no temporary file left');
    const good = checkSolveDb(file);
    t.is(good.states, 25862);
    t.deepEqual(good.problems, []);
    const read = readSolveDb(file);
    if (typeof read === 'string') return t.fail(read);
    t.is(read.header.value, 9);
    t.deepEqual(Array.from(read.values), Array.from(solved.values));

    const damaged = readFileSync(file);
    damaged[damaged.length - 100] ^= 1;
    writeFileSync(file, damaged);
    t.deepEqual(checkSolveDb(file).problems, [{ file, problem: 'CRC-32 mismatch: the file is damaged' }]);

    // A wrong value with a correct CRC: the consistency check finds it.
    const values = Int8Array.from(solved.values);
    const root = solved.space.stateOf(0, PLAIN);
    values[root] = 7;
    writeSolveDb(file, { ...solved, values });
    const problems = checkSolveDb(file).problems.map((p) => p.problem);
    t.true(problems.includes('value 7, but its best move gives 9'), problems.join('; '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('gocount solve --db FILE --position looks a position up; bad positions get one line', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gocount-solve-'));
  try {
    const file = path.join(dir, '2x2.db');
    t.is(runCli(['solve', '2x2', '--db', file]).status, 0);
    const empty = JSON.parse(runCli(['solve', '--db', file, '--position', '../..', '--json']).stdout);
    t.is(empty.value, 1, 'the empty board, Black to move');
    t.deepEqual(empty.bestMoves, ['a1', 'b1', 'a2', 'b2']);
    const oracle = oracleValue(2, 2, 'no-cycle', { board: [1, 0, 0, 2], toMove: 2 });
    const looked = JSON.parse(runCli(['solve', '--db', file, '--position', '.O/X.', '--to-move', 'white', '--json']).stdout);
    t.is(looked.value, oracle, 'X on a1, O on b2, White to move');
    const bad = runCli(['solve', '--db', file, '--position', 'XO/O']);
    t.is(bad.status, 2);
    t.is(bad.stderr.trim(), `gocount: position "XO/O": give 2 rows of 2 points each, separated by '/'`);
    t.is(runCli(['verify', file]).stdout.trim(), 'checked 1 solve database, 114 states: no problems');
    const missing = runCli(['solve', '--db', path.join(dir, 'none.db'), '--position', '../..']);
    t.is(missing.status, 2);
    t.is(missing.stderr.trim(), `gocount: ${path.join(dir, 'none.db')}: no such file`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
