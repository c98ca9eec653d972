import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Arena } from '../../lib/solve/cycle-draw/arena.js';
import { BucketFiles } from '../../lib/solve/cycle-draw/bucket-files.js';
import { noCycleAidsOnDisk, onDiskFloor, solveCycleDrawOnDisk } from '../../lib/solve/cycle-draw/cycle-draw-on-disk.js';
import { positionComponents } from '../../lib/solve/moves/components.js';
import { solveCycleDraw } from '../../lib/solve/cycle-draw/cycle-draw.js';
import { GeneratedMoves } from '../../lib/solve/moves/search-moves.js';
import { SolveBoard } from '../../lib/solve/rules/solve-board.js';
import { writeSolveDb } from '../../lib/solve/files/solve-db.js';
import { solveBoard, solveResult } from '../../lib/solve/solve.js';
import { StateSpace } from '../../lib/solve/rules/state-space.js';
import { BoardSymmetry } from '../../lib/solve/rules/symmetry.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch as makeSharedScratch } from '../support/shared.js';

const quiet = { moves: () => {}, retrograde: () => {} };
const sharedScratch = makeSharedScratch();

test('cycle-draw with the states on disk gives every state the value the in-memory retrograde gives it', (t) => {
  const dir = tempScratch(t);
  const boards: Array<[number, number, 'tromp-taylor' | 'split-shared', boolean]> = [
    [3, 3, 'tromp-taylor', false],
    [3, 3, 'split-shared', false],
    [3, 3, 'tromp-taylor', true],
    [2, 4, 'split-shared', true],
    [1, 9, 'tromp-taylor', false],
  ];
  for (const [m, n, scoring, folded] of boards) {
    const label = `${m}x${n} ${scoring}${folded ? ' folded' : ''}`;
    const inMemory = solveBoard({ m, n, rule: 'cycle-draw', scoring, symmetry: folded });
    const space = new StateSpace(new SolveBoard(m, n, scoring), 'cycle-draw', undefined, folded ? new BoardSymmetry(m, n) : undefined);
    // The least budget (64 KiB of work): buckets of moves and passes sorting each, and slices of
    // 6,553 states, several of them on the boards unfolded.
    const onDisk = solveCycleDrawOnDisk(space, onDiskFloor(space), dir, quiet);
    t.is(onDisk.slices, Math.ceil(space.states / 6553), label);
    if (!folded) t.true(onDisk.slices > 1, `${label}: ${onDisk.slices} slices`);
    t.is(onDisk.edges, inMemory.edges, label);
    t.true(onDisk.bytesOnDisk >= 4 * space.states + 4 * onDisk.edges, `${label}: ${onDisk.bytesOnDisk} bytes on disk`);
    t.deepEqual(Array.from(onDisk.values), Array.from(inMemory.values), label);
    inMemory.dispose();
  }
  t.deepEqual(readdirSync(dir), [], 'nothing named in the scratch folder, to be left behind by a killed solve');
});

/** 3x3 under cycle-draw solved in memory, and its database, once for the tests below. */
const cycleDrawInMemory = once(() => {
  const solved = solveBoard({ m: 3, n: 3, rule: 'cycle-draw' });
  const db = path.join(sharedScratch, 'cycle-draw-memory.db');
  writeSolveDb(db, solved);
  return { solved, db };
});

test('a cycle-draw budget below what the states hold in memory puts them on disk, to the same moves and values', (t) => {
  const dir = tempScratch(t);
  const { solved: inMemory } = cycleDrawInMemory();
  t.false(inMemory.stats.statesOnDisk);
  // 3x3 folded: 1,824 positions and 3,718 states hold about 128 KiB in memory.
  const onDisk = solveBoard({ m: 3, n: 3, rule: 'cycle-draw', memory: 90 * 1024, scratch: dir });
  t.true(onDisk.stats.statesOnDisk);
  t.true(onDisk.stats.rounds > 16, `${onDisk.stats.rounds} rounds`);
  t.deepEqual(solveResult(onDisk, 0).moves, solveResult(inMemory, 0).moves);
  t.deepEqual(solveResult(onDisk, 0).valueCounts, solveResult(inMemory, 0).valueCounts);
});

