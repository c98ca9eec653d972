/**
 * `gocount solve`: the value of every state of a small board under a cycle rule, by retrograde
 * analysis (lib/solve/retrograde.ts), and the value and best first moves of the empty board.
 * Rules: Tromp–Taylor area scoring, komi 0, suicide illegal, a pass always legal, two passes in a
 * row end the game; values in points, from the view of the player to move.
 */

import { InvalidOptionError } from '../errors.js';
import { MoveGraph } from './move-graph.js';
import {
  cycleFigures,
  forwardCheck,
  HistorySearch,
  positionComponents,
  RetrogradeStats,
  solveCycleDraw,
  solveNoCycle,
} from './retrograde.js';
import { SolveBoard } from './solve-board.js';
import { CYCLE_RULES, CycleRule, PLAIN, StateSpace } from './state-space.js';

export interface SolveOptions {
  readonly m: number;
  readonly n: number;
  /** 'no-cycle' (situational superko, the default) or 'cycle-draw' (simple ko; a longer cycle is a draw). */
  readonly rule?: CycleRule;
  /** Called as each phase advances, and with done = total when it ends. */
  readonly onProgress?: SolveProgress;
}

export type SolvePhase = 'positions' | 'moves' | 'forward checking' | 'retrograde' | 'history search';
export type SolveProgress = (phase: SolvePhase, done: number, total: number) => void;

export interface MoveValue {
  /** A point as column letter and row number (a1 is the first point), or 'pass'. */
  readonly move: string;
  readonly value: number;
}

export interface SolveResult {
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  /** The empty board's value for the first player (Black), in points. */
  readonly value: number;
  /** The first moves that achieve it. */
  readonly bestMoves: string[];
  /** Every legal first move with its value for Black. */
  readonly moves: MoveValue[];
  readonly positions: number;
  readonly states: number;
  readonly edges: number;
  /** States by value, from -m·n to m·n. */
  readonly valueCounts: Record<string, number>;
  readonly retrograde: RetrogradeStats;
  readonly seconds: number;
}

/** The database of a board: its state space, moves and every state's value. */
export interface SolvedBoard {
  readonly space: StateSpace;
  readonly graph: MoveGraph;
  readonly values: Int8Array;
  readonly stats: RetrogradeStats;
  /** The value of each move of state s (NaN where the rule forbids it), in the order of the graph's rows. */
  moveValues(s: number): number[];
}

/** A board's database from stored values (lib/solve/solve-db.ts): the moves rebuilt, nothing solved again. */
export function storedBoard(m: number, n: number, rule: CycleRule, values: Int8Array): SolvedBoard {
  const space = new StateSpace(new SolveBoard(m, n), rule);
  const graph = new MoveGraph(space);
  const stats = emptyStats(0);
  if (rule === 'cycle-draw') return { space, graph, values, stats, moveValues: (s) => childValues(graph, values, s) };
  const search = new HistorySearch(graph, values, positionComponents(graph).component);
  return { space, graph, values, stats, moveValues: (s) => search.moveValues(s) };
}

function emptyStats(epochs: number): RetrogradeStats {
  return {
    epochs,
    stable: 0,
    unstable: 0,
    cycleComponents: 0,
    cyclePositions: 0,
    cycleStates: 0,
    largestComponent: 0,
    searchNodes: 0,
    revised: 0,
  };
}

function childValues(graph: MoveGraph, values: Int8Array, s: number): number[] {
  return Array.from(graph.children.subarray(graph.start[s], graph.start[s + 1]), (c) => -values[c]);
}

export function solveBoard(m: number, n: number, rule: CycleRule = 'no-cycle', onProgress: SolveProgress = () => {}): SolvedBoard {
  if (!CYCLE_RULES.includes(rule)) throw new InvalidOptionError('rule', rule, `must be one of ${CYCLE_RULES.join(', ')}`);
  const phase = (name: SolvePhase) => (done: number, total: number) => onProgress(name, done, total);
  const board = new SolveBoard(m, n);
  const space = new StateSpace(board, rule, phase('positions'));
  onProgress('positions', 1, 1);
  const graph = new MoveGraph(space, phase('moves'));
  onProgress('moves', 1, 1);
  const states = space.states;
  const values = new Int8Array(states);
  const known = new Uint8Array(states);
  const stats = emptyStats(forwardCheck(graph, values, known, phase('forward checking')));
  onProgress('forward checking', 1, 1);
  for (let s = 0; s < states; s++) stats[known[s] ? 'stable' : 'unstable']++;
  const parts = positionComponents(graph);
  cycleFigures(graph, parts, stats);
  let moveValues: (s: number) => number[];
  if (rule === 'cycle-draw') {
    const exact = solveCycleDraw(graph, phase('retrograde'));
    onProgress('retrograde', 1, 1);
    for (let s = 0; s < states; s++) {
      // Forward checking values a state from its children alone: the draw rule cannot change it.
      if (known[s] && exact[s] !== values[s]) throw new Error(`state ${s}: forward checking gave ${values[s]}, the retrograde ${exact[s]}`);
    }
    values.set(exact);
    moveValues = (s) => childValues(graph, values, s);
  } else {
    const search = solveNoCycle(graph, parts, values, known, stats, phase('history search'));
    onProgress('history search', 1, 1);
    moveValues = (s) => search.moveValues(s);
  }
  return { space, graph, values, stats, moveValues };
}

export function solve(options: SolveOptions): SolveResult {
  const started = performance.now();
  const solved = solveBoard(options.m, options.n, options.rule ?? 'no-cycle', options.onProgress);
  return solveResult(solved, (performance.now() - started) / 1000);
}

/** What solve reports of a solved board: the empty board's value and moves, and the figures. */
export function solveResult(solved: SolvedBoard, seconds: number): SolveResult {
  const { space, graph, values } = solved;
  const { m, n } = space.board;
  const root = space.stateOf(0, PLAIN);
  const moves = firstMoves(solved, root);
  const valueCounts: Record<string, number> = {};
  for (let v = -space.board.points; v <= space.board.points; v++) valueCounts[v] = 0;
  for (let s = 0; s < space.states; s++) valueCounts[values[s]]++;
  return {
    m,
    n,
    rule: space.rule,
    value: values[root],
    bestMoves: moves.filter((move) => move.value === values[root]).map((move) => move.move),
    moves,
    positions: space.positions,
    states: space.states,
    edges: graph.edges,
    valueCounts,
    retrograde: solved.stats,
    seconds,
  };
}

/** The moves of state s, named, with their values (moves the rule forbids left out). */
export function firstMoves(solved: SolvedBoard, s: number): MoveValue[] {
  const { space, graph } = solved;
  const { board } = space;
  const key = space.keyOfState(s);
  const names = new Map<number, string>();
  for (let p = board.points - 1; p >= 0; p--) {
    const after = board.play(key & 0xffff, key >>> 16, p);
    if (after < 0) continue;
    names.set(space.stateAfterMove(after, board.koPoint), board.pointName(p));
  }
  const values = solved.moveValues(s);
  const result: MoveValue[] = [];
  for (let e = graph.start[s], i = 0; e < graph.start[s + 1]; e++, i++) {
    if (Number.isNaN(values[i])) continue;
    const child = graph.children[e];
    result.push({ move: graph.passChild[s] === child ? 'pass' : (names.get(child) ?? '?'), value: values[i] });
  }
  if (graph.passChild[s] < 0) result.push({ move: 'pass', value: graph.ending[s] });
  return result;
}
