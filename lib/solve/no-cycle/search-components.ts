/**
 * no-cycle: a move may not recreate a position (with the same player to move) met before in the
 * game. A stored value is that of the game starting at the state with no earlier history. The
 * positions are split into strongly connected components (lib/solve/moves/components.ts) and
 * valued in reverse topological order: a position in no cycle takes the best of its children; the
 * states of a component with a cycle are each searched (one per orbit of the board's symmetries)
 * over game histories inside the component (lib/solve/no-cycle/no-cycle-search.ts: alpha-beta, the
 * history checked against the path, cut by the results each player can force ignoring repetitions
 * and by the bounds of earlier searches the history lets stand), leaving it through states already
 * valued, which can never come back to it, so their values hold whatever the history.
 */

import { solveCycleDraw } from '../cycle-draw/cycle-draw.js';
import { ForcedBounds } from '../cycle-draw/forced-bounds.js';
import type { Components } from '../moves/components.js';
import type { RetrogradeStats } from '../moves/forward-check.js';
import { forEachMove, MoveGraph, NO_ENDING } from '../moves/move-graph.js';
import { GraphMoves, type SearchMoves } from '../moves/search-moves.js';
import { positionText } from '../rules/position-text.js';
import { AFTER_PASS, PLAIN, type PhaseProgress, type StateSpace } from '../rules/state-space.js';
import { BoardSymmetry } from '../rules/symmetry.js';
import { EXACT_SITUATIONS, HASHED_BITS } from './history-path.js';
import type { HistoryTable } from './history-table.js';
import { HistorySearch, NO_TWINS, TABLE_BYTES } from './no-cycle-search.js';
import { counted } from '../../shared/plural.js';

/** The search of a state under way: how many of its moves are done, and the best they gave. */
export interface UnderWay {
  readonly state: number;
  readonly moves: number;
  readonly best: number;
}

/** The search's figures a checkpoint carries over, from RetrogradeStats, and what it tells of the resume. */
export type CarriedStats = Pick<RetrogradeStats, 'searchNodes' | 'revised' | 'fromImages' | 'resumed' | 'tableResumed'>;

/**
 * Where the history search keeps the states valued as it goes, and takes them back from when it
 * starts: the checkpoint of lib/solve/files/search-checkpoint.ts.
 */
export interface SearchKeeper {
  /** Whether the next checkpoint is due. */
  readonly due: boolean;
  /** Takes back what was kept: the values of the states valued, marked done and known; how many, and the search under way. */
  restore(
    values: Int8Array,
    done: Uint8Array,
    known: Uint8Array,
    stats: CarriedStats,
    table?: HistoryTable,
  ): { valued: number; underWay: UnderWay };
  /** Keeps the states valued, the search under way and, with `table`, the table of earlier results. */
  save(values: Int8Array, done: Uint8Array, valued: number, stats: CarriedStats, underWay?: UnderWay, table?: HistoryTable): void;
  /** Keeps the search finished, if anything was kept before. */
  saveFinished(values: Int8Array, done: Uint8Array, valued: number, stats: CarriedStats): void;
}

/**
 * The most bits of a history filter in the empty board's tests (lib/solve/no-cycle/history-path.ts): exact
 * up to that many situations, hashed into that many above. The tests are one search from one
 * history, where a table of more, smaller entries does better than exact filters and 2,048 hashed
 * bits refuse too many results (1×11's tests: 11.8 s, against 23.3 s exact and 28.6 s hashed into
 * 2,048 bits; docs/solve.md). A database's searches start from every state and need them exact.
 */
const EMPTY_BOARD_FILTER_BITS = 2 ** 14;

/**
 * What cuts the no-cycle history search, and what else it is asked to do. Every cut is on by
 * default; the switches that turn one off (`bounded`, `symmetric` and `deepening` false,
 * `tableBytes` 0, `exactSituations` 0) are for checking: the tests find the same values without
 * the cut, and count the search it saves.
 */