test('gocount solve with a cycle-draw budget below the states writes byte for byte the database solved in memory, and says it kept them on disk', (t) => {
  const dir = tempScratch(t);
  const file = path.join(dir, 'disk.db');
  const cli = runCli(['solve', '3x3', '--rule', 'cycle-draw', '--memory', '90K', '--scratch', dir, '--db', file, '--stats', '--quiet']);
  t.is(cli.status, 0, cli.stderr);
  t.regex(
    cli.stdout,
    /forward checking: not run, the states were kept on disk \(beyond --memory\); threshold games: \d+ rounds; working files: [\d.]+ [KMG]iB at most/,
  );
  t.regex(cli.stdout, /^3x3, rule cycle-draw: \+9 for Black/);
  t.deepEqual(readFileSync(file), readFileSync(cycleDrawInMemory().db), 'byte for byte the database solved in memory');
  t.is(runCli(['verify', file]).status, 0);
  t.deepEqual(readdirSync(dir), ['disk.db'], 'no working file left behind');
});

test('a cycle-draw budget below its floor is refused in one line, leaving no working file', (t) => {
  const dir = tempScratch(t);
  const refused = runCli(['solve', '3x3', '--rule', 'cycle-draw', '--memory', '80K', '--scratch', dir, '--quiet']);
  t.is(refused.status, 2);
  t.is(
    refused.stderr.trim(),
    'gocount: board 3x3, rule cycle-draw: its 3718 states need at least 82 KiB in memory, more than --memory 80 KiB',
  );
  t.deepEqual(readdirSync(dir), [], 'no working file left behind');
});

test('an arena hands out aligned arrays from one allocation and refuses more than it holds', (t) => {
  const arena = new Arena(64);
  const bytes = arena.u8(3);
  const words = arena.u32(2);
  t.is(words.byteOffset, 8, 'aligned past the three bytes');
  t.is(bytes.buffer, words.buffer);
  t.is(arena.free, 48);
  t.throws(() => arena.u32(13), { message: 'arena: 52 bytes asked for, 48 left' });
  arena.reset();
  t.is(arena.u8(64).byteOffset, 0, 'a reset starts again from the beginning');
});

