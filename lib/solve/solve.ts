/**
 * `gocount solve`: the value of every state of a small board under a cycle rule, by retrograde
 * analysis (forward checking in lib/solve/moves, then lib/solve/cycle-draw or lib/solve/no-cycle),
 * and the value and best first moves of the empty board; its phases and memory budget are here.
 * Rules: area scoring (Tromp–Taylor by default), komi 0, suicide illegal, a pass always legal, two
 * passes in a row end the game; values in points, from the view of the player to move.
 */

import { existsSync } from 'node:fs';
import { GocountError } from '../shared/errors.js';
import { formatBytes } from '../shared/units.js';
import { ForcedBounds } from './cycle-draw/forced-bounds.js';
import { minWork, noCycleAidsOnDisk, onDiskFloor, solveCycleDrawOnDisk } from './cycle-draw/cycle-draw-on-disk.js';
import { forEachMove, MoveGraph, NO_ENDING } from './moves/move-graph.js';
import { HistorySearch } from './no-cycle/no-cycle-search.js';
import { checkpointFile, SearchCheckpoint } from './files/search-checkpoint.js';
import { writeSolveDb } from './files/solve-db.js';
import { GeneratedMoves, GraphMoves } from './moves/search-moves.js';
import { cycleFigures, positionComponents } from './moves/components.js';
import { emptyStats, forwardCheck, RetrogradeStats } from './moves/forward-check.js';
import { searchComponents, solveNoCycle } from './no-cycle/search-components.js';
import { solveCycleDraw } from './cycle-draw/cycle-draw.js';
import { SolveBoard } from './rules/solve-board.js';
import { checkSolveOptions } from './solve-options.js';
import type { SolveOptions, SolvePhase, SolveProgress } from './option-types.js';
import { PhaseProgress, PLAIN, StateSpace } from './rules/state-space.js';
import type { CycleRule, Scoring } from './defaults.js';
import { BoardSymmetry, foldedSymmetry } from './rules/symmetry.js';

export interface MoveValue {
  /** A point as column letter and row number (a1 is the first point), or 'pass'. */
  readonly move: string;
  readonly value: number;
  /** Only the most the move can give: one less than the best (emptyBoardOnly, which proves no more). */
  readonly atMost?: true;
}

export interface SolveResult {
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  readonly scoring: Scoring;
  /** The empty board's value for the first player (Black), in points. */
  readonly value: number;
  /** The first moves that achieve it. */
  readonly bestMoves: string[];
  /** Every legal first move with its value for Black (under emptyBoardOnly, a bound on those short of the best: atMost). */
  readonly moves: MoveValue[];
  /** The legal positions kept: one per orbit when folded. */
  readonly positions: number;
  /** Every legal position, L(m, n), and the symmetries folded (1: none). */
  readonly legalPositions: number;
  readonly symmetries: number;
  readonly states: number;
  readonly edges: number;
  /** States by value, from -m·n to m·n; empty when only the empty board was valued. */
  readonly valueCounts: Record<string, number>;
  /** no-cycle: only the empty board and the states its moves lead to were valued. */
  readonly emptyBoardOnly: boolean;
  readonly retrograde: RetrogradeStats;
  readonly seconds: number;
}

/** The database of a board: its state space, moves and every state's value. */
export interface SolvedBoard {
  readonly space: StateSpace;
  /** The moves; absent when the states were on disk (lib/solve/cycle-draw/cycle-draw-on-disk.ts). */
  readonly graph?: MoveGraph;
  readonly edges: number;
  readonly values: Int8Array;
  readonly stats: RetrogradeStats;
  /** no-cycle: the history search, which values a state's moves (their values depend on the history). */
  readonly search?: HistorySearch;
  /** no-cycle: only the empty board and the states its moves lead to were valued; no database. */
  readonly emptyBoardOnly: boolean;
  /** no-cycle, every state valued: the checkpoint of the history search, to remove once the database is written. */
  readonly checkpoint?: SearchCheckpoint;
  /** Removes the files of moves kept on disk. */
  dispose(): void;
}

