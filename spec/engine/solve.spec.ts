import test, { type ExecutionContext } from 'ava';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { checkSolveDb } from '../../lib/solve/files/db-check.js';
import { readSolveDb, writeSolveDb, type DatabaseValues } from '../../lib/solve/files/solve-db.js';
import { oracleValue } from '../support/solve-oracle.js';
import { keyOf, moverOf, opponentOf, SolveBoard } from '../../lib/solve/rules/solve-board.js';
import { type CycleRule, SCORINGS } from '../../lib/solve/defaults.js';
import { parsePosition, positionText } from '../../lib/solve/rules/position-text.js';
import { solve, solveBoard, solveResult, type MoveValue, type SolvedBoard } from '../../lib/solve/solve.js';
import { AFTER_PASS, KO, PLAIN, StateSpace } from '../../lib/solve/rules/state-space.js';
import { BoardSymmetry } from '../../lib/solve/rules/symmetry.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';

const RULES: CycleRule[] = ['no-cycle', 'cycle-draw'];
/** The databases that several look-up tests share. */
const shared = sharedScratch();

test('play captures a stone without liberties, and marks a lone retake as ko', (t) => {
  const board = new SolveBoard(1, 3);
  // x on 0, o on 1: x plays 2 and takes 1, its lone stone left with the one liberty 1.
  const after = board.play(0b001, 0b010, 2);
  t.is(board.captured, 1);
  t.is(board.capturedAt, 1);
  t.is(board.koPoint, 1);
  t.is(moverOf(after), 0, 'the opponent, now to move, has nothing left');
  t.is(opponentOf(after), 0b101);
});