test('bucket files return what was pushed, in order, buffered or written, and refuse a push after seal', (t) => {
  const dir = tempScratch(t);
  const buckets = new BucketFiles(dir, 2, new Uint32Array(8)); // four words a bucket
  for (let i = 0; i < 10; i++) buckets.push(0, i);
  buckets.push(1, 42);
  t.is(buckets.words(0), 10);
  const read = (b: number) => {
    const words: number[] = [];
    for (const chunk of buckets.chunks(b, new Uint32Array(4))) words.push(...chunk); // a chunk lasts until the next
    return words;
  };
  t.deepEqual(read(0), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  t.deepEqual(read(1), [42], 'never written: read from its buffer');
  buckets.seal();
  t.deepEqual(read(1), [42], 'sealed: read from its file');
  t.throws(() => buckets.push(1, 7), { message: 'bucket files: a push after seal()' });
  buckets.clear();
  t.is(buckets.words(0), 0);
  buckets.close();
  t.deepEqual(readdirSync(dir), []);
});

test('no-cycle below what its states hold in memory: the moves generated, the guide and bounds from games on disk, the same values and moves', (t) => {
  const dir = tempScratch(t);
  // Each budget just above the least (15 bytes a state, 50 a position, 64 KiB of work).
  const boards: Array<[number, number, 'tromp-taylor' | 'split-shared', number]> = [
    [3, 3, 'tromp-taylor', 1100],
    [2, 4, 'split-shared', 400],
    [3, 3, 'split-shared', 1100],
  ];
  for (const [m, n, scoring, kib] of boards) {
    const label = `${m}x${n} ${scoring}`;
    const inMemory = solveBoard({ m, n, scoring });
    const generated = solveBoard({ m, n, scoring, memory: kib * 1024, scratch: dir });
    t.false(inMemory.stats.statesOnDisk, label);
    t.true(generated.stats.statesOnDisk && generated.stats.rounds > 0, label);
    t.is(generated.edges, inMemory.edges, label);
    t.deepEqual(Array.from(generated.values), Array.from(inMemory.values), label);
    t.deepEqual(solveResult(generated, 0).moves, solveResult(inMemory, 0).moves, label);
    t.is(generated.stats.cyclePositions, inMemory.stats.cyclePositions, label);
    inMemory.dispose();
  }
  t.deepEqual(readdirSync(dir), [], 'nothing named in the scratch folder, to be left behind by a killed solve');
});

test('gocount solve with a no-cycle budget below the states writes byte for byte the database solved in memory', (t) => {
  const dir = tempScratch(t);
  const inMemoryDb = path.join(dir, 'in-memory.db');
  const generatedDb = path.join(dir, 'generated.db');
  t.is(runCli(['solve', '2x4', '--db', inMemoryDb, '--quiet']).status, 0);
  t.is(runCli(['solve', '2x4', '--memory', '400K', '--scratch', dir, '--db', generatedDb, '--quiet']).status, 0);
  t.deepEqual(readFileSync(generatedDb), readFileSync(inMemoryDb));
});

test('a no-cycle budget below its floor is refused in one line', (t) => {
  const dir = tempScratch(t);
  const refused = runCli(['solve', '2x4', '--memory', '300K', '--scratch', dir, '--quiet']);
  t.is(refused.status, 2);
  t.is(
    refused.stderr.trim(),
    'gocount: board 2x4, rule no-cycle: its 8250 states need at least 386 KiB in memory, more than --memory 300 KiB',
  );
});

test('no-cycle with the states on disk: the guide is the cycle-draw retrograde of the moves, the bounds hold every value, the moves and components are those in memory', (t) => {
  const dir = tempScratch(t);
  for (const [m, n] of [
    [3, 3],
    [2, 4],
    [1, 8],
  ]) {
    const label = `${m}x${n}`;
    const solved = solveBoard({ m, n });
    const graph = solved.graph!;
    const space = new StateSpace(new SolveBoard(m, n, 'tromp-taylor'), 'no-cycle');
    const aids = noCycleAidsOnDisk(space, 0, dir, quiet);
    t.deepEqual(Array.from(aids.values), Array.from(solveCycleDraw(graph)), label);
    let inside = 0;
    for (let s = 0; s < space.states; s++) {
      const v = solved.values[s];
      if (aids.bounds.lower(s) <= v && v <= aids.bounds.upper(s)) inside++;
    }
    t.is(inside, space.states, `${label}: states whose value the bounds hold`);
    t.true(
      aids.bounds.highestW.some((w, s) => w > -space.board.points && aids.bounds.lower(s) === solved.values[s]),
      label,
    );
    const moves = new GeneratedMoves(space, aids.values);
    const listed = new Uint32Array(space.board.points + 1);
    let same = 0;
    for (let s = 0; s < space.states; s++) {
      const row = Array.from(graph.rows.items!.subarray(graph.start[s], graph.start[s + 1])).sort(
        (a, b) => aids.values[a] - aids.values[b],
      );
      const count = moves.list(s, listed, 0);
      if (
        JSON.stringify(Array.from(listed.subarray(0, count))) === JSON.stringify(row) &&
        moves.pass === graph.passChild[s] &&
        moves.ending === graph.ending[s]
      )
        same++;
    }
    t.is(same, space.states, `${label}: states whose generated moves are the rows in memory, in the search's order`);
    t.deepEqual(positionComponents(moves), positionComponents(graph), label);
    solved.dispose();
  }
  t.deepEqual(readdirSync(dir), []);
});
