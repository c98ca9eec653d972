/**
 * The number of games on a tiny board (paper §7.1, Table 7). By Lemma 2, games under positional
 * superko are the simple paths of the game graph that start at the empty position, the empty game
 * included: a depth-first search that counts every path it extends. The board's symmetries and the
 * colour swap map the graph onto itself and fix the empty node, so the paths through each first
 * move are counted once per orbit of first moves and multiplied by the orbit's size.
 */

import { boardSymmetries } from '../../board/symmetries.js';
import type { EventLoopTurns } from '../../shared/event-loop-turns.js';
import { BLACK, WHITE } from './rules.js';
import type { GameGraph } from './game-graph.js';

export interface GameCount {
  readonly games: number;
  /** First moves counted, and all first moves (the difference is what symmetry saved). */
  readonly firstMovesSearched: number;
  readonly firstMoves: number;
}

/** Simple paths between two progress reports: a few seconds' work. */
const PROGRESS_EVERY = 1 << 26;

/** Edges a search tries between two asks whether the event loop is due a turn: about a millisecond. */
const SLICE = 1 << 17;

/**
 * The games of the graph, counted by symmetry. `onProgress`, if given, hears the simple paths
 * searched so far every few seconds of a long search; `turns` lets the event loop run and stops
 * the search when its signal is aborted.
 */
export async function countGames(
  graph: GameGraph,
  turns?: EventLoopTurns,
  onProgress?: (pathsSearched: number) => void,
): Promise<GameCount> {
  const { rowStart, targets } = graph;
  const firstMoves = [...new Set(targets.subarray(rowStart[0], rowStart[1]))];
  const orbits = new Map<number, number>(); // canonical first move → how many first moves it stands for
  for (const node of firstMoves) {
    const canonical = canonicalNode(graph, node);
    orbits.set(canonical, (orbits.get(canonical) ?? 0) + 1);
  }
  let games = 1; // the empty game: pass, pass
  let searched = 0;
  const report = onProgress && ((paths: number) => onProgress(searched + paths));
  for (const [node, size] of orbits) {
    const search = new PathSearch(graph, node, report);
    while (search.run(SLICE)) if (turns?.due()) await turns.take();
    searched += search.paths;
    games += size * search.paths;
  }
  return { games, firstMovesSearched: orbits.size, firstMoves: firstMoves.length };
}

/** Simple paths 0 → node → …, counted with every prefix, in one go. */
export function pathsFrom(graph: GameGraph, start: number, onProgress?: (paths: number) => void): number {
  const search = new PathSearch(graph, start, onProgress);
  while (search.run(SLICE));
  return search.paths;
}

/**
 * A depth-first search of the simple paths 0 → start → …, counted with every prefix, run a slice
 * at a time so that its caller can let the event loop run between slices.
 */
export class PathSearch {
  /** Simple paths found so far, the start's own included. */
  paths = 1;
  private readonly visited: Uint8Array;
  private readonly nodes: Int32Array;
  /** The next edge to try at each depth. */
  private readonly next: Int32Array;
  private depth = 0;
  private untilReport = PROGRESS_EVERY;

  constructor(
    private readonly graph: GameGraph,
    start: number,
    private readonly onProgress?: (paths: number) => void,
  ) {
    const size = graph.codes.length;
    this.visited = new Uint8Array(size);
    this.nodes = new Int32Array(size + 1);
    this.next = new Int32Array(size + 1);
    this.visited[0] = 1;
    this.visited[start] = 1;
    this.nodes[0] = start;
    this.next[0] = graph.rowStart[start];
  }

  /** Tries up to `edges` more edges; false once the search is over. The state is in locals while it runs. */
  run(edges: number): boolean {
    const { rowStart, targets } = this.graph;
    const { visited, nodes, next, onProgress } = this;
    let { depth, paths, untilReport } = this;
    for (let left = edges; left > 0 && depth >= 0; left--) {
      const node = nodes[depth];
      const edge = next[depth];
      if (edge === rowStart[node + 1]) {
        visited[node] = 0;
        depth--;
        continue;
      }
      next[depth] = edge + 1;
      const target = targets[edge];
      if (visited[target]) continue;
      visited[target] = 1;
      paths++;
      if (--untilReport === 0) {
        untilReport = PROGRESS_EVERY;
        onProgress?.(paths);
      }
      depth++;
      nodes[depth] = target;
      next[depth] = rowStart[target];
    }
    this.depth = depth;
    this.paths = paths;
    this.untilReport = untilReport;
    return depth >= 0;
  }
}

/** The node's image with the smallest code under the board's symmetries and the colour swap. */
function canonicalNode(graph: GameGraph, node: number): number {
  const { board, codes } = graph;
  const cells = board.decode(codes[node]);
  let best = Infinity;
  for (const map of boardSymmetries(board.m, board.n)) {
    for (const swap of [false, true]) {
      const image = new Array<number>(cells.length);
      cells.forEach((cell, p) => {
        image[map[p]] = swap && cell !== 0 ? (cell === BLACK ? WHITE : BLACK) : cell;
      });
      best = Math.min(best, board.encode(image));
    }
  }
  return codes.indexOf(best);
}
