/**
 * The no-cycle value of a state of a component with a cycle, over the game histories that stay in
 * the component: a position is a situation (rank, parity of the moves since the start), the player
 * to move alternating. A pass is always legal; any other move may not recreate a situation of the
 * history. Alpha-beta, cut by the forced bounds wherever the history leaves them sound
 * (lib/solve/cycle-draw/forced-bounds.ts), and by the results of earlier searches wherever the history lets
 * them stand (lib/solve/no-cycle/history-table.ts), in depth-limited searches with a growing limit.
 *
 * A depth-limited search proves a bound for one player, the prover: a node at the limit that its
 * bounds do not settle counts as the bound least favourable to the prover (its lower bound if the
 * prover is to move there, else its upper bound). Every value it finds is then a true bound on the
 * prover's side: a lower bound where the prover is to move, an upper bound where the opponent is.
 * A node whose search the limit cut keeps only that side in the table; one it did not cut keeps
 * both, as at full depth.
 */

import type { ForcedBounds } from '../cycle-draw/forced-bounds.js';
import { EXACT_SITUATIONS, grown, HASHED_BITS, HistoryPath, SituationBits } from './history-path.js';
import { Dependencies, HistoryTable, MOST_ENTRIES_PER_STATE } from './history-table.js';
import type { StateSpace } from '../rules/state-space.js';
import { NO_ENDING } from '../moves/move-graph.js';
import type { SearchMoves } from '../moves/search-moves.js';

/** The table's size where no budget gives it one (the tests): about 256 MB. */
export const TABLE_BYTES = 256 * 2 ** 20;

/**
 * Moves added to the depth limit from one round of depth-limited searches to the next. On the first
 * 130 states of 1×9: 2 took 9.7·10^6 search nodes, 1 took 13.6·10^6; a limit growing by half or
 * doubling each round had not reached them in 200 s.
 */
const DEPTH_STEP = 2;
/** deepen: the player whose move is searched proves their bound at every second limit only. */
const OTHER_PROVER_EVERY = 2;
/**
 * Nodes with at least this many moves left before the depth limit look for a child whose stored
 * result cuts them before any child is searched (cuttingChild). 1×11 (`--memory 8G`) at 7: 10,705,266
 * search nodes against 15,872,491 without; at 5 10,458,115 but slower, the scans costing time; at 9
 * 11,910,949 (docs/solve.md, "What is stored", item 7).
 */
const CUTTING_CHILD_DEPTH = 7;

/** The dependency records of the node at depth d: of its lower bound, its upper bound, all its moves, its best move. */
const LOWER = 0;
const UPPER = 1;
const MOVES = 2;
const BEST = 3;
const record = (d: number, kind: number): number => 4 * d + kind;

/** No move has given a node its best yet: the game's end by a pass, or nothing. */
const NO_MOVE = 255;

/** The search's steps: enter a node, try its next move, return its result to its parent. */
const ENTER = 0;
const NEXT = 1;
const RETURN = 2;

/** Per depth of the path: the node being searched and how far its moves have got. */
class Frames {
  state = new Int32Array(64);
  parity = new Uint8Array(64);
  alpha = new Int16Array(64);
  beta = new Int16Array(64);
  /** The window's low end after the bounds, before the moves. */
  alphaIn = new Int16Array(64);
  best = new Int16Array(64);
  lower = new Int16Array(64);
  upper = new Int16Array(64);
  /** The node's children, `width` a depth from width * d, in the order to try them; how many; the pass's. */
  children: Uint32Array;
  count = new Uint8Array(64);
  passChild = new Int32Array(64);
  /** The next move to try, and the move being searched: its situation and whether it is a pass. */
  edge = new Uint32Array(64);
  situation = new Int32Array(64);
  pass = new Uint8Array(64);
  /** Whether the depth limit cut the search below the node: then only the prover's side of its result holds. */
  truncated = new Uint8Array(64);
  /** The place, among the moves as listed, of the one moved to the front (0: none moved), and of the best so far (NO_MOVE: none). */
  movedFirst = new Uint8Array(64);
  bestListed = new Uint8Array(64);

  /** The most moves a state has: one a point, and the pass. */
  constructor(readonly width: number) {
    this.children = new Uint32Array(64 * width);
  }

