/**
 * The exact in-memory counter: a map from state class to its exact count, m·n steps, then the sum
 * over legal final states (paper §5.5 without the disk). BigInt counts and Map keys make it simple
 * and obviously exact; it is the oracle the streaming engine is checked against, not the engine.
 */

import { GocountError } from '../shared/errors.js';
import { maxStates } from '../board/table1.js';
import { isLegalFinal, MAX_SUCCESSORS, START_HI, START_LO } from '../border/border.js';
import { Expander } from '../border/expander.js';
import { HIGH_UNIT, MAX_EXACT_NUMBER_WIDTH } from '../border/layout.js';
import type { Sweep } from '../board/shape.js';

type StateKey = number | bigint;

/**
 * L(width, k) for k = 1 … columns, from one sweep: the legal sum at each column boundary is the
 * count of the board made of the columns done so far. A step beyond what a Map holds is a clear
 * error, not a RangeError.
 */
export function countInMemoryByColumn(sweep: Sweep): bigint[] {
  // A sweep at least as long as it is wide reaches about Table 1's bound (13×13: 49.8M states in a
  // step against 50.3M): from width 13 on, more than a Map holds. Refused at once, not after minutes
  // of filling one; shorter sweeps may fit, and the Map's own limit is caught below.
  // A board refused before the work is input the counter cannot use (exit 2); one whose Map fills
  // up on the way is a run that failed (exit 1), as the solver's limits are.
  if (sweep.columns >= sweep.width && maxStates(sweep.width) > MAP_CAPACITY) throw tooLarge(sweep.width, 2);
  try {
    return sweepInMemory(sweep);
  } catch (error) {
    if (error instanceof RangeError && /Map maximum size/.test(error.message)) throw tooLarge(sweep.width, 1);
    throw error;
  }
}

/** The most entries a Map holds (V8). */
const MAP_CAPACITY = 2 ** 24;

function tooLarge(width: number, exitCode: number): GocountError {
  return new GocountError(
    `width ${width} needs more states than the in-memory counter can hold (about 16 million per step)`,
    exitCode,
    'GOCOUNT_TOO_LARGE',
  );
}

/** L for the whole sweep. */
export function countInMemory(sweep: Sweep): bigint {
  const perColumn = countInMemoryByColumn(sweep);
  return perColumn[perColumn.length - 1];
}

function sweepInMemory(sweep: Sweep): bigint[] {
  const { width, columns } = sweep;
  const expander = new Expander(width);
  const keys = stateKeys(width);
  const successors = new Uint32Array(2 * MAX_SUCCESSORS);
  const pair = new Uint32Array(2);
  let current = new Map<StateKey, bigint>([[keys.key(START_HI, START_LO), 1n]]);
  const perColumn: bigint[] = [];
  for (let column = 0; column < columns; column++) {
    for (let y = 0; y < width; y++) {
      const next = new Map<StateKey, bigint>();
      for (const [key, count] of current) {
        keys.split(key, pair);
        const made = expander.expand(pair[0], pair[1], y, successors, 0, column === columns - 1);
        for (let s = 0; s < made; s++) {
          const successor = keys.key(successors[2 * s], successors[2 * s + 1]);
          next.set(successor, (next.get(successor) ?? 0n) + count);
        }
      }
      current = next;
    }
    let legal = 0n;
    for (const [key, count] of current) {
      keys.split(key, pair);
      if (isLegalFinal(pair[0], pair[1])) legal += count;
    }
    perColumn.push(legal);
  }
  return perColumn;
}

/** Map keys for packed states: an exact number up to width 17, a BigInt beyond. */
function stateKeys(width: number) {
  if (width <= MAX_EXACT_NUMBER_WIDTH) {
    return {
      key: (hi: number, lo: number): StateKey => hi * HIGH_UNIT + lo,
      split(key: StateKey, out: Uint32Array): void {
        const value = key as number;
        out[0] = Math.floor(value / HIGH_UNIT);
        out[1] = value % HIGH_UNIT;
      },
    };
  }
  const shift = BigInt(Math.log2(HIGH_UNIT));
  const mask = BigInt(HIGH_UNIT - 1);
  return {
    key: (hi: number, lo: number): StateKey => (BigInt(hi) << shift) | BigInt(lo),
    split(key: StateKey, out: Uint32Array): void {
      const value = key as bigint;
      out[0] = Number(value >> shift);
      out[1] = Number(value & mask);
    },
  };
}
