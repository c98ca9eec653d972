/**
 * `gocount estimate MxN`: the asymptotic formula's estimate of L(m,n), and its relative error where
 * the exact count is known (lib/paper/known-count.ts). The constants make the formula exact at the
 * three boards they come from, so there that error shows nothing: a fitted board is compared, instead,
 * with the constants of the nearest n below whose counts do not include it.
 */

import { wholeNumber } from '../../shared/arguments.js';
import { boardOf } from '../../board/shape.js';
import { knownCount } from '../known-count.js';
import { UsageError } from '../../shared/errors.js';
import { BigDecimal, divide, fromBigInt, power, relativeDifference } from './big-decimal.js';
import { asymptoticConstants, asymptoticEstimate, AsymptoticConstants, isFittedOn, LARGEST_BASE } from './constants.js';

/** Boards past this many points take noticeable time to raise L to the mn-th power. */
export const MAX_ESTIMATE_POINTS = 10_000_000;

export interface BoardEstimate {
  readonly m: number;
  readonly n: number;
  readonly estimate: BigDecimal;
  /** estimate / 3^(mn), the paper's other way of writing it. */
  readonly shareOfAll: BigDecimal;
  readonly exact?: bigint;
  readonly exactSource?: 'paper' | 'computed';
  /** estimate / exact − 1; absent where the board is fitted (it is 0 by construction there). */
  readonly relativeError?: number;
  /** L(m,n) is one of the three counts the constants come from, so the estimate equals it. */
  readonly fitted: boolean;
  /** For a fitted board: the relative error with constants whose counts do not include L(m,n). */
  readonly holdout?: HoldoutCheck;
  readonly constants: AsymptoticConstants;
}

/** The formula tested on a board its constants did not use: A, B and L from the counts at `from`. */
export interface HoldoutCheck {
  readonly from: number;
  readonly relativeError: number;
}

/** The estimate of L(m,n), with A, B and L from the exact counts of from×from, from×(from+1) and (from+1)×(from+1). */
export function estimateBoard(m: number, n: number, from = LARGEST_BASE): BoardEstimate {
  boardOf(m, n);
  if (m * n > MAX_ESTIMATE_POINTS)
    throw new UsageError(`board ${m}x${n}: estimate handles boards of up to ${MAX_ESTIMATE_POINTS} points`, 'GOCOUNT_INVALID_SIZE');
  const constants = asymptoticConstants(wholeNumber('from', from, 1, LARGEST_BASE));
  const estimate = asymptoticEstimate(constants, m, n);
  const shareOfAll = divide(estimate, power(fromBigInt(3n), m * n));
  const exact = knownCount(m, n);
  const fitted = isFittedOn(constants.from, m, n);
  const errorAt = (c: AsymptoticConstants) => relativeDifference(asymptoticEstimate(c, m, n), fromBigInt(exact!.value));
  const holdoutFrom = fitted ? holdoutBase(m, n, constants.from) : undefined;
  return {
    m,
    n,
    estimate,
    shareOfAll,
    exact: exact?.value,
    exactSource: exact?.source,
    relativeError: exact === undefined || fitted ? undefined : errorAt(constants),
    fitted,
    holdout: holdoutFrom === undefined ? undefined : { from: holdoutFrom, relativeError: errorAt(asymptoticConstants(holdoutFrom)) },
    constants,
  };
}

/** The largest n below `from` whose constants do not use L(m,n) (none for 1×1, 1×2 and 2×2 at n ≤ 2). */
function holdoutBase(m: number, n: number, from: number): number | undefined {
  for (let k = from - 1; k >= 1; k--) if (!isFittedOn(k, m, n)) return k;
  return undefined;
}
