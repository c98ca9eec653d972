/** Joining residues by the Chinese Remainder Theorem. BigInt is fine here: it runs once per count. */

import { productOf } from './moduli.js';

export interface Residue {
  readonly modulus: number;
  readonly residue: number;
}

/** The unique x in [0, product of moduli) with x ≡ residue (mod modulus) for each pair. */
export function joinResidues(residues: readonly Residue[]): bigint {
  const product = productOf(residues.map((r) => r.modulus));
  let x = 0n;
  for (const { modulus, residue } of residues) {
    const p = BigInt(modulus);
    const rest = product / p;
    x += BigInt(residue) * rest * inverseMod(rest % p, p);
  }
  return x % product;
}

/** a^-1 mod p for coprime a, p (extended Euclid). */
export function inverseMod(a: bigint, p: bigint): bigint {
  let [oldR, r] = [((a % p) + p) % p, p];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  if (oldR !== 1n) throw new RangeError(`${a} has no inverse modulo ${p}`);
  return ((oldS % p) + p) % p;
}

/** x mod each modulus: the other direction, for tests and checks. */
export function residuesOf(x: bigint, moduli: readonly number[]): Residue[] {
  return moduli.map((modulus) => ({ modulus, residue: Number(x % BigInt(modulus)) }));
}
