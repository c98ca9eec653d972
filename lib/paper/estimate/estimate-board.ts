/**
 * `gocount estimate MxN`: the asymptotic formula's estimate of L(m,n), and its relative error where
 * the exact count is known (lib/paper/known-count.ts).
 */

import { wholeNumber } from '../../shared/arguments.js';
import { boardOf } from '../../board/shape.js';
import { knownCount } from '../known-count.js';
import { UsageError } from '../../shared/errors.js';
import { BigDecimal, divide, fromBigInt, power, relativeDifference } from './big-decimal.js';
import { asymptoticConstants, asymptoticEstimate, AsymptoticConstants, LARGEST_BASE } from './constants.js';

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
  /** estimate / exact − 1. */
  readonly relativeError?: number;
  readonly constants: AsymptoticConstants;
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
  return {
    m,
    n,
    estimate,
    shareOfAll,
    exact: exact?.value,
    exactSource: exact?.source,
    relativeError: exact === undefined ? undefined : relativeDifference(estimate, fromBigInt(exact.value)),
    constants,
  };
}