function solvedBoard(
  graph: MoveGraph,
  values: Int8Array,
  stats: RetrogradeStats,
  search?: HistorySearch,
  emptyBoardOnly = false,
  checkpoint?: SearchCheckpoint,
): SolvedBoard {
  const dispose = () => graph.dispose();
  return { space: graph.space, graph, edges: graph.edges, values, stats, search, emptyBoardOnly, checkpoint, dispose };
}

/** What the history search of a no-cycle solve is asked to do beside its table. */
interface SearchSettings {
  readonly emptyBoardOnly: boolean;
  readonly checkpoint?: SearchCheckpoint;
  readonly nodesPerReport?: number;
}

/** Progress callbacks per phase. */
const phases =
  (onProgress: SolveProgress) =>
  (name: SolvePhase): PhaseProgress =>
  (done, total, detail) =>
    onProgress(name, done, total, detail);

/**
 * What a solve with its states in memory holds whatever the budget, per state (statuses, row
 * starts, values, the threshold sets) and per position (keys and starts); with the moves in memory,
 * also the strongly connected components' arrays, per position. Below that, cycle-draw keeps its
 * states on disk (onDiskFloor).
 */
const STATE_BYTES = 27;
const POSITION_BYTES = 8;
const COMPONENT_BYTES = 26;
/** Bytes per move: the move and its reverse. */
const MOVE_BYTES = 8;
/**
 * no-cycle's history search besides: per state the forced bounds, the components' lists of states
 * and which states were searched; per position the path's index of situations. Its table of
 * earlier results takes what the budget leaves.
 */
const SEARCH_STATE_BYTES = 24;
const SEARCH_POSITION_BYTES = 8;

/** The rules a database was solved under, as its header records them. */
export interface SolvedRules {
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  readonly scoring: Scoring;
  /** The symmetries folded: 1 for none, else all of the board's. */
  readonly symmetries: number;
}

/** What answers for the positions of a board: its states, their values and, under no-cycle, the search that values a move. */
export type ValuedBoard = Pick<SolvedBoard, 'space' | 'values' | 'search'>;

/**
 * A board's database from stored values (lib/solve/files/solve-db.ts), nothing solved again. Only
 * no-cycle rebuilds the moves, for the history search (a move's value depends on the history it
 * leaves); under cycle-draw a move is worth its child's value.
 */
export function storedBoard({ m, n, rule, scoring, symmetries }: SolvedRules, values: Int8Array): ValuedBoard {
  const space = new StateSpace(new SolveBoard(m, n, scoring), rule, undefined, foldedSymmetry(m, n, symmetries));
  if (rule !== 'no-cycle') return { space, values };
  const graph = new MoveGraph(space);
  return {
    space,
    values,
    search: new HistorySearch({
      moves: new GraphMoves(graph),
      values,
      component: positionComponents(graph).component,
      bounds: ForcedBounds.of(graph),
    }),
  };
}

