import test from 'ava';
import { ForcedBounds } from '../../lib/solve/cycle-draw/forced-bounds.js';
import { groupShiftOf, HistoryPath, SituationBits } from '../../lib/solve/no-cycle/history-path.js';
import { Dependencies, UNLISTED } from '../../lib/solve/no-cycle/history-table.js';
import { forEachMove, MoveGraph } from '../../lib/solve/moves/move-graph.js';
import { Components, positionComponents } from '../../lib/solve/moves/components.js';
import { forwardCheck, RetrogradeStats } from '../../lib/solve/moves/forward-check.js';
import { SearchAids, solveNoCycle } from '../../lib/solve/no-cycle/search-components.js';
import { SolveBoard } from '../../lib/solve/rules/solve-board.js';
import type { Scoring } from '../../lib/solve/defaults.js';
import { PLAIN, StateSpace } from '../../lib/solve/rules/state-space.js';
import { below, replayableRandom } from '../support/random.js';

/** Every no-cycle value of a board by the history search with the aids given. */
function noCycleValues(
  m: number,
  n: number,
  scoring: Scoring,
  aids: SearchAids,
  componentsOf: (graph: MoveGraph) => Components = positionComponents,
): { values: Int8Array; nodes: number; hits: number; fromImages: number } {
  const graph = new MoveGraph(new StateSpace(new SolveBoard(m, n, scoring), 'no-cycle'));
  const values = new Int8Array(graph.states);
  const known = new Uint8Array(graph.states);
  forwardCheck(graph, values, known);
  const stats = { searchNodes: 0, revised: 0, tableHits: 0, fromImages: 0 } as RetrogradeStats;
  solveNoCycle(graph, { parts: componentsOf(graph), values, known, stats, ...aids });
  return { values, nodes: stats.searchNodes, hits: stats.tableHits, fromImages: stats.fromImages };
}

test('the table of earlier results changes no no-cycle value: every state of 1x5, 2x3, 2x4 and 3x3, with and without the forced bounds, in a table of any size', (t) => {
  for (const [m, n, scoring, bounded] of [
    [1, 5, 'tromp-taylor', false],
    [2, 3, 'tromp-taylor', false],
    [2, 3, 'split-shared', true],
    [2, 4, 'split-shared', true],
    [3, 3, 'tromp-taylor', true],
  ] as const) {
    const name = `${m}x${n} ${scoring}${bounded ? ' with the bounds' : ''}`;
    const plain = noCycleValues(m, n, scoring, { bounded, tableBytes: 0, deepening: false });
    const tabled = noCycleValues(m, n, scoring, { bounded });
    // A few buckets: entries of different states and histories evict each other all the time.
    const small = noCycleValues(m, n, scoring, { bounded, tableBytes: 40_000 });
    t.deepEqual(tabled.values, plain.values, name);
    t.deepEqual(small.values, plain.values, `${name}, small table`);
    t.true(
      small.hits > 0 && small.nodes > tabled.nodes,
      `${name}: ${small.nodes} search nodes with the small table, ${tabled.nodes} with the whole`,
    );
    // The cut the table makes, both searches at full depth.
    const tabledFull = noCycleValues(m, n, scoring, { bounded, deepening: false });
    t.deepEqual(tabledFull.values, plain.values, `${name}, at full depth`);
    t.true(tabledFull.nodes < plain.nodes / 4, `${name}: ${tabledFull.nodes} search nodes with the table, ${plain.nodes} without`);
    t.true(tabled.hits > 0, name);
  }
});

test('depth-limited searches change no no-cycle value: every state of 1x6, 1x7, 2x4 and 3x3, against one search at full depth, with and without the aids', (t) => {
  for (const [m, n, scoring, aids] of [
    [1, 6, 'tromp-taylor', { bounded: false }],
    [1, 7, 'tromp-taylor', {}],
    [2, 4, 'split-shared', { tableBytes: 40_000 }],
    [3, 3, 'tromp-taylor', {}],
  ] as const) {
    const full = noCycleValues(m, n, scoring, { ...aids, deepening: false });
    const deepened = noCycleValues(m, n, scoring, aids);
    t.deepEqual(deepened.values, full.values, `${m}x${n}`);
  }
});

test('one history search per orbit of the symmetries changes no no-cycle value: every state of 1x6, 2x4 and 3x3', (t) => {
  for (const [m, n, scoring] of [
    [1, 6, 'tromp-taylor'],
    [2, 4, 'split-shared'],
    [3, 3, 'tromp-taylor'],
  ] as const) {
    const each = noCycleValues(m, n, scoring, { symmetric: false });
    const folded = noCycleValues(m, n, scoring, {});
    t.deepEqual(folded.values, each.values, `${m}x${n}`);
    t.is(each.fromImages, 0);
    t.true(folded.fromImages > 0, `${m}x${n}: ${folded.fromImages} states valued by an image`);
    t.true(folded.nodes < each.nodes, `${m}x${n}: ${folded.nodes} search nodes folded, ${each.nodes} state by state`);
  }
});

