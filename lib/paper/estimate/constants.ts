/**
 * The constants of the asymptotic formula L(m,n) ≈ A·B^(m+n)·L^(mn) (paper §5.11, Corollary 6),
 * computed from exact square and almost-square counts at n:
 *   L = L(n,n)·L(n+1,n+1) / L(n,n+1)²,  B = L(n,n+1) / (L(n,n)·L^n),  A = L(n,n) / (B^(2n)·L^(n²)),
 * the unique values that make the formula exact at n×n, n×(n+1) and (n+1)×(n+1). The paper's use
 * n = 18, the largest its tables allow.
 */

import { LEGAL_ALMOST_SQUARE, LEGAL_SQUARE } from '../published-counts.js';
import { BigDecimal, divide, fromBigInt, multiply, power } from './big-decimal.js';

export interface AsymptoticConstants {
  readonly A: BigDecimal;
  readonly B: BigDecimal;
  readonly L: BigDecimal;
  /** The n whose counts gave them. */
  readonly from: number;
}

export const LARGEST_BASE = LEGAL_SQUARE.length - 1;

export function asymptoticConstants(n = LARGEST_BASE): AsymptoticConstants {
  if (!Number.isInteger(n) || n < 1 || n > LARGEST_BASE) throw new RangeError(`constants come from n = 1 … ${LARGEST_BASE}`);
  const square = fromBigInt(BigInt(LEGAL_SQUARE[n - 1]));
  const next = fromBigInt(BigInt(LEGAL_SQUARE[n]));
  const almost = fromBigInt(BigInt(LEGAL_ALMOST_SQUARE[n - 1]));
  const L = divide(multiply(square, next), multiply(almost, almost));
  const B = divide(almost, multiply(square, power(L, n)));
  const A = divide(square, multiply(power(B, 2 * n), power(L, n * n)));
  return { A, B, L, from: n };
}

/** The boards whose counts give the constants at `from`: from×from, from×(from+1), (from+1)×(from+1). */
export function fittedBoards(from: number): [number, number][] {
  return [
    [from, from],
    [from, from + 1],
    [from + 1, from + 1],
  ];
}

/** Whether L(m,n) (or L(n,m), the same count) is one of the counts the constants at `from` come from. */
export function isFittedOn(from: number, m: number, n: number): boolean {
  return fittedBoards(from).some(([a, b]) => (a === m && b === n) || (a === n && b === m));
}

/** A·B^(m+n)·L^(mn). */
export function asymptoticEstimate(constants: AsymptoticConstants, m: number, n: number): BigDecimal {
  const { A, B, L } = constants;
  return multiply(A, multiply(power(B, m + n), power(L, m * n)));
}
