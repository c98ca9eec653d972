/**
 * The minimal linear recurrence of L(M,n) in n (paper §5.4, Table 2). The terms come from the column
 * transfer modulo primes below 2^26; Berlekamp–Massey finds the recurrence modulo each; the integer
 * coefficients are joined by the CRT, taking more primes until they stop changing; and the result is
 * checked on further terms, modulo primes not used to find it.
 */

import { joinResidues } from '../../residues/crt.js';
import { primesBelow, productOf } from '../../residues/moduli.js';
import { berlekampMassey } from './berlekamp-massey.js';
import { buildColumnTransfer, ColumnTransfer, termsModulo } from './column-transfer.js';

export interface Recurrence {
  readonly height: number;
  /** L(M,n) = Σ coefficients[i] · L(M, n−1−i) for every n > order. */
  readonly coefficients: bigint[];
  /**
   * numerator[k−1] = L(M,k) − Σ_{i < k−1} coefficients[i]·L(M,k−1−i), k = 1 … order: the numerator
   * N(t) of the generating function Σ L(M,n) t^n = N(t) / (1 − Σ coefficients[i] t^(i+1)).
   */
  readonly numerator: bigint[];
  /** Border states at column boundaries: the order is at most this. */
  readonly transferStates: number;
  /** Terms L(M,1) … L(M,termsUsed) found it; termsChecked more confirmed it. */
  readonly termsUsed: number;
  readonly termsChecked: number;
  readonly primesUsed: number;
}

const SMALL_PRIME_LIMIT = 2 ** 26;
/** Terms past the found order's twice that must also fit, before the order is believed. */
const MARGIN = 16;
const CHECK_TERMS = 32;
const CHECK_PRIMES = 2;

export function findRecurrence(height: number, transfer: ColumnTransfer = buildColumnTransfer(height)): Recurrence {
  const primes = primesBelow(SMALL_PRIME_LIMIT, 400);
  const checkPrimes = primes.splice(0, CHECK_PRIMES);
  // Enough terms: double until the order found modulo the first prime leaves a margin.
  let count = 32;
  for (;;) {
    const order = berlekampMassey(termsModulo(transfer, primes[0], count + 1).slice(1), primes[0]).length;
    if (2 * order + MARGIN <= count) break;
    count = Math.max(2 * count, 2 * order + MARGIN);
  }
  // Per prime: the recurrence, and the numerator from the same terms. Both are joined by the CRT,
  // with primes added until neither changes twice running.
  const perPrime: { p: number; coefficients: number[]; numerator: number[] }[] = [];
  let order = 0;
  let coefficients: bigint[] = [];
  let numerator: bigint[] = [];
  let stable = 0;
  for (const p of primes) {
    const terms = termsModulo(transfer, p, count + 1);
    const found = berlekampMassey(terms.slice(1), p);
    if (found.length < order) continue; // p divides something it should not: an unlucky prime
    if (found.length > order) {
      order = found.length;
      perPrime.length = 0;
    }
    perPrime.push({ p, coefficients: found, numerator: numeratorModulo(found, terms, p) });
    const joinedCoefficients = joinAll(perPrime.map((q) => ({ p: q.p, values: q.coefficients })));
    const joinedNumerator = joinAll(perPrime.map((q) => ({ p: q.p, values: q.numerator })));
    const same = sameValues(joinedCoefficients, coefficients) && sameValues(joinedNumerator, numerator);
    stable = same ? stable + 1 : 0;
    coefficients = joinedCoefficients;
    numerator = joinedNumerator;
    if (stable >= 2) break;
  }
  if (stable < 2) throw new Error(`the recurrence for height ${height} did not settle within ${primes.length} primes`);
  for (const p of checkPrimes) {
    const terms = termsModulo(transfer, p, count + CHECK_TERMS + 1);
    const residues = coefficients.map((c) => Number(((c % BigInt(p)) + BigInt(p)) % BigInt(p)));
    for (let n = order + 1; n <= count + CHECK_TERMS; n++) {
      let predicted = 0;
      for (let i = 0; i < order; i++) predicted = (predicted + residues[i] * terms[n - 1 - i]) % p;
      if (predicted !== terms[n]) throw new Error(`the recurrence for height ${height} fails at L(${height},${n}) modulo ${p}`);
    }
  }
  return {
    height,
    coefficients,
    numerator,
    transferStates: transfer.states.length,
    termsUsed: count,
    termsChecked: CHECK_TERMS,
    primesUsed: perPrime.length,
  };
}

/** n_k = s_k − Σ_{i ≤ k−2} c_i·s_(k−1−i) mod p for k = 1 … order; terms[0] is s_0. */
function numeratorModulo(coefficients: readonly number[], terms: readonly number[], p: number): number[] {
  const numerator: number[] = [];
  for (let k = 1; k <= coefficients.length; k++) {
    let n = terms[k];
    for (let i = 0; i <= k - 2; i++) n = (n - ((coefficients[i] * terms[k - 1 - i]) % p) + p) % p;
    numerator.push(n);
  }
  return numerator;
}

/** The CRT join of each position, taken in (−P/2, P/2]: coefficients can be negative. */
function joinAll(perPrime: { p: number; values: number[] }[]): bigint[] {
  const product = productOf(perPrime.map((q) => q.p));
  return perPrime[0].values.map((_, i) => {
    const x = joinResidues(perPrime.map((q) => ({ modulus: q.p, residue: q.values[i] })));
    return 2n * x > product ? x - product : x;
  });
}

const sameValues = (a: readonly bigint[], b: readonly bigint[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
