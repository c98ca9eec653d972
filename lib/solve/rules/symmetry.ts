/**
 * The symmetries of a board (the rotations and reflections that map it onto itself: 8 on a square,
 * 4 on a rectangle, 2 on a single row) as permutations of its points, and the canonical form of a
 * position: the least key among its images. The positions of one orbit have the same value under
 * cycle-draw, whose values do not depend on the history, so the solve keeps one of each
 * (lib/solve/rules/state-space.ts).
 */

import { boardSymmetries } from '../../board/symmetries.js';
import { keyOf, moverOf, opponentOf } from './solve-board.js';

export class BoardSymmetry {
  /** Per symmetry, the image of each point; symmetry 0 is the identity. */
  private readonly images: Int8Array[];
  /** Per symmetry, the image of a mask's low and high byte. */
  private readonly low: Uint16Array[];
  private readonly high: Uint16Array[];
  /** After canonical(): the symmetry that gave the least key (the first such). */
  last = 0;

  constructor(m: number, n: number) {
    // Distinct permutations only: on a single row, flipping the rows is the identity.
    const seen = new Set<string>();
    this.images = [];
    for (const map of boardSymmetries(m, n)) {
      if (seen.has(map.join())) continue;
      seen.add(map.join());
      this.images.push(Int8Array.from(map));
    }
    const table = (image: Int8Array, shift: number) =>
      Uint16Array.from({ length: 256 }, (_, byte) => {
        let mask = 0;
        for (let b = 0; b < 8; b++) if ((byte >> b) & 1 && b + shift < image.length) mask |= 1 << image[b + shift];
        return mask;
      });
    this.low = this.images.map((image) => table(image, 0));
    this.high = this.images.map((image) => table(image, 8));
  }

  /** How many symmetries the board has, the identity included. */
  get count(): number {
    return this.images.length;
  }

  /** The image of a point under symmetry t. */
  point(t: number, p: number): number {
    return this.images[t][p];
  }

  /** The image of a mask of points under symmetry t. */
  mask(t: number, mask: number): number {
    return this.low[t][mask & 0xff] | this.high[t][mask >>> 8];
  }

  /** The least key among the images of a position; sets `last` to the symmetry that gave it. */
  canonical(key: number): number {
    const x = moverOf(key);
    const o = opponentOf(key);
    let best = key;
    this.last = 0;
    for (let t = 1; t < this.images.length; t++) {
      const image = keyOf(this.mask(t, x), this.mask(t, o));
      if (image < best) {
        best = image;
        this.last = t;
      }
    }
    return best;
  }

  /** How many distinct positions the images of a position are. */
  orbitSize(key: number): number {
    const images = new Set<number>();
    for (let t = 0; t < this.images.length; t++) images.add(keyOf(this.mask(t, moverOf(key)), this.mask(t, opponentOf(key))));
    return images.size;
  }
}

/** The symmetries a solve folded (1: none, else all of the board's), or undefined for none; throws on a count the board does not have. */
export function foldedSymmetry(m: number, n: number, symmetries: number): BoardSymmetry | undefined {
  if (symmetries === 1) return undefined;
  const symmetry = new BoardSymmetry(m, n);
  if (symmetry.count !== symmetries) throw new Error(`board ${m}x${n} has ${symmetry.count} symmetries, not ${symmetries}`);
  return symmetry;
}
