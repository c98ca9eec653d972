/**
 * How many valid border state classes of height M there are at each y (paper §5.2, Table 1),
 * counted without listing them. Read top to bottom, a valid state is a balanced path through the
 * intra-border automaton: each point is empty (E), a stone with a liberty (B, W), or a libertyless
 * ("libertyless") stone that may connect up (U) and/or down (D) to stones of its string on the border.
 * D pushes the stone's colour on a stack and U pops it, so connections nest like two kinds of
 * brackets and never cross. Counting paths with a (last nodes, stack) dynamic programme takes
 * microseconds where the states number 10^11.
 *
 * Between border points y−1 and y (the "bump", points (x, y−1) and (x−1, y)), the points are not
 * neighbours, and the automaton's rules apply only when the paper's virtual adjacency makes them so.
 * Classes pair each state with its colour reversal, except the stoneless one: (states + 1) / 2.
 */

import { wholeNumber } from '../shared/arguments.js';
import { MAX_WIDTH } from '../border/layout.js';

// Nodes: 0 empty, 1 and 2 black and white stones with a liberty, 3 + 4·colour + flags libertyless stones.
const EMPTY = 0;
const FIRST_LIBERTYLESS = 3;
const NODES = 11;
/** Stands for "no node yet" above the first point. */
const NONE = NODES;
const UP = 1;
const DOWN = 2;

const isLibertyless = (node: number) => node >= FIRST_LIBERTYLESS;
const isStone = (node: number) => node !== EMPTY;
/** 0 black, 1 white, for any stone. */
const colourOf = (node: number) => (node < FIRST_LIBERTYLESS ? node - 1 : (node - FIRST_LIBERTYLESS) >> 2);
const flagsOf = (node: number) => (node - FIRST_LIBERTYLESS) & 3;

/** Whether `next` may follow `node` when the two points are neighbours. */
function follows(node: number, next: number): boolean {
  if (!isStone(node)) return !isLibertyless(next); // a libertyless stone never touches an empty point
  if (!isStone(next)) return !isLibertyless(node);
  const same = colourOf(node) === colourOf(next);
  if (!isLibertyless(node) || !isLibertyless(next)) return !same || (!isLibertyless(node) && !isLibertyless(next)); // a liberty would spread
  // Two libertyless neighbours are one string exactly when they have the same colour: then linked.
  return !same || ((flagsOf(node) & DOWN) !== 0 && (flagsOf(next) & UP) !== 0);
}

/**
 * The paper's rule 2: (x, y−1) and (x−1, y) count as neighbours when the stone at y−1 has connections
 * that do not go through y−2, or has a liberty although y−2 is an enemy stone (or the edge): either
 * must pass through (x−1, y−1), the neighbour of (x−1, y).
 */
function virtuallyAdjacent(above: number | undefined, node: number): boolean {
  if (!isStone(node)) return false;
  if (isLibertyless(node)) {
    const linkedAbove = above !== undefined && isLibertyless(above) && colourOf(above) === colourOf(node);
    return flagsOf(node) !== 0 && !linkedAbove;
  }
  return above === undefined || (isStone(above) && colourOf(above) !== colourOf(node));
}

/** The height given, checked: 1 to MAX_WIDTH, the widest state gocount handles. */
export const statesHeight = (height: unknown): number =>
  wholeNumber('height', height, 1, MAX_WIDTH, `states handles heights 1 to ${MAX_WIDTH}`);

/**
 * Valid states (not classes) of a height at step y, 0 to height − 1; without y, at every y in turn,
 * as `gocount states` lists them.
 */
export function validStates(height: number): number[];
export function validStates(height: number, y: number): number;
export function validStates(height: number, y?: number): number | number[] {
  const m = statesHeight(height);
  if (y === undefined) return Array.from({ length: m }, (_, at) => statesAt(m, at));
  return statesAt(m, wholeNumber('y', y, 0, m - 1));
}

function statesAt(m: number, y: number): number {
  // Index: the two nodes before point i and the stack of open down-connections.
  let counts = new Float64Array(KEYS);
  let next = new Float64Array(KEYS);
  let live = [key(NONE, NONE, EMPTY_STACK)];
  counts[live[0]] = 1;
  for (let i = 0; i < m; i++) {
    const reached: number[] = [];
    for (const k of live) {
      const ways = counts[k];
      counts[k] = 0;
      const stack = k % STACKS;
      const previous = Math.floor(k / STACKS) % (NODES + 1);
      const above = Math.floor(k / STACKS / (NODES + 1));
      const neighbours = previous !== NONE && (i !== y || virtuallyAdjacent(above === NONE ? undefined : above, previous));
      for (let node = 0; node < NODES; node++) {
        if (neighbours && !follows(previous, node)) continue;
        const after = push(stack, node);
        if (after < 0) continue;
        const k2 = key(previous, node, after);
        if (next[k2] === 0) reached.push(k2);
        next[k2] += ways;
      }
    }
    [counts, next] = [next, counts];
    live = reached;
  }
  let total = 0;
  for (const k of live) if (k % STACKS === EMPTY_STACK) total += counts[k];
  return total;
}

export function validClasses(m: number, y: number): number {
  return classesOf(validStates(m, y));
}

/** Every state but the stoneless one has a distinct colour reversal. */
export const classesOf = (states: number): number => (states + 1) / 2;

/** A stack is 1 followed by its colours, top lowest: room for the 10 open connections of height 19. */
const STACKS = 1 << 12;
const EMPTY_STACK = 1;
const KEYS = (NODES + 1) * (NODES + 1) * STACKS;

function key(above: number, previous: number, stack: number): number {
  return (above * (NODES + 1) + previous) * STACKS + stack;
}

/** The stack after `node`, or −1 when its up-connection has nothing of its colour to link to. */
function push(stack: number, node: number): number {
  if (!isLibertyless(node)) return stack;
  const colour = colourOf(node);
  const flags = flagsOf(node);
  let s = stack;
  if (flags & UP) {
    if (s === EMPTY_STACK || (s & 1) !== colour) return -1;
    s >>= 1;
  }
  if (flags & DOWN) s = (s << 1) | colour;
  return s;
}
