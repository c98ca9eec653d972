/**
 * The strongly connected components of the positions (Tarjan), the moves in memory or generated:
 * the positions that can reach each other, valued together under no-cycle
 * (lib/solve/no-cycle/search-components.ts) and checked together in a database
 * (lib/solve/files/db-check.ts); and the cycle figures the solve reports of them.
 */

import type { RetrogradeStats } from './forward-check.js';
import { MoveGraph } from './move-graph.js';
import { GraphMoves, type PositionSuccessors } from './search-moves.js';
import type { StateSpace } from '../rules/state-space.js';

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
