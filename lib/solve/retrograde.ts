/**
 * Retrograde analysis over a MoveGraph: the value of every state, from the view of the player to
 * move, in points.
 *
 * Forward checking (the paper's epochs): a state whose children all have values takes the best
 * of them, sweep after sweep, until a sweep changes nothing. What is left, the unstable states, can
 * reach a cycle; each rule resolves them as it demands:
 * - cycle-draw: a cycle ends the game as a draw. The values are those of the game in which play
 *   that never ends scores 0, found by the counting retrograde of threshold games (for each t from
 *   the board's size down to 1, the states from which the player to move can force t points or
 *   more, and those where the opponent can force it), one pass over the reversed moves. A player
 *   forcing a result never repeats a state, so the first repetition ending the game changes nothing.
 * - no-cycle: a move may not recreate a position (with the same player to move) met before in the
 *   game. A stored value is that of the game starting at the state with no earlier history. The
 *   positions are split into strongly connected components (Tarjan) and valued in reverse
 *   topological order: a position in no cycle takes the best of its children; the states of a
 *   component with a cycle are each searched (one per orbit of the board's symmetries) over game
 *   histories inside the component
 *   (lib/solve/no-cycle-search.ts: alpha-beta, the history checked against the path, cut by the
 *   results each player can force ignoring repetitions and by the bounds of earlier searches the
 *   history lets stand), leaving it through states already valued, which can never come back to it,
 *   so their values hold whatever the history.
 */

import { forEachMove, MoveGraph, NO_ENDING } from './move-graph.js';
import { ForcedBounds } from './forced-bounds.js';
import { HistorySearch, NO_TWINS, TABLE_BYTES } from './no-cycle-search.js';
import { EXACT_SITUATIONS, HASHED_BITS } from './history-path.js';
import { GraphMoves, type PositionSuccessors, type SearchMoves } from './search-moves.js';
import { positionText } from './position-text.js';
import { AFTER_PASS, PLAIN, type PhaseProgress, type StateSpace } from './state-space.js';
import type { SearchCheckpoint, UnderWay } from './search-checkpoint.js';
import { BoardSymmetry } from './symmetry.js';
import { spreadByQueue, spreadByRounds, ThresholdSets } from './threshold-sets.js';
import { counted } from '../shared/plural.js';

export interface RetrogradeStats {
  /** Forward-checking sweeps, the last one changing nothing. */
  epochs: number;
  /** States valued by forward checking. */
  stable: number;
  unstable: number;
  /** Components of positions with a cycle, their positions and states, and the largest. */
  cycleComponents: number;
  cyclePositions: number;
  cycleStates: number;
  largestComponent: number;
  /** no-cycle: positions searched over histories; states whose forward-checked value the history changed. */
  searchNodes: number;
  revised: number;
  /** no-cycle: search nodes given a bound by an earlier result the history let stand. */
  tableHits: number;
  /**
   * no-cycle: the entries of the table of earlier results and the bytes it takes, what --memory
   * left it (0 without one). Too few make the search far longer (docs/solve.md, "Memory").
   */
  tableEntries: number;
  tableBytes: number;
  /** no-cycle: states of components with a cycle valued by an image under a symmetry, not searched. */
  fromImages: number;
  /**
   * no-cycle: states valued before the solve resumed from a checkpoint (0 when it did not), and
   * whether it took the table of earlier results back ('taken back', else why not).
   */
  resumed: number;
  tableResumed: string;
  /** The moves were kept on disk (beyond --memory): cycle-draw then finds no components. */
  movesOnDisk: boolean;
  /**
   * cycle-draw: the states were kept on disk too (lib/solve/cycle-draw-on-disk.ts), without forward
   * checking; `rounds` counts the threshold games' rounds, over every threshold.
   */
  statesOnDisk: boolean;
  rounds: number;
  /** With the states on disk, the most bytes their working files held at once. */
  diskBytes: number;
}

