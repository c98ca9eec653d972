/**
 * The game graph G(m,n) (paper §4, Definition 1): one node per legal position, and an edge p → q
 * whenever a black or a white move turns p into q ≠ p. Captures are edges and so are multi-stone
 * suicides; a one-stone suicide gives q = p and is no edge. Nodes are numbered by increasing code,
 * so the empty board is node 0; edges are kept in compressed rows.
 */

import { BLACK, GoBoard, WHITE } from './rules.js';
import { MAX_GRAPH_POINTS } from '../defaults.js';

export interface GameGraph {
  readonly board: GoBoard;
  /** codes[i]: the position of node i. */
  readonly codes: Int32Array;
  readonly rowStart: Int32Array;
  readonly targets: Int32Array;
}

export function buildGameGraph(m: number, n: number): GameGraph {
  const board = new GoBoard(m, n);
  if (board.points > MAX_GRAPH_POINTS) throw new RangeError(`game graphs handle boards of up to ${MAX_GRAPH_POINTS} points`);
  const nodeOf = new Int32Array(board.codes).fill(-1);
  const codes: number[] = [];
  for (let code = 0; code < board.codes; code++) {
    if (board.isLegal(code)) {
      nodeOf[code] = codes.length;
      codes.push(code);
    }
  }
  const rowStart = [0];
  const targets: number[] = [];
  for (const code of codes) {
    for (let p = 0; p < board.points; p++) {
      if (!board.isEmpty(code, p)) continue;
      for (const colour of [BLACK, WHITE]) {
        const next = board.play(code, p, colour);
        if (next !== code) targets.push(nodeOf[next]);
      }
    }
    rowStart.push(targets.length);
  }
  return { board, codes: Int32Array.from(codes), rowStart: Int32Array.from(rowStart), targets: Int32Array.from(targets) };
}

export const edgeCount = (graph: GameGraph): number => graph.targets.length;
export const nodeCount = (graph: GameGraph): number => graph.codes.length;