export function solveBoard(options: SolveOptions): SolvedBoard {
  const checked = checkSolveOptions(options);
  const { m, n, rule, scoring, memory, folder, emptyBoardOnly, checkpointSeconds, nodesPerReport, onProgress } = checked;
  if (rule === 'no-cycle' && !emptyBoardOnly) {
    const kept = checkpointFile(folder, m, n, rule, scoring);
    if (existsSync(kept)) checked.onResume(kept);
  }
  const phase = phases(onProgress);
  const board = new SolveBoard(m, n, scoring);
  const symmetry = rule === 'cycle-draw' && checked.symmetry ? new BoardSymmetry(m, n) : undefined;
  const space = new StateSpace(board, rule, phase('positions'), symmetry && symmetry.count > 1 ? symmetry : undefined);
  onProgress('positions', 1, 1);
  const checkpoint = rule === 'no-cycle' && !emptyBoardOnly ? SearchCheckpoint.in(folder, space, checkpointSeconds) : undefined;
  const settings = { emptyBoardOnly, checkpoint, nodesPerReport };
  if (memory < inMemoryFloor(space)) {
    return rule === 'cycle-draw'
      ? solvedOnDisk(space, memory, folder, onProgress)
      : solvedGenerated(space, memory, folder, onProgress, settings);
  }
  // no-cycle's history search reads the moves at random: when they outgrow memory, it generates
  // them as it goes instead of reading them from a file.
  const onSpill =
    rule === 'no-cycle'
      ? () => {
          throw new MovesBeyondMemory();
        }
      : undefined;
  const spill = { folder, ...movesInMemory(space, memory), onSpill };
  let graph: MoveGraph;
  try {
    graph = new MoveGraph(space, phase('moves'), spill);
  } catch (error) {
    if (error instanceof MovesBeyondMemory) return solvedGenerated(space, memory, folder, onProgress, settings);
    throw error;
  }
  onProgress('moves', 1, 1);
  try {
    return solveGraph(graph, rule, memory, onProgress, settings);
  } catch (error) {
    graph.dispose();
    throw error;
  }
}

/** Stops building a no-cycle solve's moves in memory once they outgrow it. */
class MovesBeyondMemory extends Error {}

/** The least memory for the states in memory: what they hold, and a block of one row of moves. */
function inMemoryFloor(space: StateSpace): number {
  return STATE_BYTES * space.states + POSITION_BYTES * space.positions + MOVE_BYTES * (space.board.points + 1);
}

/** A budget below a solve's least memory, refused before the work starts. */
function tooLarge(space: StateSpace, floor: number, memory: number): GocountError {
  const { m, n } = space.board;
  return new GocountError(
    `board ${m}x${n}, rule ${space.rule}: its ${space.states} states need at least ${formatBytes(floor)} in memory, more than --memory ${formatBytes(memory)}`,
    2,
    'GOCOUNT_TOO_LARGE',
  );
}

/**
 * How many moves fit in memory beside what the states hold (all of them, or they go to disk), and
 * how many a block read from disk holds; a budget too small for one row is refused.
 */
function movesInMemory(space: StateSpace, memory: number): { memoryItems: number; blockItems: number } {
  if (memory < inMemoryFloor(space)) throw tooLarge(space, inMemoryFloor(space), memory);
  const fixed = STATE_BYTES * space.states + POSITION_BYTES * space.positions;
  const blockItems = Math.floor((memory - fixed) / MOVE_BYTES);
  return { memoryItems: Math.max(0, blockItems - Math.ceil((COMPONENT_BYTES * space.positions) / MOVE_BYTES)), blockItems };
}

/** cycle-draw with the states on disk (lib/solve/cycle-draw/cycle-draw-on-disk.ts): the budget is below what they hold in memory. */
function solvedOnDisk(space: StateSpace, memory: number, folder: string, onProgress: SolveProgress): SolvedBoard {
  if (memory < onDiskFloor(space)) throw tooLarge(space, onDiskFloor(space), memory);
  const phase = phases(onProgress);
  const solved = solveCycleDrawOnDisk(space, memory, folder, { moves: phase('moves'), retrograde: phase('retrograde') });
  onProgress('retrograde', 1, 1);
  const stats = { ...emptyStats(0), movesOnDisk: true, statesOnDisk: true, rounds: solved.rounds, diskBytes: solved.bytesOnDisk };
  return { space, edges: solved.edges, values: solved.values, stats, emptyBoardOnly: false, dispose: () => {} };
}

/**
 * What no-cycle holds with its moves generated (lib/solve/moves/search-moves.ts): per state the guide,
 * the forced bounds (entry orders and highest thresholds), the values and the search's marks; per
 * position the keys and first states, the components' arrays, the positions by component and the
 * path's index of situations. The threshold games and then the table of earlier results take the rest.
 */