  ensure(d: number): void {
    if (d < this.state.length) return;
    const length = Math.max(2 * this.state.length, d + 1);
    this.state = grown(this.state, length);
    this.parity = grown(this.parity, length);
    this.alpha = grown(this.alpha, length);
    this.beta = grown(this.beta, length);
    this.alphaIn = grown(this.alphaIn, length);
    this.best = grown(this.best, length);
    this.lower = grown(this.lower, length);
    this.upper = grown(this.upper, length);
    this.children = grown(this.children, length * this.width);
    this.count = grown(this.count, length);
    this.passChild = grown(this.passChild, length);
    this.edge = grown(this.edge, length);
    this.situation = grown(this.situation, length);
    this.pass = grown(this.pass, length);
    this.truncated = grown(this.truncated, length);
    this.movedFirst = grown(this.movedFirst, length);
    this.bestListed = grown(this.bestListed, length);
  }
}

/** No move of the root left out (HistorySearch.valueByTests). */
export const NO_TWINS: ReadonlyMap<number, number> = new Map();

/** Search nodes between two calls of HistorySearch.onNodes, unless a solve asks for another count. */
export const NODES_PER_REPORT = 2 ** 16;

/** What HistorySearch.valueByTests found: a state's value and bounds on each of its moves. */
export interface MoveTests {
  readonly value: number;
  /** What the i-th move gives the state's player is at least lower[i] and at most upper[i]. */
  readonly lower: Int8Array;
  readonly upper: Int8Array;
}

/**
 * What a HistorySearch searches and how. The search cuts by the forced bounds, a table of earlier
 * results, depth-limited searches and exact history filters by default; a test turns each off
 * (no `bounds`, `tableBytes` 0, `deepening` false, `exactSituations` 0) to check that the values
 * stay the same and to count the search nodes it saves.
 */
export interface HistorySearchOptions {
  /** The moves, in memory or generated (lib/solve/moves/search-moves.ts). */
  readonly moves: SearchMoves;
  /** Every state's value: those of the states out of the component searched are read, never written. */
  readonly values: Int8Array;
  /** Each position's strongly connected component (lib/solve/moves/components.ts). */
  readonly component: Int32Array;
  /** The results each player can force ignoring repetitions (lib/solve/cycle-draw/forced-bounds.ts); none: no cut by them. */
  readonly bounds?: ForcedBounds;
  /** Bytes for the table of earlier results (lib/solve/no-cycle/history-table.ts), 0 for none; default TABLE_BYTES. */
  readonly tableBytes?: number;
  /** Depth-limited searches with a growing limit (the default); false: one search at full depth. */
  readonly deepening?: boolean;
  /** The most situations whose history filters are exact, and the bits of a hashed one above (lib/solve/no-cycle/history-path.ts). */
  readonly exactSituations?: number;
  readonly hashedBits?: number;
}

export class HistorySearch {
  nodes = 0;
  /** Called every nodesPerReport search nodes: a search of one state can take hours. */
  onNodes: (nodes: number) => void = () => {};
  nodesPerReport = NODES_PER_REPORT;
  /** The range valueByTests's tests have narrowed the value to so far (empty before it runs). */
  readonly proved = { lower: 1, upper: 0 };
  readonly table?: HistoryTable;
  private readonly path: HistoryPath;
  private readonly deps: Dependencies;
  private readonly frames: Frames;
  private readonly points: number;
  private readonly space: StateSpace;
  /** The parity whose player the current depth-limited search proves a bound for. */
  private prover = 0;
  /** The depth of the path at which the current depth-limited search stops (Infinity at full depth). */
  private stopAt = Infinity;
  /** The moves of the state valueFrom values (the frames hold those below it). */
  private readonly rootChildren: Uint32Array;

  private readonly moves: SearchMoves;
  private readonly values: Int8Array;
  private readonly component: Int32Array;
  private readonly bounds?: ForcedBounds;
  private readonly deepening: boolean;