export interface SearchAids {
  /** The forced bounds (lib/solve/cycle-draw/forced-bounds.ts; solveNoCycle finds them unless false). */
  readonly bounded?: boolean;
  /** Bytes for the table of earlier results (lib/solve/no-cycle/history-table.ts); 0 for none. */
  readonly tableBytes?: number;
  /** One search per orbit of the board's symmetries, its images taking its value. */
  readonly symmetric?: boolean;
  /**
   * Search only what the empty board's value and best first moves need (see valueEmptyBoard). The
   * other states of the components it searches keep what forward checking gave.
   */
  readonly emptyBoardOnly?: boolean;
  /** The empty board's value as the cycle-draw retrograde gives it: where emptyBoardOnly's tests start. */
  readonly guess?: number;
  /** Depth-limited searches with a growing limit (lib/solve/no-cycle/no-cycle-search.ts); else one search at full depth. */
  readonly deepening?: boolean;
  /** The most situations whose history filters are exact (lib/solve/no-cycle/history-path.ts); hashed above. */
  readonly exactSituations?: number;
  /** Where the states valued are kept as the search goes, and taken from when it starts (not with emptyBoardOnly). */
  readonly checkpoint?: SearchKeeper;
  /** Search nodes between two progress reports, where a checkpoint can be written within a state's search. */
  readonly nodesPerReport?: number;
}

/** What searchComponents values: the moves, their components and forced bounds, and the arrays it completes. */
export interface ComponentSearch extends Omit<SearchAids, 'bounded'> {
  readonly moves: SearchMoves;
  readonly parts: Components;
  /** The forced bounds; none: the search goes without them. */
  readonly bounds?: ForcedBounds;
  /** From forward checking, completed (and revised where a repetition matters) in place. */
  readonly values: Int8Array;
  readonly known: Uint8Array;
  readonly stats: RetrogradeStats;
  readonly progress?: PhaseProgress;
}

/** What solveNoCycle values: the components of the move graph, the arrays it completes, and the search's aids. */
export interface NoCycleSolve extends SearchAids {
  readonly parts: Components;
  /** From forward checking, completed (and revised where a repetition matters) in place. */
  readonly values: Int8Array;
  readonly known: Uint8Array;
  readonly stats: RetrogradeStats;
  readonly progress?: PhaseProgress;
}

/** no-cycle: every state's value with no earlier history, the moves in memory. */
export function solveNoCycle(graph: MoveGraph, { parts, values, known, stats, progress = () => {}, ...aids }: NoCycleSolve): HistorySearch {
  const guide = solveCycleDraw(graph);
  orderMoves(graph, guide);
  const bounds = (aids.bounded ?? true) ? ForcedBounds.of(graph) : undefined;
  const guess = guide[graph.space.stateOf(0, PLAIN)];
  return searchComponents({ moves: new GraphMoves(graph), parts, bounds, values, known, stats, progress, guess, ...aids });
}

/**
 * The components valued in reverse topological order, each state of one with a cycle by the
 * history search: the work of solveNoCycle once the moves are ordered and the bounds found, the
 * moves in memory or generated.
 */
