/** Residue arithmetic off and on the hot path: adding residue vectors modulo their moduli. */

/** (a + b) mod p for residues a, b below p: one comparison, no division. Small enough to inline in hot loops. */
export function addModulo(a: number, b: number, p: number): number {
  const s = a + b;
  return s >= p ? s - p : s;
}

/**
 * tally[r] += times × src[at + r] (mod moduli[r]), for a tally and residues below their moduli and
 * times ≤ 3: the sum stays below 4p, so subtraction reduces it, with no division.
 */
export function addResidues(tally: Float64Array, src: Uint32Array, at: number, times: number, moduli: Float64Array): void {
  for (let r = 0; r < moduli.length; r++) {
    const p = moduli[r];
    let t = tally[r] + times * src[at + r];
    while (t >= p) t -= p;
    tally[r] = t;
  }
}

/** The residue-wise sum of several residue vectors. */
export function sumResidueVectors(moduli: readonly number[], vectors: readonly (readonly number[])[]): number[] {
  return moduli.map((p, r) => vectors.reduce((s, v) => (s + v[r]) % p, 0));
}