  constructor({
    moves,
    values,
    component,
    bounds,
    tableBytes = TABLE_BYTES,
    deepening = true,
    exactSituations = EXACT_SITUATIONS,
    hashedBits = HASHED_BITS,
  }: HistorySearchOptions) {
    this.moves = moves;
    this.values = values;
    this.component = component;
    this.bounds = bounds;
    this.deepening = deepening;
    const space = (this.space = moves.space);
    this.points = space.board.points;
    this.frames = new Frames(this.points + 1);
    this.rootChildren = new Uint32Array(this.points + 1);
    const bits = new SituationBits(space.positions * 2, exactSituations, hashedBits);
    this.path = new HistoryPath(space, bits, bounds);
    this.deps = new Dependencies(bits.words, 256);
    if (tableBytes > 0) {
      const perEntry = Math.max(0, tableBytes - HistoryTable.stateBytes * space.states) / HistoryTable.entryBytes(bits);
      const entries = Math.min(MOST_ENTRIES_PER_STATE * space.states, perEntry);
      this.table = new HistoryTable(bits, entries, space.states);
    }
  }

  /** valueFrom's moves done so far, and the best they gave: where a search stopped now would resume. */
  readonly rootDone = { moves: 0, best: 0 };
  /** How many moves the state valueFrom values has, and the depth limit of the move being searched (for the progress). */
  rootMoves = 0;
  depthLimit = Infinity;

  /** The move being searched from the state the search started at (its child's state), or -1 while none is. */
  get firstMove(): number {
    return this.path.length > 1 ? this.frames.state[1] : -1;
  }

  /**
   * The value of s with no earlier history: its moves in turn, each move's search deepened on its
   * own (moveValue) in the window above the best so far; no move of s is barred by the history {s}.
   * One search of s deepened as a whole went over every move again at each limit, a move needing a
   * deep proof holding the others to its depth (docs/solve.md, "Depth-limited searches").
   * `resume`: the first `moves` moves were searched before, giving `best` with the game's end;
   * rootDone says the same as the search goes, and `onMove` is called after each move
   * (lib/solve/files/search-checkpoint.ts).
   */
  valueFrom(s: number, resume?: { moves: number; best: number }, onMove: () => void = () => {}): number {
    const { moves, points, rootChildren, rootDone } = this;
    const count = (this.rootMoves = moves.list(s, rootChildren, 0));
    let best = resume ? resume.best : moves.ending === NO_ENDING ? -points : moves.ending;
    rootDone.moves = resume ? resume.moves : 0;
    rootDone.best = best;
    for (let i = rootDone.moves; i < count && best < points; i++) {
      best = Math.max(best, this.moveValue(s, rootChildren[i], best, points));
      rootDone.moves = i + 1;
      rootDone.best = best;
      onMove();
    }
    return best;
  }

  /**
   * The value of s with no earlier history, by null-window tests from a guess: each asks whether
   * the value is above a threshold, the next threshold one step towards the answer. A test needs
   * only a bound on each move, where a move's exact value can take a long proof (1×10: the first
   * move a1's exact value took 7,666,908 search nodes, its test against the empty board's value
   * 247,045). A test asks the moves in turn, each move's search deepened on its own, until one is
   * above the threshold; the bounds each answer proves on its move are returned with the value.
   * `twins`: moves not searched, each with another move it is the image of under a symmetry that
   * maps s and its history ({s}) onto themselves, so that the two have the same value. For a plain
   * state whose moves are all in `children`, none barred by the history {s}: the empty board.
   */
  valueByTests(s: number, guess: number, children: Uint32Array, twins = NO_TWINS): MoveTests {
    const { points, proved } = this;
    const lower = new Int8Array(children.length).fill(-points);
    const upper = new Int8Array(children.length).fill(points);
    proved.lower = -points;
    proved.upper = points;
    let t = Math.min(points - 1, Math.max(-points, guess));
    while (proved.lower < proved.upper) {
      // Whether the value is above t: the window (t, t + 1) holds no value, so the answer is t or t + 1.
      if (this.someMoveAbove(s, t, children, twins, lower, upper)) proved.lower = ++t;
      else proved.upper = t--;
    }
    return { value: proved.lower, lower, upper };
  }

  /** Whether a move of s gives more than t, the moves tested in turn; each answer narrows its move's bounds. */
  private someMoveAbove(
    s: number,
    t: number,
    children: Uint32Array,
    twins: ReadonlyMap<number, number>,
    lower: Int8Array,
    upper: Int8Array,
  ): boolean {
    for (let i = 0; i < children.length; i++) {
      if (twins.has(children[i]) || upper[i] <= t) continue;
      if (lower[i] > t) return true;
      if (this.moveValue(s, children[i], t, t + 1) > t) {
        lower[i] = t + 1;
        return true;
      }
      upper[i] = t;
    }
    return false;
  }

