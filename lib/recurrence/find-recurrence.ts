/**
 * The minimal linear recurrence of L(M,n) in n (paper §5.4, Table 2). The terms come from the column
 * transfer modulo primes below 2^26; Berlekamp–Massey finds the recurrence modulo each; the integer
 * coefficients are joined by the CRT, taking more primes until they stop changing; and the result is
 * checked on further terms, modulo primes not used to find it.
 */

import { joinResidues } from '../residues/crt.js';
import { primesBelow } from '../residues/moduli.js';
import { berlekampMassey } from './berlekamp-massey.js';
import { buildColumnTransfer, ColumnTransfer, termsModulo } from './column-transfer.js';

export interface Recurrence {
  readonly height: number;
  /** L(M,n) = Σ coefficients[i] · L(M, n−1−i) for every n > order. */
  readonly coefficients: bigint[];
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
  const perPrime: { p: number; coefficients: number[] }[] = [];
  let order = 0;
  let coefficients: bigint[] = [];
  let stable = 0;
  for (const p of primes) {
    const found = berlekampMassey(termsModulo(transfer, p, count + 1).slice(1), p);
    if (found.length < order) continue; // p divides something it should not: an unlucky prime
    if (found.length > order) {
      order = found.length;
      perPrime.length = 0;
    }
    perPrime.push({ p, coefficients: found });
    const joined = found.map((_, i) => symmetric(perPrime.map((q) => ({ modulus: q.p, residue: q.coefficients[i] })), perPrime));
    stable = joined.every((c, i) => c === coefficients[i]) && joined.length === coefficients.length ? stable + 1 : 0;
    coefficients = joined;
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
  return { height, coefficients, transferStates: transfer.states.length, termsUsed: count, termsChecked: CHECK_TERMS, primesUsed: perPrime.length };
}

/** The CRT join taken in (−P/2, P/2]: recurrence coefficients can be negative. */
function symmetric(residues: { modulus: number; residue: number }[], primes: readonly { p: number }[]): bigint {
  const product = primes.reduce((n, q) => n * BigInt(q.p), 1n);
  const x = joinResidues(residues);
  return 2n * x > product ? x - product : x;
}
