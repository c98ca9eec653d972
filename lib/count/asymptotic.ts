/**
 * The paper's asymptotic formula (§5.11): L(m,n) ≈ A · B^(m+n) · L^(mn), with the constants it
 * derives from exact counts. Worked in logarithms, so boards far beyond 2^1024 are fine.
 */

// The paper's digits as printed, more than a double holds: the nearest double is what is used.
/* eslint-disable no-loss-of-precision */
export const ASYMPTOTIC_CONSTANTS = {
  A: 0.8506399258457145,
  B: 0.96553505933837387,
  L: 2.975734192043357249381,
} as const;
/* eslint-enable no-loss-of-precision */

/** ln of the formula's estimate of L(m,n). */
export function estimateLn(m: number, n: number): number {
  const { A, B, L } = ASYMPTOTIC_CONSTANTS;
  return Math.log(A) + (m + n) * Math.log(B) + m * n * Math.log(L);
}

/** ln of a positive integer of any size, to double precision. */
export function lnOf(value: bigint): number {
  const digits = value.toString();
  const head = digits.slice(0, 17);
  return Math.log(Number(head)) + (digits.length - head.length) * Math.LN10;
}

/** (count / estimate) − 1. */
export function relativeError(count: bigint, m: number, n: number): number {
  return Math.expm1(lnOf(count) - estimateLn(m, n));
}
