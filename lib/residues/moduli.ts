/**
 * The moduli counts are kept under (paper §5.5: counts modulo several moduli, joined by the CRT).
 *
 * gocount uses the largest primes below 2^32. A residue then fits a Uint32Array slot, and the one
 * operation the counting needs, adding two residues, stays below 2^33: it is exact in a JS number,
 * with no BigInt. Distinct primes are pairwise coprime. A board of P points needs enough of them
 * that their product exceeds 3^P, which bounds L(m,n).
 */

/** Primes below 2^32, largest first, found once by trial division. */
const primes: number[] = [];

function isPrime(n: number): boolean {
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}

/** The k largest primes below 2^32. */
export function largestPrimes(k: number): number[] {
  for (let candidate = (primes.length === 0 ? 2 ** 32 : primes[primes.length - 1]) - 1; primes.length < k; candidate -= 2) {
    if (candidate % 2 === 0) candidate--;
    if (isPrime(candidate)) primes.push(candidate);
  }
  return primes.slice(0, k);
}

/** The k largest primes below `limit` (small moduli, for arithmetic whose products must stay exact). */
export function primesBelow(limit: number, k: number): number[] {
  const found: number[] = [];
  for (let candidate = limit - 1; found.length < k && candidate > 2; candidate--) if (isPrime(candidate)) found.push(candidate);
  return found;
}

export function productOf(moduli: readonly number[]): bigint {
  return moduli.reduce((product, p) => product * BigInt(p), 1n);
}

/** The fewest of the largest primes whose product exceeds 3^points. */
export function moduliFor(points: number): number[] {
  const bound = 3n ** BigInt(points);
  let k = Math.max(1, Math.ceil((points * Math.log2(3)) / 32));
  while (productOf(largestPrimes(k)) <= bound) k++;
  return largestPrimes(k);
}

/** Splits the moduli into passes of at most perPass each. */
export function splitIntoPasses(moduli: readonly number[], perPass: number): number[][] {
  const passes: number[][] = [];
  for (let i = 0; i < moduli.length; i += perPass) passes.push(moduli.slice(i, i + perPass));
  return passes;
}