  /** Whether s's move to child c, with history {s}, gives s's player at least t. */
  moveAtLeast(s: number, c: number, t: number): boolean {
    return t <= -this.points || this.moveValue(s, c, t - 1, t) >= t;
  }

  /**
   * The value of s's move to child c with history {s} (a move there is never barred), within
   * [lower, upper] (a value outside comes back as the end it is beyond).
   */
  moveValue(s: number, c: number, lower = -this.points, upper = this.points): number {
    if (this.leaves(s, c)) return Math.min(upper, Math.max(lower, -this.values[c]));
    this.path.push(s, 0);
    this.path.push(c, 1);
    const v = -this.deepen(c, 1, -upper, -lower);
    this.path.pop();
    this.path.pop();
    return v;
  }

  /**
   * The value of s, at the end of the path with this parity, within [lower, upper] (a value outside
   * comes back as the end it is beyond): depth-limited searches, the limit
   * growing by DEPTH_STEP moves, each player in turn proving their bound, until the bounds meet or
   * a search is not cut by its limit. The player whose move led to s proves theirs at every
   * OTHER_PROVER_EVERY-th limit only, the first included: only one of a limit's two searches can end
   * the deepening, and so 1×8 to 1×11 search 6% to 30% fewer nodes, 4×4 5% more
   * (docs/solve.md, "Depth-limited searches"). A short proof is found before a long one, and its path is
   * short enough to leave the forced bounds sound: a proof found at full depth runs hundreds of
   * moves deep on 1×n and 4×4, where nearly every bound is barred by the history.
   */
  private deepen(s: number, parity: number, lower = -this.points, upper = this.points): number {
    this.depthLimit = Infinity;
    if (!this.deepening) return Math.min(upper, Math.max(lower, this.search(s, parity, lower, upper, Infinity, parity)));
    for (let limit = 1, round = 0; ; limit += DEPTH_STEP, round++) {
      this.depthLimit = limit;
      for (const prover of [parity, parity ^ 1]) {
        if (prover !== parity && round % OTHER_PROVER_EVERY !== 0) continue;
        const r = this.search(s, parity, lower, upper, limit, prover);
        if (!this.frames.truncated[this.path.length - 1]) return Math.min(upper, Math.max(lower, r));
        if (prover === parity) lower = Math.max(lower, Math.min(r, upper));
        else upper = Math.min(upper, Math.max(r, lower));
        if (lower >= upper) return lower;
      }
    }
  }

  /**
   * The value of s, at the end of the path with this parity, by alpha-beta over a stack of frames,
   * in the window (alpha, beta). Below `limit` moves a node not settled by its bounds counts as its
   * bound least favourable to the prover (the player to move at that parity): the result then
   * bounds s's value on the prover's side only.
   */
  private search(s: number, parity: number, alpha: number, beta: number, limit: number, prover: number): number {
    const { path, frames: f } = this;
    const base = path.length - 1;
    let d = base;
    f.ensure(d + 1);
    f.state[d] = s;
    f.parity[d] = parity;
    f.alpha[d] = alpha;
    f.beta[d] = beta;
    this.prover = prover;
    this.stopAt = base + limit;
    let step = ENTER;
    let r = 0;
    for (;;) {
      if (step === ENTER) {
        f.truncated[d] = 0;
        if (this.enter(d)) {
          r = f.best[d];
          step = RETURN;
        } else if (d - base >= limit) {
          f.truncated[d] = 1;
          r = f.parity[d] === prover ? Math.max(f.lower[d], f.best[d]) : f.upper[d];
          step = RETURN;
        } else step = NEXT;
      } else if (step === NEXT) {
        const c = this.nextChild(d);
        if (c < 0) {
          r = this.finish(d);
          step = RETURN;
        } else {
          path.push(c, f.parity[d] ^ 1);
          f.ensure(d + 2);
          f.state[d + 1] = c;
          f.parity[d + 1] = f.parity[d] ^ 1;
          f.alpha[d + 1] = -f.beta[d];
          f.beta[d + 1] = -f.alpha[d];
          d++;
          step = ENTER;
        }
      } else {
        if (d === base) return r;
        path.pop();
        d--;
        f.truncated[d] |= f.truncated[d + 1];
        this.afterChild(d, r);
        step = NEXT;
      }
    }
  }

