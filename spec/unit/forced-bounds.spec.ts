import test from 'ava';
import { ForcedBounds } from '../../lib/solve/cycle-draw/forced-bounds.js';
import { MoveGraph } from '../../lib/solve/moves/move-graph.js';
import { forwardCheck, RetrogradeStats } from '../../lib/solve/moves/forward-check.js';
import { positionComponents } from '../../lib/solve/moves/components.js';
import { solveNoCycle } from '../../lib/solve/no-cycle/search-components.js';
import { SolveBoard } from '../../lib/solve/rules/solve-board.js';
import type { Scoring } from '../../lib/solve/defaults.js';
import { StateSpace } from '../../lib/solve/rules/state-space.js';

/** Every no-cycle value of a board, by the history search with the forced bounds (and depth limits) or without either. */
function noCycleValues(m: number, n: number, scoring: Scoring, bounded: boolean): { graph: MoveGraph; values: Int8Array; nodes: number } {
  const graph = new MoveGraph(new StateSpace(new SolveBoard(m, n, scoring), 'no-cycle'));
  const values = new Int8Array(graph.states);
  const known = new Uint8Array(graph.states);
  forwardCheck(graph, values, known);
  const stats = { searchNodes: 0, revised: 0 } as RetrogradeStats;
  solveNoCycle(graph, { parts: positionComponents(graph), values, known, stats, bounded, tableBytes: 0, deepening: bounded });
  return { graph, values, nodes: stats.searchNodes };
}

test('the forced bounds hold every no-cycle value and change none: every state of 1x5 and 2x4', (t) => {
  for (const [m, n, scoring] of [
    [1, 5, 'tromp-taylor'],
    [2, 4, 'split-shared'],
  ] as const) {
    const plain = noCycleValues(m, n, scoring, false);
    const bounded = noCycleValues(m, n, scoring, true);
    t.deepEqual(bounded.values, plain.values, `${m}x${n}`);
    t.true(bounded.nodes < plain.nodes / 2, `${m}x${n}: ${bounded.nodes} search nodes with the bounds, ${plain.nodes} without`);
    const bounds = ForcedBounds.of(plain.graph);
    let closed = 0;
    for (let s = 0; s < plain.graph.states; s++) {
      const v = plain.values[s];
      if (bounds.lower(s) > v || bounds.upper(s) < v)
        return t.fail(`${m}x${n}: state ${s} is ${v}, outside [${bounds.lower(s)}, ${bounds.upper(s)}]`);
      if (bounds.lower(s) === bounds.upper(s)) closed++;
    }
    t.true(closed > plain.graph.states / 4, `${m}x${n}: ${closed} of ${plain.graph.states} states closed by the bounds`);
  }
});

test('a bound is given up after a history holding a position its forcing strategy may recreate', (t) => {
  const graph = new MoveGraph(new StateSpace(new SolveBoard(2, 3, 'tromp-taylor'), 'no-cycle'));
  const bounds = ForcedBounds.of(graph);
  const { base, rankOf } = graph.space;
  let lowerChecks = 0;
  let upperChecks = 0;
  const wrong: string[] = [];
  for (let s = 0; s < graph.states; s++) {
    if (!bounds.safeLower(s, [], 0) || !bounds.safeUpper(s, [], 0)) wrong.push(`state ${s}: a bound given up with no history`);
    for (let q = 0; q < graph.states; q += 7) {
      const plain = base[rankOf[q]];
      const inL = bounds.highestL[plain] > -128;
      if (bounds.highestW[s] > -128) {
        const threat = inL && bounds.highestL[plain] >= bounds.lower(s) && bounds.enteredL[plain] < bounds.enteredW[s];
        if (bounds.safeLower(s, [q], 1) === threat) wrong.push(`state ${s} after state ${q}: lower bound`);
        if (threat) lowerChecks++;
      }
      if (bounds.highestL[s] > -128) {
        const threat = inL && bounds.highestL[plain] >= bounds.highestL[s] && bounds.enteredL[plain] < bounds.enteredL[s];
        if (bounds.safeUpper(s, [q], 1) === threat) wrong.push(`state ${s} after state ${q}: upper bound`);
        if (threat) upperChecks++;
      }
    }
  }
  t.deepEqual(wrong.slice(0, 5), []);
  t.true(lowerChecks > 0 && upperChecks > 0, `${lowerChecks} and ${upperChecks} bounds given up`);
});