test("the empty board's tests search one move of each orbit of the symmetries: the same values of the empty board and its moves on 1x8, 1x9, 1x10, 2x4 and 3x3", (t) => {
  const nodes = { folded: 0, each: 0 };
  for (const [m, n, scoring, twins] of [
    [1, 8, 'tromp-taylor', 4],
    [1, 9, 'tromp-taylor', 4],
    [1, 10, 'tromp-taylor', 5],
    [2, 4, 'split-shared', 6],
    [3, 3, 'tromp-taylor', 6],
  ] as const) {
    const each = noCycleValues(m, n, scoring, { symmetric: false, emptyBoardOnly: true });
    const folded = noCycleValues(m, n, scoring, { emptyBoardOnly: true });
    t.deepEqual(folded.values, each.values, `${m}x${n}`);
    t.is(each.fromImages, 0);
    // The moves that are images of an earlier move: e1 to h1 (of d1 to a1) on 1x8, all corners and edges but one each on 3x3.
    t.is(folded.fromImages, twins, `${m}x${n}`);
    nodes.folded += folded.nodes;
    nodes.each += each.nodes;
  }
  // Less search in all: on 1x9 alone the mirror images' searches leave results in the table that
  // save more than they cost (181,338 search nodes folded, 138,667 move by move).
  t.true(nodes.folded < nodes.each, `${nodes.folded} search nodes folded, ${nodes.each} move by move`);
});

test("hashed history filters change no no-cycle value: every state of 2x4 and 3x3, and the empty board's tests, against exact filters", (t) => {
  for (const [m, n, scoring] of [
    [2, 4, 'split-shared'],
    [3, 3, 'tromp-taylor'],
  ] as const) {
    const situations = 2 * new StateSpace(new SolveBoard(m, n, scoring), 'no-cycle').positions;
    t.true(new SituationBits(situations).exact, `${m}x${n}: ${situations} situations, exact by default`);
    t.false(new SituationBits(situations, 0).exact);
    const exact = noCycleValues(m, n, scoring, {});
    // A small table too: entries evicted and refused by the hashed filters.
    for (const tableBytes of [undefined, 40_000]) {
      const hashed = noCycleValues(m, n, scoring, { exactSituations: 0, tableBytes });
      t.deepEqual(hashed.values, exact.values, `${m}x${n}, table ${tableBytes ?? 'default'}`);
      t.true(hashed.hits > 0);
    }
    // The empty board's tests hash into filters of their own size.
    const exactTests = noCycleValues(m, n, scoring, { emptyBoardOnly: true });
    const hashedTests = noCycleValues(m, n, scoring, { emptyBoardOnly: true, exactSituations: 0, tableBytes: 40_000 });
    t.deepEqual(hashedTests.values, exactTests.values, `${m}x${n}, the empty board's tests`);
  }
});

test("the empty board's moves into a third component stop --empty-board-only, where its tests would read values not yet found", (t) => {
  // 1x4's components as they are (the empty board, and every other position), but the position
  // after a1 taken out into a new one of its own, with a cycle.
  const a1Apart = (graph: MoveGraph): Components => {
    const { component, count, cyclic, sizes } = positionComponents(graph);
    forEachMove(graph.space, 0, PLAIN, -1, (p, child) => {
      if (p === 0) component[graph.space.rankOfState(child)] = count;
    });
    return { component, count: count + 1, cyclic: Uint8Array.of(...cyclic, 1), sizes: Uint32Array.of(...sizes, 1) };
  };
  t.throws(() => noCycleValues(1, 4, 'tromp-taylor', { emptyBoardOnly: true }, a1Apart), {
    message: "the empty board's moves lead into 2 components, one with a cycle: --empty-board-only values one",
  });
  // The components as they are: the search runs.
  t.notThrows(() => noCycleValues(1, 4, 'tromp-taylor', { emptyBoardOnly: true }));
});

test('an exact filter takes whole groups of words, at most 32 of them, with a bit for every situation', (t) => {
  // 1×7, 1×9, 1×10, 1×11 and 1×12's situations, and the smallest boards'.
  const expected = new Map([
    [2, 1],
    [1_734, 56],
    [13_298, 416],
    [36_826, 1_152],
    [101_982, 3_200],
    [282_418, 9_216],
  ]);
  for (const [situations, words] of expected) {
    const bits = new SituationBits(situations, situations);
    t.is(bits.words, words, `${situations} situations`);
    const size = 2 ** groupShiftOf(words);
    t.is(words % size, 0, `${situations} situations: whole groups of ${size} words`);
    t.true(words / size <= 32 && words * 32 >= situations && (words - size) * 32 < situations);
  }
});

