/**
 * `gocount estimate MxN`: the asymptotic formula's estimate of L(m,n), and its relative error where
 * the exact count is known: published (Tables 3 and 5), or quick to compute exactly because the
 * board is narrow (the column transfer of §5.4).
 */

import { publishedCount } from '../count/published-counts.js';
import { buildColumnTransfer, exactTerms } from '../recurrence/column-transfer.js';
import { BigDecimal, divide, fromBigInt, leadingExponent, power, relativeDifference } from './big-decimal.js';
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

/** Narrow boards computed exactly on the spot: the width, and the most columns, that take well under a second. */
const QUICK_EXACT: Record<number, number> = { 1: 5000, 2: 2000, 3: 1000, 4: 400, 5: 100 };

export function estimateBoard(m: number, n: number, constants = asymptoticConstants()): BoardEstimate {
  const estimate = asymptoticEstimate(constants, m, n);
  const shareOfAll = divide(estimate, power(fromBigInt(3n), m * n));
  const published = publishedCount(m, n);
  const [narrow, long] = m <= n ? [m, n] : [n, m];
  const computed = published === undefined && long <= (QUICK_EXACT[narrow] ?? 0) ? exactTerms(buildColumnTransfer(narrow), long + 1)[long] : undefined;
  const exact = published ?? computed;
  return {
    m,
    n,
    estimate,
    shareOfAll,
    exact,
    exactSource: published !== undefined ? 'paper' : computed !== undefined ? 'computed' : undefined,
    relativeError: exact === undefined ? undefined : relativeDifference(estimate, fromBigInt(exact)),
    constants,
  };
}

export { leadingExponent };
