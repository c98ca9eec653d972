/**
 * `gocount estimate MxN`: the asymptotic formula's estimate of L(m,n), and its relative error where
 * the exact count is known (known-count.ts).
 */

import { knownCount } from '../count/known-count.js';
import { BigDecimal, divide, fromBigInt, power, relativeDifference } from './big-decimal.js';
import { asymptoticConstants, asymptoticEstimate, AsymptoticConstants } from './constants.js';

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

export function estimateBoard(m: number, n: number, constants = asymptoticConstants()): BoardEstimate {
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
