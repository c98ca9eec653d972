/**
 * Counts that grow with the step. The states of a step carry residues only for the fewest leading
 * moduli of their pass whose product exceeds the most one of them can count (countBound): at 13×13
 * one 32-bit word up to step 32 but for step 26, nine only from step 166. Below that product a count is exact
 * in its residues, so when a step needs one more modulus the new residue is computed from the others
 * (Garner's mixed-radix conversion), and when it needs fewer the last are dropped; once every modulus
 * of the pass is in use the residues are plain residues, as before.
 *
 * Residues are below 2^32, so their products need 64 bits: mulMod splits one factor in 16-bit
 * halves, which keeps every intermediate below 2^49, exact in a JS number, with no BigInt per record.
 */

import { joinResidues, inverseMod } from './crt.js';

/** The board a count sweeps: its border's width and its columns. */
export interface SweptBoard {
  readonly width: number;
  readonly columns: number;
}

/**
 * The most a state after `step` points counts, and so what its residues must hold exactly. A state
 * is a class of border colourings up to colour reversal: it fixes the colours of the placed points
 * on its border but for that reversal, so it counts at most 2 · 3^(points placed off its border),
 * 20 bits below 3^step at width 13. The states at a column's end bound 3^step instead: their legal
 * sum is L(width, columns so far), lifted to every modulus of the pass (step-record.ts), and the last
 * column's is the count itself. In the last column each step forgets a field (made EDGE, border.ts):
 * the points placed there and above it are off the border.
 */
export function countBound(step: number, board: SweptBoard): bigint {
  const { width, columns } = board;
  const all = 3n ** BigInt(step);
  if (step % width === 0) return all;
  const lastColumnStart = (columns - 1) * width;
  const forgotten = step > lastColumnStart ? step - lastColumnStart - 1 : 0;
  const onBorder = Math.min(step, width) - forgotten;
  const perClass = 2n * 3n ** BigInt(step - onBorder);
  return perClass < all ? perClass : all;
}

/** How many of the leading `moduli` the states after `step` points of `board` carry. */
export function residuesAt(moduli: readonly number[], step: number, board: SweptBoard): number {
  const bound = countBound(step, board);
  let product = 1n;
  for (let k = 1; k <= moduli.length; k++) {
    product *= BigInt(moduli[k - 1]);
    if (product > bound) return k;
  }
  return moduli.length;
}

/** The moduli the states after `step` points of `board` carry: a prefix of the pass's. */
export function moduliAt(moduli: readonly number[], step: number, board: SweptBoard): number[] {
  return moduli.slice(0, residuesAt(moduli, step, board));
}

/** a · b mod p for a, b < p < 2^32, exactly. */
export function mulMod(a: number, b: number, p: number): number {
  const high = (a * (b >>> 16)) % p; // < 2^48 before the reduction
  return (high * 65536 + a * (b & 0xffff)) % p; // < 2^49
}

/**
 * Extends residues for moduli[0..from) to moduli[0..to), for counts below the product of the first
 * `from` moduli. Allocation-free per record: it works in scratch arrays made once.
 */
export class ResidueExtender {
  readonly from: number;
  readonly to: number;
  private readonly moduli: Float64Array;
  /** inverse[i·from + j] = moduli[i]^-1 mod moduli[j], for i < j < from. */
  private readonly inverse: Float64Array;
  /** reduced[i·to + j] = moduli[i] mod moduli[j], for i < from ≤ j. */
  private readonly reduced: Float64Array;
  private readonly digits: Float64Array;
  private words?: { moduli: Float64Array; inverse: Uint32Array; reduced: Uint32Array };

  constructor(moduli: readonly number[], from: number, to: number) {
    if (from < 1 || to <= from || to > moduli.length) throw new RangeError(`cannot extend ${from} residues to ${to}`);
    this.from = from;
    this.to = to;
    this.moduli = Float64Array.from(moduli.slice(0, to));
    this.inverse = new Float64Array(from * from);
    for (let i = 0; i < from; i++) {
      for (let j = i + 1; j < from; j++) this.inverse[i * from + j] = Number(inverseMod(BigInt(moduli[i]), BigInt(moduli[j])));
    }
    this.reduced = new Float64Array(from * to);
    for (let i = 0; i < from; i++) for (let j = from; j < to; j++) this.reduced[i * to + j] = moduli[i] % moduli[j];
    this.digits = new Float64Array(from);
  }

  /**
   * The tables as 32-bit words, made once, for the WebAssembly kernel's copy of extend: inverse's
   * from · from words, then each one's Shoup quotient, floor(w · 2^32 / p) for w mod p, so that the
   * kernel multiplies by it modulo p without a division; reduced's from · to words, then theirs.
   */
  get tables(): { moduli: Float64Array; inverse: Uint32Array; reduced: Uint32Array } {
    const { from, to, moduli } = this;
    this.words ??= {
      moduli,
      inverse: withShoupQuotients(this.inverse, (at) => moduli[at % from]),
      reduced: withShoupQuotients(this.reduced, (at) => moduli[at % to]),
    };
    return this.words;
  }

  /** Writes to out[outAt..outAt+to) the residues of the count whose first `from` residues are src[at..). */
  extend(src: Uint32Array, at: number, out: Uint32Array, outAt: number): void {
    const { from, to, moduli, inverse, reduced, digits } = this;
    // Mixed-radix digits: count = d0 + m0·(d1 + m1·(d2 + …)).
    for (let j = 0; j < from; j++) {
      const p = moduli[j];
      let t = src[at + j];
      out[outAt + j] = t;
      for (let i = 0; i < j; i++) {
        t -= digits[i] % p;
        if (t < 0) t += p;
        t = mulMod(t, inverse[i * from + j], p);
      }
      digits[j] = t;
    }
    for (let j = from; j < to; j++) {
      const q = moduli[j];
      let value = digits[from - 1] % q;
      for (let i = from - 2; i >= 0; i--) value = (mulMod(value, reduced[i * to + j], q) + (digits[i] % q)) % q;
      out[outAt + j] = value;
    }
  }
}

/** `values` (each below the modulus modulusAt gives for its place) as words, then their Shoup quotients. */
function withShoupQuotients(values: Float64Array, modulusAt: (at: number) => number): Uint32Array {
  const words = new Uint32Array(2 * values.length);
  words.set(values);
  for (let at = 0; at < values.length; at++) words[values.length + at] = Number((BigInt(values[at]) << 32n) / BigInt(modulusAt(at)));
  return words;
}

/** Residues of a sum known for the leading moduli and below their product, for all of `moduli`. */
export function liftResidues(residues: readonly number[], moduli: readonly number[]): number[] {
  if (residues.length === moduli.length) return [...residues];
  const exact = joinResidues(residues.map((residue, r) => ({ modulus: moduli[r], residue })));
  return moduli.map((p) => Number(exact % BigInt(p)));
}