export function searchComponents({
  moves,
  parts,
  bounds,
  values,
  known,
  stats,
  progress = () => {},
  tableBytes = TABLE_BYTES,
  symmetric = true,
  emptyBoardOnly = false,
  guess = 0,
  deepening = true,
  exactSituations = EXACT_SITUATIONS,
  checkpoint,
  nodesPerReport,
}: ComponentSearch): HistorySearch {
  const { space } = moves;
  const { states } = space;
  const { component, count, cyclic } = parts;
  const root = space.stateOf(0, PLAIN);
  // With emptyBoardOnly, valueEmptyBoard searches the empty board's component and its moves'.
  const rootPart = component[space.rankOfState(root)];
  const rootMoves = emptyBoardOnly ? movesOf(moves, root) : new Uint32Array(0);
  const movesPart = cyclicMovesPart(moves.space, parts, root, rootMoves);
  const byComponent = positionsByComponent(parts);
  // The empty board's tests: filters of EMPTY_BOARD_FILTER_BITS at most, exact or hashed.
  const exactUpTo = emptyBoardOnly ? Math.min(exactSituations, EMPTY_BOARD_FILTER_BITS) : exactSituations;
  const hashedBits = emptyBoardOnly ? EMPTY_BOARD_FILTER_BITS : HASHED_BITS;
  const search = new HistorySearch({ moves, values, component, bounds, tableBytes, deepening, exactSituations: exactUpTo, hashedBits });
  if (nodesPerReport !== undefined) search.nodesPerReport = nodesPerReport;
  stats.tableEntries = search.table?.entries ?? 0;
  stats.tableBytes = search.table?.bytes ?? 0;
  // A state and its images under the board's symmetries have the same value with no earlier
  // history: the symmetry maps the games from one onto the games from the other.
  const symmetry = new BoardSymmetry(space.board.m, space.board.n);
  // The states whose values are final: the first searched of an orbit gives the others theirs.
  const done = new Uint8Array(states);
  const imageSearched = (s: number): number => {
    const image = canonicalState(space, symmetry, s);
    return image !== s && done[image] ? image : -1;
  };
  const children = new Uint32Array(space.board.points + 1);
  const restored = checkpoint && !emptyBoardOnly ? checkpoint.restore(values, done, known, stats, search.table) : undefined;
  search.nodes = stats.searchNodes;
  let valued = restored?.valued ?? 0;
  const keep = (underWay?: UnderWay) => {
    stats.searchNodes = search.nodes;
    checkpoint!.save(values, done, valued, stats, underWay, search.table);
  };
  const names = emptyBoardOnly ? firstMoveNames(space, root) : new Map<number, string>();
  // The state valueFrom is searching, -1 between two: within it a checkpoint keeps the moves done
  // and the table, which holds what the move under way has proved so far; the progress names it.
  let searching = -1;
  const keepUnderWay = () => {
    if (searching >= 0 && checkpoint?.due) keep({ state: searching, ...search.rootDone });
  };
  search.onNodes = (nodes) => {
    keepUnderWay();
    const detail = searching >= 0 ? underWayText(space, search, searching) : emptyBoardText(search.proved, names.get(search.firstMove));
    progress(valued, states, `${counted(nodes, 'position')} searched${detail}`);
  };
  for (let k = 0; k < count; k++) {
    for (let i = byComponent.first[k]; i < byComponent.first[k + 1]; i++) {
      const r = byComponent.ranks[i];
      for (let s = space.base[r]; s < space.base[r + 1]; s++) {
        if (done[s]) continue;
        if (!cyclic[k]) {
          values[s] = bestOfChildren(moves, children, values, s);
          known[s] = done[s] = 1;
          valued++;
          continue;
        }
        // The search reads the values of other components only, so each is kept as it is found.
        // Left to valueEmptyBoard, not valued: the progress stays below the whole while its tests run.
        if (emptyBoardOnly && (k === rootPart || k === movesPart)) continue;
        progress(valued, states);
        const image = symmetric ? imageSearched(s) : -1;
        const resume = restored?.underWay.state === s ? restored.underWay : undefined;
        searching = image < 0 ? s : -1;
        const v = image >= 0 ? values[image] : search.valueFrom(s, resume, keepUnderWay);
        searching = -1;
        if (image >= 0) stats.fromImages++;
        if (known[s] && values[s] !== v) stats.revised++;
        values[s] = v;
        known[s] = done[s] = 1;
        valued++;
        if (checkpoint?.due) keep();
      }
    }
  }
  stats.searchNodes = search.nodes;
  if (checkpoint && !emptyBoardOnly) checkpoint.saveFinished(values, done, valued, stats);
  if (emptyBoardOnly) {
    if (movesPart >= 0) component[space.rankOfState(root)] = movesPart;
    const twins = symmetric ? twinMoves(space, symmetry, rootMoves) : NO_TWINS;
    valueEmptyBoard(search, values, root, rootMoves, guess, twins);
    stats.fromImages += twins.size;
  }
  stats.searchNodes = search.nodes;
  stats.tableHits = search.table?.hits ?? 0;
  return search;
}

/** The state valueFrom is searching, as text, and how far its search has got, for the progress. */
function underWayText(space: StateSpace, search: HistorySearch, s: number): string {
  const position = positionText(space.board, space.keyOfState(s));
  const status = space.statusOfState(s) === AFTER_PASS ? ' after a pass' : '';
  const limit = search.depthLimit < Infinity ? `, depth limit ${search.depthLimit}` : '';
  return `; ${position}${status} under way, move ${search.rootDone.moves + 1} of ${search.rootMoves}${limit}`;
}

/** What valueEmptyBoard has found so far, and the first move it is searching, for the progress. */
function emptyBoardText({ lower, upper }: { lower: number; upper: number }, move: string | undefined): string {
  if (lower > upper) return '';
  if (lower < upper) return `; the empty board's value from ${lower} to ${upper}${move ? `, first move ${move} being searched` : ''}`;
  return `; the empty board's value ${lower}, ${move ? `its move ${move}` : 'its moves'} being tested`;
}

/** The empty board's children, each with the name of the move to it (a stone's point, or pass). */
function firstMoveNames(space: StateSpace, root: number): Map<number, string> {
  const names = new Map<number, string>();
  forEachMove(space, space.keyOfState(root), PLAIN, -1, (p, child) => names.set(child, space.board.moveName(p)));
  return names;
}

/** State s's children, in the order the search tries them. */
function movesOf(moves: SearchMoves, s: number): Uint32Array {
  const children = new Uint32Array(moves.space.board.points + 1);
  return children.subarray(0, moves.list(s, children, 0));
}

