/**
 * The column transfer of a height-M board (paper §5.4): the border states at column boundaries
 * reachable from the empty board, and for each, how many ways one more column leads to each other
 * one. L(M,n) = Σ over legal states of (start · T^n), so the sequence satisfies a linear recurrence
 * of order at most the number of states. Built with the fast expander, one column at a time.
 */

import { isLegalFinal, MAX_SUCCESSORS, START_HI, START_LO } from '../../border/border.js';
import { Expander } from '../../border/expander.js';
import { HIGH_UNIT, MAX_EXACT_NUMBER_WIDTH } from '../../border/layout.js';

export interface ColumnTransfer {
  readonly height: number;
  /** The reachable boundary states, as exact numbers hi·2^30 + lo; the start state is index 0. */
  readonly states: number[];
  /** legal[i]: state i has no libertyless stone, so it ends a legal position. */
  readonly legal: Uint8Array;
  /** Row i of T in compressed form: targets[rowStart[i] … rowStart[i+1]) with their weights. */
  readonly rowStart: Int32Array;
  readonly targets: Int32Array;
  readonly weights: Float64Array;
}

export function buildColumnTransfer(height: number): ColumnTransfer {
  if (height > MAX_EXACT_NUMBER_WIDTH) throw new RangeError(`column transfers handle heights up to ${MAX_EXACT_NUMBER_WIDTH}`);
  const expander = new Expander(height);
  const successors = new Uint32Array(2 * MAX_SUCCESSORS);
  const index = new Map<number, number>();
  const states: number[] = [];
  const indexOf = (value: number): number => {
    let i = index.get(value);
    if (i === undefined) {
      i = states.length;
      index.set(value, i);
      states.push(value);
    }
    return i;
  };
  indexOf(START_HI * HIGH_UNIT + START_LO);
  const rowStart: number[] = [0];
  const targets: number[] = [];
  const weights: number[] = [];
  for (let row = 0; row < states.length; row++) {
    let current = new Map<number, number>([[states[row], 1]]);
    for (let y = 0; y < height; y++) {
      const next = new Map<number, number>();
      for (const [value, ways] of current) {
        const hi = Math.floor(value / HIGH_UNIT);
        const made = expander.expand(hi, value - hi * HIGH_UNIT, y, successors, 0);
        for (let s = 0; s < made; s++) {
          const successor = successors[2 * s] * HIGH_UNIT + successors[2 * s + 1];
          next.set(successor, (next.get(successor) ?? 0) + ways);
        }
      }
      current = next;
    }
    const row_ = [...current].map(([value, ways]) => [indexOf(value), ways] as const).sort((a, b) => a[0] - b[0]);
    for (const [target, ways] of row_) {
      targets.push(target);
      weights.push(ways);
    }
    rowStart.push(targets.length);
  }
  const legal = Uint8Array.from(states, (value) => (isLegalFinal(Math.floor(value / HIGH_UNIT), value % HIGH_UNIT) ? 1 : 0));
  return {
    height,
    states,
    legal,
    rowStart: Int32Array.from(rowStart),
    targets: Int32Array.from(targets),
    weights: Float64Array.from(weights),
  };
}

/** L(M,0) … L(M,count−1) modulo p, for a prime p below 2^26 (so every product is exact). */
export function termsModulo(transfer: ColumnTransfer, p: number, count: number): number[] {
  const { rowStart, targets, weights, legal } = transfer;
  const size = transfer.states.length;
  let v = new Float64Array(size);
  let w = new Float64Array(size);
  v[0] = 1;
  const terms: number[] = [];
  for (let n = 0; n < count; n++) {
    let sum = 0;
    for (let i = 0; i < size; i++) if (legal[i]) sum = (sum + v[i]) % p;
    terms.push(sum);
    w.fill(0);
    for (let i = 0; i < size; i++) {
      const x = v[i];
      if (x === 0) continue;
      for (let k = rowStart[i]; k < rowStart[i + 1]; k++) w[targets[k]] = (w[targets[k]] + x * weights[k]) % p;
    }
    [v, w] = [w, v];
  }
  return terms;
}

/** L(M,0) … L(M,count−1) exactly. */
export function exactTerms(transfer: ColumnTransfer, count: number): bigint[] {
  const { rowStart, targets, weights, legal } = transfer;
  const size = transfer.states.length;
  const bigWeights = Array.from(weights, BigInt);
  let v: bigint[] = new Array(size).fill(0n);
  v[0] = 1n;
  const terms: bigint[] = [];
  for (let n = 0; n < count; n++) {
    let sum = 0n;
    for (let i = 0; i < size; i++) if (legal[i]) sum += v[i];
    terms.push(sum);
    const w: bigint[] = new Array(size).fill(0n);
    for (let i = 0; i < size; i++) {
      if (v[i] === 0n) continue;
      for (let k = rowStart[i]; k < rowStart[i + 1]; k++) w[targets[k]] += v[i] * bigWeights[k];
    }
    v = w;
  }
  return terms;
}

/** λ roughly: the growth of start · T^n, by power iteration in doubles (a start for Newton's method). */
export function growthGuess(transfer: ColumnTransfer, iterations = 400): number {
  const { rowStart, targets, weights } = transfer;
  const size = transfer.states.length;
  let v = new Float64Array(size).fill(1 / size);
  let w = new Float64Array(size);
  let growth = 0;
  for (let n = 0; n < iterations; n++) {
    w.fill(0);
    for (let i = 0; i < size; i++) {
      const x = v[i];
      if (x === 0) continue;
      for (let k = rowStart[i]; k < rowStart[i + 1]; k++) w[targets[k]] += x * weights[k];
    }
    let total = 0;
    for (let i = 0; i < size; i++) total += w[i];
    const previous = growth;
    growth = total; // v sums to 1
    for (let i = 0; i < size; i++) w[i] /= total;
    [v, w] = [w, v];
    if (Math.abs(growth - previous) < 1e-13 * growth) break;
  }
  return growth;
}
