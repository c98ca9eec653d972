/**
 * Berlekamp–Massey over the integers modulo a prime p < 2^26: the shortest linear recurrence
 * s[n] = c[0]·s[n−1] + … + c[L−1]·s[n−L] (mod p) that the given terms satisfy. Every product of
 * two residues stays below 2^52, so plain numbers are exact.
 */

export function berlekampMassey(terms: readonly number[], p: number): number[] {
  let current: number[] = []; // the recurrence so far
  let previous: number[] = []; // the one before the last length change
  let previousDiscrepancy = 1;
  let shift = 0; // steps since the last length change, minus one
  for (let n = 0; n < terms.length; n++) {
    let discrepancy = terms[n];
    for (let i = 0; i < current.length; i++) discrepancy = (discrepancy - ((current[i] * terms[n - 1 - i]) % p) + p) % p;
    if (discrepancy === 0) {
      shift++;
      continue;
    }
    const factor = (discrepancy * inverse(previousDiscrepancy, p)) % p;
    // next = current + factor · x^(shift+1) · (1 − previous), in terms of recurrence coefficients
    const next = current.slice();
    const needed = shift + 1 + previous.length;
    while (next.length < needed) next.push(0);
    next[shift] = (next[shift] + factor) % p;
    for (let i = 0; i < previous.length; i++) next[shift + 1 + i] = (next[shift + 1 + i] - ((factor * previous[i]) % p) + p) % p;
    if (2 * current.length <= n) {
      previous = current;
      previousDiscrepancy = discrepancy;
      shift = 0;
    } else {
      shift++;
    }
    current = next;
  }
  return current;
}

/** a^(−1) mod p, by the extended Euclidean algorithm. */
export function inverse(a: number, p: number): number {
  let [r0, r1] = [p, a % p];
  let [t0, t1] = [0, 1];
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1);
    [r0, r1] = [r1, r0 - q * r1];
    [t0, t1] = [t1, t0 - q * t1];
  }
  if (r0 !== 1) throw new RangeError(`${a} has no inverse modulo ${p}`);
  return ((t0 % p) + p) % p;
}