/**
 * A component with a cycle, other than the empty board's, that one of its moves leads to; -1 if
 * none. valueEmptyBoard reads the values of the components the moves lead to besides, valued
 * before it: one of them that led on into this component would have been valued without it. So a
 * move into a third component stops the search (on every board of 16 points or fewer, the empty
 * board's moves lead into this one or back to its own).
 */
function cyclicMovesPart(space: StateSpace, { component, cyclic }: Components, root: number, rootMoves: Uint32Array): number {
  const own = component[space.rankOfState(root)];
  const parts = new Set<number>();
  for (const c of rootMoves) {
    const k = component[space.rankOfState(c)];
    if (k !== own) parts.add(k);
  }
  const found = [...parts].find((k) => cyclic[k]) ?? -1;
  if (found >= 0 && parts.size > 1)
    throw new Error(`the empty board's moves lead into ${parts.size} components, one with a cycle: --empty-board-only values one`);
  return found;
}

/**
 * The empty board's value with no earlier history, by null-window tests (HistorySearch.valueByTests)
 * that search its moves: its position has joined their component, so their values are not needed,
 * only the bounds each test asks of them. Each move the tests have not already placed is then
 * tested against that value, and its child given -value where it achieves it, 1 - value (a bound)
 * where it does not: a poor move's exact value can take a long proof. No stone move recreates the
 * empty board, so a move's value after the history {empty board} is its child's with no earlier
 * history.
 */
function valueEmptyBoard(
  search: HistorySearch,
  values: Int8Array,
  root: number,
  rootMoves: Uint32Array,
  guess: number,
  twinOf: ReadonlyMap<number, number>,
): void {
  const { value, lower, upper } = search.valueByTests(root, guess, rootMoves, twinOf);
  values[root] = value;
  rootMoves.forEach((c, i) => {
    const twin = twinOf.get(c);
    if (twin !== undefined) values[c] = values[twin];
    else values[c] = lower[i] >= value || (upper[i] >= value && search.moveAtLeast(root, c, value)) ? -value : 1 - value;
  });
}

/**
 * The empty board's moves that are images of an earlier move under a symmetry, each with that
 * move: the empty board and its history ({empty board}) are their own images, so the two moves have
 * the same value, and the tests search one.
 */
function twinMoves(space: StateSpace, symmetry: BoardSymmetry, rootMoves: Uint32Array): Map<number, number> {
  const first = new Map<number, number>();
  const twinOf = new Map<number, number>();
  for (const c of rootMoves) {
    const orbit = canonicalState(space, symmetry, c);
    const earlier = first.get(orbit);
    if (earlier === undefined) first.set(orbit, c);
    else twinOf.set(c, earlier);
  }
  return twinOf;
}

/** The state of s's canonical position (the least key of its orbit) with s's status. */
function canonicalState(space: StateSpace, symmetry: BoardSymmetry, s: number): number {
  return space.base[space.rank(symmetry.canonical(space.keyOfState(s)))] + space.statusOfState(s);
}

/** The positions in order of their components, each component's in increasing rank: where component k's start, and the ranks. */
function positionsByComponent({ component, count }: Components): { first: Uint32Array; ranks: Uint32Array } {
  const first = new Uint32Array(count + 1);
  for (let r = 0; r < component.length; r++) first[component[r] + 1]++;
  for (let k = 0; k < count; k++) first[k + 1] += first[k];
  const fill = first.slice(0, count);
  const ranks = new Uint32Array(component.length);
  for (let r = 0; r < component.length; r++) ranks[fill[component[r]]++] = r;
  return { first, ranks };
}

/**
 * Puts each state's moves best first by a guide (values in which a cycle scores 0): alpha-beta in
 * the history search then cuts most of the others.
 */
function orderMoves(graph: MoveGraph, guide: Int8Array): void {
  const { start, children } = graph;
  for (let s = 0; s < graph.states; s++) {
    const row = children.subarray(start[s], start[s + 1]);
    row.sort((a, b) => guide[a] - guide[b]);
  }
}

/** The best a state's moves give its player, from its children's values (and the game's end); `children` a buffer for its moves. */
function bestOfChildren(moves: SearchMoves, children: Uint32Array, values: Int8Array, s: number): number {
  const count = moves.list(s, children, 0);
  let best = moves.ending === NO_ENDING ? -128 : moves.ending;
  for (let i = 0; i < count; i++) best = Math.max(best, -values[children[i]]);
  return best;
}