const GENERATED_STATE_BYTES = 15;
const GENERATED_POSITION_BYTES = POSITION_BYTES + COMPONENT_BYTES + 8 + SEARCH_POSITION_BYTES;

function generatedFloor(space: StateSpace): number {
  return GENERATED_STATE_BYTES * space.states + GENERATED_POSITION_BYTES * space.positions + minWork(space.states);
}

/**
 * no-cycle with its moves not in memory: the guide and the forced bounds from threshold games
 * with the states on disk, the components and the history search with each state's moves
 * generated from its position's key.
 */
function solvedGenerated(
  space: StateSpace,
  memory: number,
  folder: string,
  onProgress: SolveProgress,
  settings: SearchSettings,
): SolvedBoard {
  if (memory < generatedFloor(space)) throw tooLarge(space, generatedFloor(space), memory);
  const phase = phases(onProgress);
  const held = GENERATED_STATE_BYTES * space.states + GENERATED_POSITION_BYTES * space.positions;
  const aids = noCycleAidsOnDisk(space, memory - held, folder, { moves: phase('moves'), retrograde: phase('retrograde') });
  onProgress('retrograde', 1, 1);
  const moves = new GeneratedMoves(space, aids.values);
  const parts = positionComponents(moves);
  const stats = { ...emptyStats(0), movesOnDisk: true, statesOnDisk: true, rounds: aids.rounds, diskBytes: aids.bytesOnDisk };
  cycleFigures(space, parts, stats);
  const values = new Int8Array(space.states);
  const known = new Uint8Array(space.states);
  const search = searchComponents({
    moves,
    parts,
    bounds: aids.bounds,
    values,
    known,
    stats,
    progress: phase('history search'),
    tableBytes: memory - held - minWork(space.states),
    guess: aids.values[space.stateOf(0, PLAIN)],
    ...settings,
  });
  onProgress('history search', 1, 1);
  const { emptyBoardOnly, checkpoint } = settings;
  return { space, edges: aids.edges, values, stats, search, emptyBoardOnly, checkpoint, dispose: () => {} };
}

/** The bytes a no-cycle solve with its moves in memory leaves of the budget for its table of earlier results. */
function tableBudget(graph: MoveGraph, memory: number): number {
  const { states, positions } = graph.space;
  const perState = STATE_BYTES + SEARCH_STATE_BYTES;
  const perPosition = POSITION_BYTES + COMPONENT_BYTES + SEARCH_POSITION_BYTES;
  return Math.max(0, memory - perState * states - perPosition * positions - MOVE_BYTES * graph.edges);
}

function solveGraph(graph: MoveGraph, rule: CycleRule, memory: number, onProgress: SolveProgress, settings: SearchSettings): SolvedBoard {
  const phase = phases(onProgress);
  const states = graph.states;
  const values = new Int8Array(states);
  const known = new Uint8Array(states);
  const stats = emptyStats(forwardCheck(graph, values, known, phase('forward checking')));
  onProgress('forward checking', 1, 1);
  for (let s = 0; s < states; s++) stats[known[s] ? 'stable' : 'unstable']++;
  // The components need the moves in memory; with them on disk, cycle-draw goes without the figures.
  stats.movesOnDisk = !graph.rows.items;
  const parts = stats.movesOnDisk && rule === 'cycle-draw' ? undefined : positionComponents(graph);
  if (parts) cycleFigures(graph.space, parts, stats);
  if (rule === 'cycle-draw') {
    const exact = solveCycleDraw(graph, phase('retrograde'));
    onProgress('retrograde', 1, 1);
    for (let s = 0; s < states; s++) {
      // Forward checking values a state from its children alone: the draw rule cannot change it.
      if (known[s] && exact[s] !== values[s]) throw new Error(`state ${s}: forward checking gave ${values[s]}, the retrograde ${exact[s]}`);
    }
    values.set(exact);
    return solvedBoard(graph, values, stats);
  }
  const aids = { tableBytes: tableBudget(graph, memory), ...settings };
  const search = solveNoCycle(graph, { parts: parts!, values, known, stats, progress: phase('history search'), ...aids });
  onProgress('history search', 1, 1);
  return solvedBoard(graph, values, stats, search, settings.emptyBoardOnly, settings.checkpoint);
}