/** Values of every state; unknown where known[s] is 0. Returns the sweeps made. */
export function forwardCheck(graph: MoveGraph, values: Int8Array, known: Uint8Array, progress: PhaseProgress = () => {}): number {
  const { start, ending } = graph;
  let epochs = 0;
  for (let changed = true; changed;) {
    changed = false;
    progress(epochs++, epochs);
    for (const { first, last, offset, items } of graph.rows.blocks()) {
      for (let s = first; s < last; s++) {
        if (known[s]) continue;
        let best = ending[s] === NO_ENDING ? -128 : ending[s];
        let all = true;
        for (let e = start[s] - offset; e < start[s + 1] - offset; e++) {
          const c = items[e];
          if (!known[c]) {
            all = false;
            break;
          }
          if (-values[c] > best) best = -values[c];
        }
        if (all) {
          values[s] = best;
          known[s] = 1;
          changed = true;
        }
      }
    }
  }
  return epochs;
}

/**
 * cycle-draw: every state's value, never-ending play scoring 0: t where the player to move can
 * force t or more at best, -t where the opponent can, for t from the board's size down to 1 (the
 * threshold games of lib/solve/threshold-sets.ts); 0 where neither can force a point.
 */
export function solveCycleDraw(graph: MoveGraph, progress: PhaseProgress = () => {}): Int8Array {
  const points = graph.space.board.points;
  const rows = graph.parents();
  const sets = ThresholdSets.of(graph);
  const spread = rows.items ? spreadByQueue(rows, rows.items, sets, false) : spreadByRounds(rows, sets);
  for (let t = points; t >= 1; t--) {
    progress(points - t, points);
    spread(t);
  }
  const values = new Int8Array(graph.states);
  for (let s = 0; s < values.length; s++) values[s] = sets.value(s);
  return values;
}

/**
 * Each position's component, numbered in the order found: reverse topological, every component
 * after those it reaches. `cyclic` marks components with a cycle (more than one position, or a
 * move from a position to itself).
 */
export interface Components {
  readonly component: Int32Array;
  readonly count: number;
  readonly cyclic: Uint8Array;
  readonly sizes: Uint32Array;
}

/**
 * Strongly connected components of the positions (states of one position merged), by Tarjan's
 * algorithm without recursion, the moves in memory or generated.
 */
export function positionComponents(moves: MoveGraph | PositionSuccessors): Components {
  const successors = moves instanceof MoveGraph ? new GraphMoves(moves) : moves;
  const { positions } = successors;
  const index = new Int32Array(positions).fill(-1);
  const low = new Int32Array(positions);
  const onStack = new Uint8Array(positions);
  const stack = new Int32Array(positions);
  const component = new Int32Array(positions).fill(-1);
  const callRank = new Int32Array(positions);
  const callEdge = new Uint32Array(positions);
  const selfLoop = new Uint8Array(positions);
  const cyclicList: number[] = [];
  const sizeList: number[] = [];
  let next = 0;
  let top = 0;
  let count = 0;
  for (let root = 0; root < positions; root++) {
    if (index[root] >= 0) continue;
    let depth = 0;
    callRank[0] = root;
    callEdge[0] = successors.begin(root);
    index[root] = low[root] = next++;
    stack[top++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const r = callRank[depth];
      const c = successors.next(r, callEdge, depth);
      if (c >= 0) {
        if (c === r) {
          selfLoop[r] = 1;
          continue;
        }
        if (index[c] < 0) {
          index[c] = low[c] = next++;
          stack[top++] = c;
          onStack[c] = 1;
          depth++;
          callRank[depth] = c;
          callEdge[depth] = successors.begin(c);
        } else if (onStack[c] && index[c] < low[r]) low[r] = index[c];
        continue;
      }
      if (low[r] === index[r]) {
        let size = 0;
        let looped = false;
        for (;;) {
          const w = stack[--top];
          onStack[w] = 0;
          component[w] = count;
          size++;
          if (selfLoop[w]) looped = true;
          if (w === r) break;
        }
        cyclicList.push(size > 1 || looped ? 1 : 0);
        sizeList.push(size);
        count++;
      }
      depth--;
      if (depth >= 0) {
        const parent = callRank[depth];
        if (low[r] < low[parent]) low[parent] = low[r];
      }
    }
  }
  return { component, count, cyclic: Uint8Array.from(cyclicList), sizes: Uint32Array.from(sizeList) };
}