test('play refuses a taken point and suicide', (t) => {
  const board = new SolveBoard(1, 3);
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

test('split-shared scores give a shared point to the player who passed first, the opponent of the one ending the game', (t) => {
  const board = new SolveBoard(2, 2, 'split-shared');
  t.is(board.score(0, 0), 0);
  t.is(board.score(0b0001, 0), 4);
  t.is(board.score(0b0001, 0b1000), 0, 'two shared points, one each');
  t.is(board.score(0b0011, 0b1000), 0, 'the one shared point to the opponent: 2 against 1 + 1');
  t.is(board.score(0b1000, 0b0011), -2, 'and from the other side: 1 against 2 + 1');
});

test('the empty board values agree with a search over game histories: 1x1 to 1x5 and 2x2, both rules and scorings', (t) => {
  for (const [m, n] of [
    [1, 1],
    [1, 2],
    [1, 3],
    [1, 4],
    [1, 5],
    [2, 2],
  ]) {
    for (const rule of RULES) {
      for (const scoring of SCORINGS) {
        t.is(solve({ m, n, rule, scoring }).value, oracleValue(m, n, rule, {}, scoring), `${m}x${n} ${rule} ${scoring}`);
      }
    }
  }
});

test('the pinned values: 2x2 +1 without cycles, a draw with them; 3x3 +9 either way; 1x6 +1 without cycles', (t) => {
  t.is(solve({ m: 2, n: 2 }).value, 1);
  const noCycle = solve({ m: 3, n: 3 });
  t.is(noCycle.value, 9);
  t.deepEqual(noCycle.bestMoves, ['b2']);
  // Each move named with its own value, whatever order the search puts the moves in.
  const twoByFour = solve({ m: 2, n: 4 });
  t.deepEqual(
    twoByFour.moves.map(({ move, value }) => `${move} ${value}`),
    ['a1 -8', 'b1 8', 'c1 8', 'd1 -8', 'a2 -8', 'b2 8', 'c2 8', 'd2 -8', 'pass -8'],
  );
  // Black wins 1x6 by 1 without cycles, a draw with them; the history search without the table of
  // earlier results gives its six first moves the same values (-6, +1, -1, -1, +1, -6) in 1.8e8 nodes.
  const oneBySix = solve({ m: 1, n: 6 });
  t.is(oneBySix.value, 1);
  t.deepEqual(oneBySix.bestMoves, ['b1', 'e1']);
  t.is(solve({ m: 2, n: 2, rule: 'cycle-draw' }).value, 0);
  const nine = solve({ m: 3, n: 3, rule: 'cycle-draw' });
  t.is(nine.value, 9);
  t.deepEqual(nine.bestMoves, ['b2']);
  t.is(nine.legalPositions, 12675, 'L(3,3)');
  t.is(nine.positions, 1824, 'up to symmetry');
  t.is(nine.symmetries, 8);
});

test('every 2x2 state reached from the empty board has the value a history search gives it, both rules and scorings', (t) => {
  const byScoring = new Map<string, Int8Array>();
  for (const rule of RULES)
    for (const scoring of SCORINGS) {
      const solved = solveBoard({ m: 2, n: 2, rule, scoring, symmetry: false });
      const { space, values } = solved;
      const graph = solved.graph!;
      byScoring.set(`${rule} ${scoring}`, values);
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
      t.true(reached.size > 50, `${rule} ${scoring}: ${reached.size} states`);
      for (const s of reached) {
        const key = space.keyOfState(s);
        const board = Array.from({ length: 4 }, (_, p) => ((moverOf(key) >> p) & 1 ? 1 : (opponentOf(key) >> p) & 1 ? 2 : 0));
        const start = { board, toMove: 1 as const, afterPass: space.statusOf[s] === AFTER_PASS, koBan: space.koOf[s] };
        t.is(values[s], oracleValue(2, 2, rule, start, scoring), `${rule} ${scoring} state ${s}: ${board.join('')}`);
      }
    }
  for (const rule of RULES) {
    const [plain, split] = SCORINGS.map((scoring) => byScoring.get(`${rule} ${scoring}`)!);
    const differ = plain.filter((v, s) => v !== split[s]).length;
    t.true(differ > 0, `${rule}: the scorings give ${differ} states different values`);
  }
});

test('the symmetries of a board: 8 on a square, 4 on a rectangle, 2 on a row', (t) => {
  t.deepEqual(
    [
      [3, 3],
      [2, 4],
      [1, 5],
      [1, 1],
    ].map(([m, n]) => new BoardSymmetry(m, n).count),
    [8, 4, 2, 1],
  );
});

test('a canonical position is the least image of its orbit, and its own', (t) => {
  const square = new BoardSymmetry(3, 3);
  // Black on a1 and b1, White on c3: its least image puts the stones where the key is least.
  const key = keyOf(0b000000011, 0b100000000);
  const canonical = square.canonical(key);
  t.true(canonical <= key);
  t.is(square.canonical(canonical), canonical, 'a canonical position is its own');
});

test('an orbit holds as many positions as the symmetries make of its own', (t) => {
  const square = new BoardSymmetry(3, 3);
  t.is(square.orbitSize(keyOf(0b000000011, 0b100000000)), 8);
  t.is(square.orbitSize(keyOf(0b000010000, 0)), 1, 'a stone on the centre');
});

test('the orbits of the canonical positions make up L(m,n)', (t) => {
  for (const [m, n, legal, orbits] of [
    [3, 3, 12675, 1824],
    [2, 4, 4125, 1070],
    [1, 5, 113, 64],
  ]) {
    const space = new StateSpace(new SolveBoard(m, n), 'cycle-draw', undefined, new BoardSymmetry(m, n));
    t.is(space.legalPositions, legal, `L(${m},${n})`);
    t.is(space.positions, orbits);
  }
});

test('folding the symmetries changes no value: every state of 3x3 and 2x4 under cycle-draw, both scorings, and the first moves', (t) => {
  for (const [m, n] of [
    [3, 3],
    [2, 4],
  ]) {
    for (const scoring of SCORINGS) {
      const all = solveBoard({ m, n, rule: 'cycle-draw', scoring, symmetry: false });
      const folded = solveBoard({ m, n, rule: 'cycle-draw', scoring });
      t.true(folded.space.states < all.space.states / 3);
      let checked = 0;
      for (let s = 0; s < all.space.states; s++) {
        const image = folded.space.stateOf(all.space.keyOfState(s), all.space.statusOf[s], all.space.koOf[s]);
        if (folded.values[image] !== all.values[s])
          return t.fail(`${m}x${n} ${scoring}: state ${s} is ${all.values[s]}, its image ${folded.values[image]}`);
        checked++;
      }
      t.is(checked, all.space.states);
      t.deepEqual(solveResult(folded, 0).moves, solveResult(all, 0).moves, `${m}x${n} ${scoring}`);
    }
  }
});

test('gocount solve prints the value and best moves', (t) => {
  const text = runCli(['solve', '2x2']);
  t.is(text.status, 0);
  t.regex(text.stdout, /^2x2, rule no-cycle: \+1 for Black/);
  t.regex(text.stdout, /best first moves: a1, b1, a2, b2/);
});

test('gocount solve --json prints JSON with a value field', (t) => {
  const json = runCli(['solve', '2x2', '--rule', 'cycle-draw', '--json']);
  t.is(JSON.parse(json.stdout).value, 0);
});

test('gocount solve refuses large boards in one line', (t) => {
  const big = runCli(['solve', '5x5']);
  t.is(big.status, 2);
  t.is(big.stderr.trim(), 'gocount: board 5x5: solve handles boards of up to 16 points');
});

test('with a --memory below its moves, a board is solved with the moves on disk, to the same values as in memory', (t) => {
  const dir = tempScratch(t);
  const inMemory = solveBoard({ m: 3, n: 3, rule: 'cycle-draw', symmetry: false });
  t.false(inMemory.stats.movesOnDisk);
  // 3x3 holds about 780 KiB whatever the budget; 900K leaves blocks of about 15,000 of its 97,537 moves.
  const onDisk = solveBoard({ m: 3, n: 3, rule: 'cycle-draw', memory: 900 * 1024, scratch: dir, symmetry: false });
  t.true(onDisk.stats.movesOnDisk);
  const blocks = [...onDisk.graph!.parents().blocks()].length;
  t.true(blocks > 4, `${blocks} blocks of parents`);
  t.deepEqual(Array.from(onDisk.values), Array.from(inMemory.values));
  t.deepEqual(solveResult(onDisk, 0).moves, solveResult(inMemory, 0).moves);
  // The reverse rows filled range by range from the file equal those built in memory.
  const parents = inMemory.graph!.parents();
  const rows: number[] = [];
  for (const { first, last, offset, items } of onDisk.graph!.parents().blocks()) {
    rows.push(...items.subarray(parents.start[first] - offset, parents.start[last] - offset));
  }
  t.deepEqual(rows, Array.from(parents.items!));
  // The moves and their reverse are on disk, in files whose names went as they were opened.
  t.is(onDisk.graph!.rows.bytesOnDisk, 4 * onDisk.graph!.edges);
  t.is(onDisk.graph!.parents().bytesOnDisk, 4 * onDisk.graph!.edges);
  t.deepEqual(readdirSync(dir), [], 'nothing named in the scratch folder, to be left behind by a killed solve');
  onDisk.dispose();
});

test('a --memory below what a solve must hold in memory is refused in one line, leaving no file', (t) => {
  const dir = tempScratch(t);
  const refused = runCli(['solve', '3x3', '--memory', '700K', '--scratch', dir, '--quiet']);
  t.is(refused.status, 2);
  t.is(
    refused.stderr.trim(),
    'gocount: board 3x3, rule no-cycle: its 25350 states need at least 1.0 MiB in memory, more than --memory 700 KiB',
  );
  t.deepEqual(readdirSync(dir), [], 'no file left after a refusal');
});

test('no-cycle: the table of earlier results takes what --memory leaves; without room for it the values are the same', (t) => {
  const whole = solveBoard({ m: 2, n: 4 });
  // What a no-cycle solve holds beside its table: 51 bytes a state, 42 a position, 8 a move.
  const held = 51 * whole.space.states + 42 * whole.space.positions + 8 * whole.graph!.edges;
  const none = solveBoard({ m: 2, n: 4, memory: held });
  const some = solveBoard({ m: 2, n: 4, memory: held + 100 * 1024 });
  t.is(none.stats.tableHits, 0);
  t.true(some.stats.tableHits > 0);
  t.like(none.stats, { tableEntries: 0, tableBytes: 0 });
  // 4 whole buckets of 8 entries and a byte a state (its move to try first), 89,598 bytes, within the 100 KiB left.
  t.like(some.stats, { tableEntries: 32, tableBytes: 89_598 });
  // 3 GiB gives 2x4 the most a table holds: 128 entries a state (2.7 GB).
  t.is(solveBoard({ m: 2, n: 4, memory: 3 * 2 ** 30 }).stats.tableEntries, 128 * whole.space.states);
  t.true(
    none.stats.searchNodes > some.stats.searchNodes,
    `${none.stats.searchNodes} search nodes without the table, ${some.stats.searchNodes} with 100 KiB`,
  );
  t.true(
    some.stats.searchNodes > whole.stats.searchNodes,
    `${some.stats.searchNodes} with 100 KiB, ${whole.stats.searchNodes} with the default budget`,
  );
  t.deepEqual(Array.from(none.values), Array.from(whole.values));
  t.deepEqual(Array.from(some.values), Array.from(whole.values));
  for (const solved of [whole, none, some]) solved.dispose();
});

/** 3x3 under cycle-draw, folded by its 8 symmetries: solved once for the database tests below. */
const nineFolded = once(() => solveBoard({ m: 3, n: 3, rule: 'cycle-draw' }));

/** A database file of `solved` (3x3 folded unless given), in a scratch folder of the test's own. */
function databaseFile(t: ExecutionContext, solved: DatabaseValues = nineFolded()): string {
  const file = path.join(tempScratch(t), '3x3.db');
  writeSolveDb(file, solved);
  return file;
}

/**
 * Rewrites a database file as version 1 was written, before the scoring and the symmetries were
 * recorded; gives the two it left out.
 */
function rewriteAsVersion1(file: string): { scoring: unknown; symmetries: unknown } {
  const bytes = readFileSync(file);
  const newline = bytes.indexOf(10);
  const { scoring, symmetries, ...rest } = JSON.parse(bytes.subarray(0, newline).toString());
  const old = Buffer.concat([Buffer.from(`${JSON.stringify({ ...rest, version: 1 })}\n`), bytes.subarray(newline + 1, bytes.length - 4)]);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32LE(crc32(old));
  writeFileSync(file, Buffer.concat([old, trailer]));
  return { scoring, symmetries };
}

test('a database file is written with no temporary file left beside it', (t) => {
  const file = databaseFile(t);
  t.deepEqual(readdirSync(path.dirname(file)), ['3x3.db'], 'no temporary file left');
});

test('a database file of a folded solve verifies, with one position per orbit', (t) => {
  const good = checkSolveDb(databaseFile(t));
  t.is(good.states, 3718, 'one position per orbit of the 8 symmetries');
  t.deepEqual(good.problems, []);
});

test("a database file reads back the solve's value, scoring and values", (t) => {
  const read = readSolveDb(databaseFile(t));
  if (typeof read === 'string') return t.fail(read);
  t.is(read.header.value, 9);
  t.is(read.header.scoring, 'tromp-taylor');
  t.deepEqual(Array.from(read.values), Array.from(nineFolded().values));
});

test('a folded database file called version 1 does not check: version 1 kept every position', (t) => {
  const file = databaseFile(t);
  t.deepEqual(rewriteAsVersion1(file), { scoring: 'tromp-taylor', symmetries: 8 });
  t.deepEqual(checkSolveDb(file).problems, [{ file, problem: 'the header gives 1824 positions and 3718 states; 3x3 has 12675 and 25862' }]);
});

test('a version-1 database file reads as Tromp–Taylor with every position kept, and checks', (t) => {
  const file = databaseFile(t, solveBoard({ m: 3, n: 3, rule: 'cycle-draw', symmetry: false }));
  t.deepEqual(rewriteAsVersion1(file), { scoring: 'tromp-taylor', symmetries: 1 });
  const oldRead = readSolveDb(file);
  if (typeof oldRead === 'string') return t.fail(oldRead);
  t.is(oldRead.header.scoring, 'tromp-taylor');
  t.is(oldRead.header.symmetries, 1);
  t.deepEqual(checkSolveDb(file).problems, []);
});

test('verify finds a flipped byte in a database file by its CRC-32', (t) => {
  const file = databaseFile(t);
  const damaged = readFileSync(file);
  damaged[damaged.length - 100] ^= 1;
  writeFileSync(file, damaged);
  t.deepEqual(checkSolveDb(file).problems, [{ file, problem: 'CRC-32 mismatch: the file is damaged' }]);
});

test('verify calls a database file cut inside its header, even inside its first bytes, a database cut short', (t) => {
  const file = databaseFile(t);
  const bytes = readFileSync(file);
  for (const length of [16, 60]) {
    writeFileSync(file, bytes.subarray(0, length));
    const run = runCli(['verify', file]);
    t.is(run.status, 1);
    t.is(run.stdout.split('\n')[0], `${file}: cut short in its header (${length} bytes)`);
  }
});

test('verify finds a value its moves contradict in a database file with a correct CRC-32', (t) => {
  const solved = nineFolded();
  const values = Int8Array.from(solved.values);
  const root = solved.space.stateOf(0, PLAIN);
  values[root] = 7;
  const problems = checkSolveDb(databaseFile(t, { ...solved, values })).problems.map((p) => p.problem);
  t.true(problems.includes('value 7, but its best move gives 9'), problems.join('; '));
});

/** 3x3 and 2x4, folded or not, under both rules: solved once for the two verify tests below. */
const verifiedBoards = once(() =>
  (
    [
      [3, 3, 'cycle-draw', true],
      [3, 3, 'cycle-draw', false],
      [2, 4, 'cycle-draw', false],
      [2, 4, 'no-cycle', false],
      [3, 3, 'no-cycle', false],
    ] as [number, number, CycleRule, boolean][]
  ).map(([m, n, rule, symmetry]) => ({ m, n, rule, label: `${m}x${n} ${rule}`, solved: solveBoard({ m, n, rule, symmetry }) })),
);

test("verify checks every state of 3x3 and 2x4, folded or not, under both rules, generating each state's moves as it checks it", (t) => {
  const file = path.join(tempScratch(t), 'board.db');
  for (const { label, solved } of verifiedBoards()) {
    writeSolveDb(file, solved);
    const seen: number[][] = [];
    t.deepEqual(checkSolveDb(file, (done, total) => seen.push([done, total])).problems, [], label);
    t.deepEqual(seen, [[0, solved.space.states]]);
  }
});

test("verify names a wrong value: in a ko state, below what the game's end gives, and unlike its symmetric image", (t) => {
  const file = path.join(tempScratch(t), 'board.db');
  const damaged = (solved: SolvedBoard, s: number, value: number) => {
    const values = Int8Array.from(solved.values);
    values[s] = value;
    writeSolveDb(file, { ...solved, values });
    return checkSolveDb(file).problems.filter((p) => p.record === s && p.problem.startsWith(`value ${value}, but `));
  };
  for (const { m, n, rule, label, solved } of verifiedBoards()) {
    const { space } = solved;
    if (rule === 'cycle-draw') {
      // A KO state: its moves are found from its ko point alone.
      const s = space.statusOf.indexOf(KO);
      t.is(damaged(solved, s, 100).length, 1, `${label}: state ${s}`);
      continue;
    }
    // Every position of these boards is in a cycle: an after-pass state below what ending the game gives,
    // and a state unlike its mirror image.
    const s = space.stateOf(keyOf(0b1, 0b10), AFTER_PASS);
    t.regex(damaged(solved, s, -100)[0]?.problem ?? '', /^value -100, but the game's end or a move out of its cycle gives -?\d+$/, label);
    const mirror = space.stateOf(keyOf(1 << (n - 1), 1 << (n - 2)), AFTER_PASS);
    const top = m * n === solved.values[mirror] ? m * n - 1 : m * n;
    t.is(damaged(solved, mirror, top)[0]?.problem, `value ${top}, but its symmetric image (state ${s}) has ${solved.values[s]}`, label);
    solved.dispose();
  }
});

test('a position as text reads back as the same key, the player to move X', (t) => {
  const board = new SolveBoard(2, 3);
  for (const text of ['X.O/.XO', '.../...', 'OO./X.X']) t.is(positionText(board, parsePosition(text, board, 'black')), text);
  t.is(positionText(board, parsePosition('X.O/.XO', board, 'white')), 'O.X/.OX');
});

/** 2x2 solved into a database by gocount solve --db, once for the look-ups below. */
const twoByTwoDb = once(() => {
  const file = path.join(shared, '2x2.db');
  return { file, solved: runCli(['solve', '2x2', '--db', file]) };
});

test('gocount solve --db FILE writes a database that verifies', (t) => {
  const { file, solved } = twoByTwoDb();
  t.is(solved.status, 0);
  t.is(runCli(['verify', file]).stdout.trim(), 'checked 1 solve database, 114 states: no problems');
});

test('gocount solve --db FILE --position looks up the empty board, Black to move', (t) => {
  const empty = JSON.parse(runCli(['solve', '--db', twoByTwoDb().file, '--position', '../..', '--json']).stdout);
  t.is(empty.value, 1, 'the empty board, Black to move');
  t.deepEqual(empty.bestMoves, ['a1', 'b1', 'a2', 'b2']);
});

test('gocount solve --db FILE --position --to-move white looks up a position with White to move', (t) => {
  const oracle = oracleValue(2, 2, 'no-cycle', { board: [1, 0, 0, 2], toMove: 2 });
  const looked = JSON.parse(runCli(['solve', '--db', twoByTwoDb().file, '--position', '.O/X.', '--to-move', 'white', '--json']).stdout);
  t.is(looked.value, oracle, 'X on a1, O on b2, White to move');
});

test('gocount solve --db FILE --position refuses a position not of the board in one line', (t) => {
  const bad = runCli(['solve', '--db', twoByTwoDb().file, '--position', 'XO/O']);
  t.is(bad.status, 2);
  t.is(bad.stderr.trim(), `gocount: position "XO/O": give 2 rows of 2 points each, separated by '/'`);
});

test("a look-up may be given the database's own size and rule", (t) => {
  const { file } = twoByTwoDb();
  t.is(JSON.parse(runCli(['solve', '2x2', '--rule', 'no-cycle', '--db', file, '--position', '../..', '--json']).stdout).value, 1);
});

test('what a look-up cannot honour is refused in one line, not ignored, as are the look-up options without --position', (t) => {
  const { file } = twoByTwoDb();
  for (const [args, line] of [
    [['3x3', '--db', file, '--position', '../..'], `board 3x3 given, but ${file} holds 2x2 under no-cycle with tromp-taylor scoring`],
    [
      ['--db', file, '--position', '../..', '--rule', 'cycle-draw'],
      `--rule cycle-draw given, but ${file} holds 2x2 under no-cycle with tromp-taylor scoring`,
    ],
    [
      ['--db', file, '--position', '../..', '--memory', '4Q', '--stats'],
      '--memory, --stats apply only to a solve, not to a look-up with --position',
    ],
    [['2x2', '--ko', 'a1'], '--ko applies only to a look-up with --position'],
    [['2x2', '--to-move', 'white', '--after-pass'], '--to-move, --after-pass apply only to a look-up with --position'],
  ] as Array<[string[], string]>) {
    const refused = runCli(['solve', ...args]);
    t.is(refused.status, 2, args.join(' '));
    t.is(refused.stderr, `gocount: ${line}\n`);
  }
});

/** 2x2 under cycle-draw with shared points split, solved into a database once for the tests below. */
const splitSharedDb = once(() => {
  const file = path.join(shared, 'split.db');
  return { file, solved: runCli(['solve', '2x2', '--rule', 'cycle-draw', '--scoring', 'split-shared', '--db', file, '--quiet']) };
});

test('gocount solve --scoring split-shared names the scoring with the value', (t) => {
  t.regex(
    splitSharedDb().solved.stdout,
    /^2x2, rule cycle-draw: 0 for Black, a draw, with best play \(area scoring, shared points split, komi 0\)/,
  );
});

test('a look-up in a split-shared database names its rule and scoring', (t) => {
  const splitLook = runCli(['solve', '--db', splitSharedDb().file, '--position', 'XX/.O']);
  t.regex(splitLook.stdout, /^[-+]?\d+ for Black \(to move\), rule cycle-draw, area scoring, shared points split\n/);
});

test('a split-shared database verifies', (t) => {
  t.is(runCli(['verify', splitSharedDb().file]).stdout.trim(), 'checked 1 solve database, 26 states: no problems');
});

test('a database of orbits answers for every image of a position, its moves named on the board as given', (t) => {
  const nine = path.join(tempScratch(t), '3x3.db');
  t.is(runCli(['solve', '3x3', '--rule', 'cycle-draw', '--db', nine, '--quiet']).status, 0);
  const lookUp = (position: string) => JSON.parse(runCli(['solve', '--db', nine, '--position', position, '--json']).stdout);
  t.like(lookUp('X../.O./...'), { value: -9, bestMoves: ['a1', 'b1', 'c1', 'a2', 'c2', 'b3', 'c3', 'pass'] });
  t.like(lookUp('..X/.O./...'), { value: -9, bestMoves: ['a1', 'b1', 'c1', 'a2', 'c2', 'a3', 'b3', 'pass'] });
});

test('a look-up in a database that is not there is refused in one line', (t) => {
  const none = path.join(tempScratch(t), 'none.db');
  const missing = runCli(['solve', '--db', none, '--position', '../..']);
  t.is(missing.status, 2);
  t.is(missing.stderr.trim(), `gocount: ${none}: no such file`);
});

test('a long history search reports its search nodes while one state is searched', (t) => {
  // 1x9's empty board and its moves take 129,825 search nodes: three reports, all of it in the empty board's tests.
  // (The table of earlier results, and so the search nodes, follow the budget.)
  const every = 32_768;
  const reports: Array<[number, string | undefined]> = [];
  const result = solve({
    m: 1,
    n: 9,
    emptyBoardOnly: true,
    memory: 512 << 20,
    nodesPerReport: every,
    onProgress: (phase, done, _total, detail) => {
      if (phase === 'history search' && detail) reports.push([done, detail]);
    },
  });
  // All in the empty board's tests, which give the range they have narrowed its value to (1x9 is a draw), or that value,
  // and the first move being searched (a report comes from inside a move's search).
  const range =
    /; the empty board's value (from (-[1-9]|0) to [0-9], first move ([a-i]1|pass) being searched|0, its move ([a-i]1|pass) being tested)$/;
  t.true(
    reports.every(([, detail]) => range.test(detail!)),
    reports.map(([, detail]) => detail).join('\n'),
  );
  const nodes = reports.map(([, detail]) => Number(/^(\d+) positions searched/.exec(detail!)?.[1]));
  t.deepEqual(
    nodes,
    Array.from({ length: Math.floor(result.retrograde.searchNodes / every) }, (_, i) => every * (i + 1)),
  );
  t.true(nodes.length >= 2, `${result.retrograde.searchNodes} search nodes`);
  t.true(reports.every(([done]) => done === reports[0][0]));
});

/**
 * No-cycle solves of small boards, each whole and of its empty board alone, made once for the
 * --empty-board-only tests below. One budget for both: the table of earlier results, and so the
 * search nodes, follow it.
 */
const wholeAndEmptyBoardOnly = once(() =>
  [
    [1, 6],
    [1, 7],
    [2, 4],
    [3, 3],
  ].map(([m, n]) => ({
    board: `${m}x${n}`,
    whole: solve({ m, n, memory: 512 << 20 }),
    only: solve({ m, n, emptyBoardOnly: true, memory: 512 << 20 }),
  })),
);

test("no-cycle, --empty-board-only: the empty board's value and best first moves are those of the whole solve", (t) => {
  for (const { board, whole, only } of wholeAndEmptyBoardOnly()) {
    t.is(only.value, whole.value, board);
    t.deepEqual(only.bestMoves, whole.bestMoves, board);
  }
});

test('no-cycle, --empty-board-only bounds the first moves short of the best at one below the value, the best valued as in the whole solve', (t) => {
  for (const { board, whole, only } of wholeAndEmptyBoardOnly()) {
    t.deepEqual(
      only.moves.map(({ move, atMost }) => [move, atMost ?? false]),
      whole.moves.map(({ move, value }) => [move, value < whole.value]),
      board,
    );
    for (const [i, { value, atMost }] of only.moves.entries()) {
      if (atMost) t.is(value, whole.value - 1, `${board} ${only.moves[i].move}`);
      else t.is(value, whole.moves[i].value, `${board} ${only.moves[i].move}`);
    }
  }
});

test('no-cycle, --empty-board-only searches fewer nodes than the whole solve', (t) => {
  for (const { board, whole, only } of wholeAndEmptyBoardOnly())
    t.true(only.retrograde.searchNodes < whole.retrograde.searchNodes, `${board}: ${only.retrograde.searchNodes} search nodes`);
});

test('no-cycle, --empty-board-only values the empty board alone: no counts of states by value, and the result says so', (t) => {
  for (const { only } of wholeAndEmptyBoardOnly()) {
    t.deepEqual(only.valueCounts, {});
    t.true(only.emptyBoardOnly);
  }
});

test('--empty-board-only with the moves generated (a budget below them) makes the same tests from the same guess', (t) => {
  const generated = solve({ m: 2, n: 4, emptyBoardOnly: true, memory: 400 * 1024 });
  t.true(generated.retrograde.movesOnDisk);
  t.deepEqual(generated.moves, solve({ m: 2, n: 4, emptyBoardOnly: true }).moves);
});

test('cycle-draw values every state whatever --empty-board-only says', (t) => {
  const draw = solve({ m: 2, n: 2, rule: 'cycle-draw', emptyBoardOnly: true });
  t.false(draw.emptyBoardOnly);
  t.is(draw.valueCounts['0'] > 0, true);
});

/** First moves as `move value`, a bound as `move <=value`. */
const named = (moves: MoveValue[]) => moves.map(({ move, value, atMost }) => `${move} ${atMost ? '<=' : ''}${value}`);

test('gocount solve 1x8 --empty-board-only: +3 for Black, b1 and g1 best, the other first moves at most +2', (t) => {
  const eight = JSON.parse(runCli(['solve', '1x8', '--empty-board-only', '--json']).stdout);
  t.is(eight.value, 3);
  t.deepEqual(named(eight.moves), ['a1 <=2', 'b1 3', 'c1 <=2', 'd1 <=2', 'e1 <=2', 'f1 <=2', 'g1 3', 'h1 <=2', 'pass <=2']);
});

test("gocount solve 1x8, whole under no-cycle: every first move's value", (t) => {
  t.deepEqual(named(JSON.parse(runCli(['solve', '1x8', '--json']).stdout).moves), [
    'a1 -3',
    'b1 3',
    'c1 -1',
    'd1 1',
    'e1 1',
    'f1 -1',
    'g1 3',
    'h1 -3',
    'pass -3',
  ]);
});

test('gocount solve 1x9 --empty-board-only: a draw, its best first moves, and the others at most -1', (t) => {
  const nine = runCli(['solve', '1x9', '--empty-board-only', '--stats']).stdout;
  t.regex(nine, /^1x9, rule no-cycle: 0 for Black, a draw,/);
  t.regex(nine, /\nbest first moves: b1, d1, e1, f1, h1, pass\n/);
  t.regex(nine, /\nfirst moves: a1 at most -1, b1 0, c1 at most -1, d1 0, e1 0, f1 0, g1 at most -1, h1 0, i1 at most -1, pass 0\n/);
});

test("gocount solve 1x9, whole under no-cycle: every first move's value", (t) => {
  t.deepEqual(named(JSON.parse(runCli(['solve', '1x9', '--json']).stdout).moves), [
    'a1 -4',
    'b1 0',
    'c1 -1',
    'd1 0',
    'e1 0',
    'f1 0',
    'g1 -1',
    'h1 0',
    'i1 -4',
    'pass 0',
  ]);
});

test('gocount solve --empty-board-only --db is refused in one line, and writes no file', (t) => {
  const dir = tempScratch(t);
  const refused = runCli(['solve', '2x2', '--empty-board-only', '--db', path.join(dir, 'x.db')]);
  t.is(refused.status, 2);
  t.is(refused.stderr.trim(), 'gocount: --db needs every state valued: leave out --empty-board-only');
  t.deepEqual(readdirSync(dir), []);
});

test('writeSolveDb refuses a solve that valued only the empty board, and writes no file', (t) => {
  const dir = tempScratch(t);
  const partial = solveBoard({ m: 2, n: 2, emptyBoardOnly: true });
  try {
    t.throws(() => writeSolveDb(path.join(dir, 'y.db'), partial), { message: /only the empty board was valued/ });
  } finally {
    partial.dispose();
  }
  t.deepEqual(readdirSync(dir), []);
});