/**
 * Solves a board: the empty board's value and first moves, with the figures; with `db`, also
 * writes the database. A no-cycle solve resumes from the checkpoint it finds in its scratch folder
 * and removes it once done.
 */
export function solve(options: SolveOptions): SolveResult {
  const started = performance.now();
  const solved = solveBoard(options);
  try {
    if (options.db !== undefined) writeSolveDb(options.db, solved);
    const result = solveResult(solved, (performance.now() - started) / 1000);
    solved.checkpoint?.remove();
    return result;
  } finally {
    solved.dispose();
  }
}

/** What solve reports of a solved board: the empty board's value and moves, and the figures. */
export function solveResult(solved: SolvedBoard, seconds: number): SolveResult {
  const { space, values } = solved;
  const { m, n } = space.board;
  const root = space.stateOf(0, PLAIN);
  const moves = solved.emptyBoardOnly ? testedFirstMoves(solved) : firstMoves(solved, 0, PLAIN);
  const valueCounts: Record<string, number> = {};
  if (!solved.emptyBoardOnly) {
    for (let v = -space.board.points; v <= space.board.points; v++) valueCounts[v] = 0;
    for (let s = 0; s < space.states; s++) valueCounts[values[s]]++;
  }
  return {
    m,
    n,
    rule: space.rule,
    scoring: space.board.scoring,
    value: values[root],
    bestMoves: moves.filter((move) => move.value === values[root]).map((move) => move.move),
    moves,
    positions: space.positions,
    legalPositions: space.legalPositions,
    symmetries: space.symmetry?.count ?? 1,
    states: space.states,
    edges: solved.edges,
    valueCounts,
    emptyBoardOnly: solved.emptyBoardOnly,
    retrograde: solved.stats,
    seconds,
  };
}

/** The empty board's moves as emptyBoardOnly leaves them: the best valued, the others bounded by one less. */
function testedFirstMoves({ space, values }: ValuedBoard): MoveValue[] {
  const best = values[space.stateOf(0, PLAIN)];
  return namedMoves(space, 0, PLAIN).moves.map(({ move, child }) =>
    -values[child] === best ? { move, value: best } : { move, value: best - 1, atMost: true },
  );
}

/** The moves from a position, named, with the state each leads to; `ending`: the score a pass ends the game with, or NO_ENDING. */
function namedMoves(space: StateSpace, key: number, status: number, ko = -1): { moves: { move: string; child: number }[]; ending: number } {
  const moves: { move: string; child: number }[] = [];
  const ending = forEachMove(space, key, status, ko, (p, child) => moves.push({ move: space.board.moveName(p), child }));
  return { moves, ending };
}

/**
 * The moves from a position (key, the player to move's stones first; canonical or not) with a
 * status, named, with their values; moves the rule forbids are left out.
 */
export function firstMoves(solved: ValuedBoard, key: number, status: number, ko = -1): MoveValue[] {
  const { space } = solved;
  const { moves, ending } = namedMoves(space, key, status, ko);
  // cycle-draw: a move is worth its child's value. no-cycle (never folded, so the position is a
  // state's own): the history search values the moves.
  const state = space.stateOf(key, status, ko);
  const result = moves.map(({ move, child }) => ({
    move,
    value: (solved.search ? solved.search.moveValue(state, child) : -solved.values[child]) + 0,
  }));
  if (ending !== NO_ENDING) result.push({ move: 'pass', value: ending });
  return result;
}
