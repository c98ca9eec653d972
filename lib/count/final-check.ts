/**
 * The last look at a count before it is printed. A CRT result is always some number below the
 * product of the moduli, so a wrong residue gives a wrong number, not an error: the result must be
 * below that product, and from 5×5 up it must agree with the asymptotic formula to within 1%
 * (exact counts are within 0.01% there, a wrong one is off by orders of magnitude).
 */

import { GocountError } from '../shared/errors.js';
import { relativeError } from './asymptotic.js';

export const SMALLEST_CHECKED_SIDE = 5;
export const TOLERANCE = 0.01;

/** Throws (exit 1) when L(m,n) = count cannot be right. */
export function checkFinalCount(m: number, n: number, count: bigint, moduliProduct?: bigint): void {
  const board = `${m}x${n}`;
  if (count <= 0n)
    throw new GocountError(`the count for ${board} came out as ${count}: not trusted, not printed`, 1, 'GOCOUNT_UNTRUSTED_COUNT');
  if (moduliProduct !== undefined && count >= moduliProduct) {
    throw new GocountError(
      `the count for ${board} is not below the product of its moduli: not trusted, not printed`,
      1,
      'GOCOUNT_UNTRUSTED_COUNT',
    );
  }
  if (Math.min(m, n) < SMALLEST_CHECKED_SIDE) return;
  const error = relativeError(count, m, n);
  if (!(Math.abs(error) <= TOLERANCE)) {
    throw new GocountError(
      `the count for ${board} (${count}) is ${(error * 100).toPrecision(3)}% off the asymptotic formula A·B^(m+n)·L^(mn), ` +
        `more than ${TOLERANCE * 100}%: not trusted, not printed`,
      1,
      'GOCOUNT_UNTRUSTED_COUNT',
    );
  }
}