/** The cycle figures of the stats: components of positions with a cycle, their positions and states. */
export function cycleFigures(space: StateSpace, parts: Components, stats: RetrogradeStats): void {
  for (let k = 0; k < parts.count; k++) {
    if (!parts.cyclic[k]) continue;
    stats.cycleComponents++;
    stats.cyclePositions += parts.sizes[k];
    if (parts.sizes[k] > stats.largestComponent) stats.largestComponent = parts.sizes[k];
  }
  for (let r = 0; r < space.positions; r++) {
    if (parts.cyclic[parts.component[r]]) stats.cycleStates += space.base[r + 1] - space.base[r];
  }
}

/**
 * The most bits of a history filter in the empty board's tests (lib/solve/history-path.ts): exact
 * up to that many situations, hashed into that many above. The tests are one search from one
 * history, where a table of more, smaller entries does better than exact filters and 2,048 hashed
 * bits refuse too many results (1×11's tests: 11.8 s, against 23.3 s exact and 28.6 s hashed into
 * 2,048 bits; docs/solve.md). A database's searches start from every state and need them exact.
 */
const EMPTY_BOARD_FILTER_BITS = 2 ** 14;

/** What cuts the no-cycle history search (both by default; switched off to check them). */
export interface SearchAids {
  /** The forced bounds (lib/solve/forced-bounds.ts). */
  readonly bounded?: boolean;
  /** Bytes for the table of earlier results (lib/solve/history-table.ts); 0 for none. */
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
  /** Depth-limited searches with a growing limit (lib/solve/no-cycle-search.ts); else one search at full depth. */
  readonly deepening?: boolean;
  /** The most situations whose history filters are exact (lib/solve/history-path.ts); hashed above. */
  readonly exactSituations?: number;
  /** Where the states valued are kept as the search goes, and taken from when it starts (not with emptyBoardOnly). */
  readonly checkpoint?: SearchCheckpoint;
  /** Search nodes between two progress reports, where a checkpoint can be written within a state's search. */
  readonly nodesPerReport?: number;
}

/**
 * no-cycle: every state's value with no earlier history. `values` and `known` come from forward
 * checking and are completed (and revised where a repetition matters) in place.
 */
export function solveNoCycle(
  graph: MoveGraph,
  parts: Components,
  values: Int8Array,
  known: Uint8Array,
  stats: RetrogradeStats,
  progress: PhaseProgress = () => {},
  aids: SearchAids = {},
): HistorySearch {
  const guide = solveCycleDraw(graph);
  orderMoves(graph, guide);
  const bounds = (aids.bounded ?? true) ? ForcedBounds.of(graph) : undefined;
  const guess = guide[graph.space.stateOf(0, PLAIN)];
  return searchComponents(new GraphMoves(graph), parts, bounds, values, known, stats, progress, { guess, ...aids });
}

/**
 * The components valued in reverse topological order, each state of one with a cycle by the
 * history search: the work of solveNoCycle once the moves are ordered and the bounds found, the
 * moves in memory or generated.
 */
export function searchComponents(
  moves: SearchMoves,
  parts: Components,
  bounds: ForcedBounds | undefined,
  values: Int8Array,
  known: Uint8Array,
  stats: RetrogradeStats,
  progress: PhaseProgress,
  {
    tableBytes = TABLE_BYTES,
    symmetric = true,
    emptyBoardOnly = false,
    guess = 0,
    deepening = true,
    exactSituations = EXACT_SITUATIONS,
    checkpoint,
    nodesPerReport,
  }: SearchAids,
): HistorySearch {
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
  const search = new HistorySearch(moves, values, component, bounds, tableBytes, deepening, exactUpTo, hashedBits);
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