  /**
   * Enters the node at depth d: its bounds from the table and the forced bounds. Returns true
   * when they settle it (its result in `best`), else narrows its window for the moves.
   */
  private enter(d: number): boolean {
    const { moves, bounds, path, deps, table, points, frames: f } = this;
    if (++this.nodes % this.nodesPerReport === 0) this.onNodes(this.nodes);
    const s = f.state[d];
    const parity = f.parity[d];
    let alpha = f.alpha[d];
    let beta = f.beta[d];
    deps.ensure(record(d + 2, 0));
    const owesLower = record(d, LOWER);
    const owesUpper = record(d, UPPER);
    deps.clear(owesLower);
    deps.clear(owesUpper);
    let lower = -points;
    let upper = points;
    if (table) {
      table.probe(s, parity, path, lower, upper);
      const { lowerEntry, upperEntry } = table;
      if (lowerEntry >= 0 || upperEntry >= 0) table.hits++;
      if (lowerEntry >= 0) {
        lower = table.lowerOf(lowerEntry);
        table.owed(lowerEntry, false, parity, deps, owesLower, d, path);
      }
      if (upperEntry >= 0) {
        upper = table.upperOf(upperEntry);
        table.owed(upperEntry, true, parity, deps, owesUpper, d, path);
      }
    }
    if (bounds) {
      // The forcing player's stone moves hand the turn to the other parity for a lower bound.
      const w = bounds.lower(s);
      if (w > lower && w > alpha && !path.breaks(parity ^ 1, w, bounds.enteredW[s])) {
        lower = w;
        deps.clear(owesLower);
        deps.bound(owesLower, parity ^ 1, w, bounds.enteredW[s]);
      }
      const l = bounds.upper(s);
      if (l < upper && l < beta && !path.breaks(parity, -l, bounds.enteredL[s])) {
        upper = l;
        deps.clear(owesUpper);
        deps.bound(owesUpper, parity, -l, bounds.enteredL[s]);
      }
    }
    f.lower[d] = lower;
    f.upper[d] = upper;
    if (lower >= beta) {
      f.best[d] = lower;
      return true;
    }
    if (upper <= alpha || upper === lower) {
      f.best[d] = upper;
      return true;
    }
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    f.alphaIn[d] = alpha;
    deps.clear(record(d, MOVES));
    deps.clear(record(d, BEST));
    f.count[d] = moves.list(s, f.children, d * f.width);
    f.movedFirst[d] = 0;
    f.bestListed[d] = NO_MOVE;
    f.passChild[d] = moves.pass;
    if (table) {
      const cutting = this.stopAt - d >= CUTTING_CHILD_DEPTH ? this.cuttingChild(table, d, beta) : -1;
      this.moveToFront(d, cutting >= 0 ? cutting : table.firstMoveOf(s));
    }
    const best = moves.ending === NO_ENDING ? -128 : moves.ending;
    f.best[d] = best;
    f.alpha[d] = Math.max(alpha, best);
    f.beta[d] = beta;
    f.edge[d] = 0;
    return false;
  }

  /**
   * The next move of the node at depth d to search below, or -1 when none is left or the window
   * has closed. Moves superko bars are recorded as barred; moves leaving the component are valued
   * at once from the values already found.
   */
  private nextChild(d: number): number {
    const { path, deps, frames: f } = this;
    const s = f.state[d];
    while (f.edge[d] < f.count[d] && f.alpha[d] < f.beta[d]) {
      const c = f.children[d * f.width + f.edge[d]++];
      const situation = path.situation(c, f.parity[d] ^ 1);
      const pass = f.passChild[d] === c;
      if (!pass && path.depthOf[situation] >= 0) {
        deps.block(record(d, MOVES), situation, path.depthOf[situation]);
        continue;
      }
      if (this.leaves(s, c)) {
        const v = -this.values[c];
        if (v > f.best[d]) {
          deps.clear(record(d, BEST));
          this.improve(d, v);
          f.bestListed[d] = this.listed(d, f.edge[d] - 1);
        }
        continue;
      }
      f.situation[d] = situation;
      f.pass[d] = pass ? 1 : 0;
      return c;
    }
    return -1;
  }