test('the path answers the forced bounds history check as the bounds do, for every state after random histories of 2x3', (t) => {
  const graph = new MoveGraph(new StateSpace(new SolveBoard(2, 3, 'tromp-taylor'), 'no-cycle'));
  const bounds = ForcedBounds.of(graph);
  const path = new HistoryPath(graph.space, new SituationBits(graph.space.positions * 2), bounds);
  const listed: [number[], number[]] = [[], []];
  let seed = 7;
  const random = (below: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % below;
  let broken = 0;
  const wrong: string[] = [];
  for (let step = 0; step < 400; step++) {
    if (path.length > 0 && random(3) === 0) {
      path.pop();
      listed[path.length & 1].pop();
    } else {
      const s = random(graph.states);
      listed[path.length & 1].push(s);
      path.push(s, path.length & 1);
    }
    for (let s = 0; s < graph.states; s++) {
      for (let parity = 0; parity < 2; parity++) {
        if (bounds.highestW[s] > -128) {
          const breaks = path.breaks(parity, bounds.lower(s), bounds.enteredW[s]);
          if (breaks === bounds.safeLower(s, listed[parity], listed[parity].length)) wrong.push(`state ${s}, parity ${parity}, lower`);
          if (breaks) broken++;
        }
        if (bounds.highestL[s] > -128) {
          const breaks = path.breaks(parity, bounds.highestL[s], bounds.enteredL[s]);
          if (breaks === bounds.safeUpper(s, listed[parity], listed[parity].length)) wrong.push(`state ${s}, parity ${parity}, upper`);
        }
      }
    }
  }
  t.deepEqual(wrong.slice(0, 5), []);
  t.true(broken > 0, 'some bounds broken by the histories');
});

test('the path knows where each situation first occurs, and its filter holds exactly the situations on it', (t) => {
  const graph = new MoveGraph(new StateSpace(new SolveBoard(2, 2, 'tromp-taylor'), 'no-cycle'));
  const bits = new SituationBits(graph.space.positions * 2);
  const path = new HistoryPath(graph.space, bits);
  const pass = graph.passChild[0];
  path.push(0, 0);
  path.push(pass, 1);
  path.push(0, 0);
  const empty0 = path.situation(0, 0);
  const empty1 = path.situation(pass, 1);
  t.is(path.depthOf[empty0], 0);
  t.is(path.depthOf[empty1], 1);
  path.pop();
  t.is(path.depthOf[empty0], 0, 'a repeated situation keeps its first depth');
  const set = (situation: number): boolean => (path.filter[bits.bitOf(situation) >>> 5] & (1 << (bits.bitOf(situation) & 31))) !== 0;
  t.true(set(empty0) && set(empty1));
  path.pop();
  path.pop();
  t.is(path.depthOf[empty0], -1);
  t.deepEqual(
    [...path.filter].filter((word) => word !== 0),
    [],
  );
});

test('a record meets the path exactly when its filter holds a situation of the path, whether it lists its words or not, parities swapped or not', (t) => {
  const random = replayableRandom(t, 'filters');
  const graph = new MoveGraph(new StateSpace(new SolveBoard(1, 7, 'tromp-taylor'), 'no-cycle'));
  const situations = graph.space.positions * 2;
  const seen = { listed: 0, unlisted: 0, met: 0, missed: 0 };
  for (const exactUpTo of [situations, 0]) {
    const bits = new SituationBits(situations, exactUpTo);
    const deps = new Dependencies(bits.words, 4);
    const path = new HistoryPath(graph.space, bits);
    for (let trial = 0; trial < 300; trial++) {
      // Record 0 reaches a random set, record 1 is it with parities swapped (as a table entry turns it).
      deps.clear(0);
      deps.clear(1);
      const set = new Set<number>();
      const size = 1 + below(random, trial % 2 === 0 ? 8 : 200);
      for (let i = 0; i < size; i++) {
        const bit = bits.bitOf(below(random, situations));
        set.add(bit);
        deps.reach(0, bit);
      }
      deps.orReached(1, deps, 0, 1);
      const length = 1 + below(random, 40);
      for (let i = 0; i < length; i++) path.push(below(random, graph.states), below(random, 2));
      const onPath = Array.from(path.situations.subarray(0, length), (x) => bits.bitOf(x));
      for (const swap of [0, 1]) {
        const expected = onPath.some((bit) => set.has(bit ^ swap));
        t.is(deps.meets(0, path, swap), expected, `trial ${trial}, swap ${swap}`);
        t.is(deps.meets(1, path, swap ^ 1), expected, `trial ${trial}, swap ${swap}, turned`);
        seen[expected ? 'met' : 'missed']++;
      }
      seen[deps.listed[0] === UNLISTED ? 'unlisted' : 'listed']++;
      for (let i = 0; i < length; i++) path.pop();
    }
  }
  t.true(
    Object.values(seen).every((count) => count > 20),
    JSON.stringify(seen),
  );
});