  /** Takes the result r of the child just searched below depth d, and what it owes the history. */
  private afterChild(d: number, r: number): void {
    const { deps, path, frames: f } = this;
    const v = -r;
    // The child's result bounds it from below unless it fell at or below the child's window, from above unless at or past it.
    if (r > -f.beta[d]) deps.add(record(d, MOVES), deps, record(d + 1, LOWER), d);
    if (v > f.best[d]) {
      deps.copy(record(d, BEST), deps, record(d + 1, UPPER), d);
      if (!f.pass[d]) deps.reach(record(d, BEST), path.bits.bitOf(f.situation[d]));
      this.improve(d, v);
      f.bestListed[d] = this.listed(d, f.edge[d] - 1);
    }
  }

  /**
   * Moves the move listed at place i among the children at depth d to the front, the ones before
   * it one place on: the table's move to try first, which a search one depth limit deeper mostly
   * proves its bound with again.
   */
  private moveToFront(d: number, i: number): void {
    const f = this.frames;
    if (i <= 0 || i >= f.count[d]) return;
    const at = d * f.width;
    const c = f.children[at + i];
    f.children.copyWithin(at + 1, at, at + i);
    f.children[at] = c;
    f.movedFirst[d] = i;
  }

  /**
   * The place, among the moves as listed at depth d, of a move whose child already gives the node
   * beta or more, or -1: a child valued outside the component, or one whose stored upper bound holds
   * after the path (enhanced transposition cutoffs). Tried first, it cuts the node at once, where the
   * table's move to try first may need a search. The move to try first itself is not looked at.
   */
  private cuttingChild(table: HistoryTable, d: number, beta: number): number {
    const { path, frames: f } = this;
    const first = table.firstMoveOf(f.state[d]);
    const at = d * f.width;
    const parity = f.parity[d] ^ 1;
    for (let i = 0; i < f.count[d]; i++) {
      if (i === first) continue;
      const c = f.children[at + i];
      const situation = path.situation(c, parity);
      if (c !== f.passChild[d] && path.depthOf[situation] >= 0) continue;
      if (this.leaves(f.state[d], c)) {
        if (-this.values[c] >= beta) return i;
        continue;
      }
      // Probed as the child is entered: on the path, for an upper bound of beta or less on its side.
      path.push(c, parity);
      table.probe(c, parity, path, this.points, 1 - beta);
      path.pop();
      if (table.upperEntry >= 0) return i;
    }
    return -1;
  }

  /** Whether the move from s to child c leaves s's component (its child then has its value already). */
  private leaves(s: number, c: number): boolean {
    const { component, space } = this;
    return component[space.rankOfState(c)] !== component[space.rankOfState(s)];
  }

  /** The place among the moves as listed of the one tried i-th at depth d. */
  private listed(d: number, i: number): number {
    const first = this.frames.movedFirst[d];
    if (first === 0) return i;
    return i === 0 ? first : i <= first ? i - 1 : i;
  }

  private improve(d: number, v: number): void {
    const f = this.frames;
    f.best[d] = v;
    if (v > f.alpha[d]) f.alpha[d] = v;
  }

  /**
   * The result of the node at depth d once its moves are done. Fail-soft: at or past the window
   * a lower bound, proved by the best move; at or below it an upper bound, proved by all the
   * moves; between them both. Kept in the table with what each bound owes the history.
   */
  private finish(d: number): number {
    const { deps, table, points, frames: f } = this;
    const best = f.best[d];
    const owesLower = record(d, LOWER);
    const owesUpper = record(d, UPPER);
    if (best > f.alphaIn[d]) {
      if (table && f.bestListed[d] !== NO_MOVE) table.setFirstMove(f.state[d], f.bestListed[d]);
      f.lower[d] = best;
      deps.copy(owesLower, deps, record(d, BEST), d);
    }
    if (best < f.beta[d]) {
      f.upper[d] = best;
      deps.copy(owesUpper, deps, record(d, MOVES), d);
    }
    // Cut by the depth limit below, the result bounds the value on the prover's side only.
    if (f.truncated[d]) {
      if (f.parity[d] === this.prover) f.upper[d] = points;
      else f.lower[d] = -points;
    }
    if (table) table.store(f.state[d], f.parity[d], f.lower[d], f.upper[d], points, deps, owesLower, owesUpper, d);
    return best;
  }
}
