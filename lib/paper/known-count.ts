/**
 * L(m,n) when it is known without a long count: published in the paper's Tables 3 and 5, or quick
 * to compute exactly because the board is narrow (the column transfer of §5.4).
 */

import { buildColumnTransfer, exactTerms } from './recurrence/column-transfer.js';
import { publishedCount } from './published-counts.js';

export interface KnownCount {
  readonly value: bigint;
  readonly source: 'paper' | 'computed';
}

/** Narrow boards computed on the spot: per width, the most columns that take well under a second. */
const QUICK_EXACT: Record<number, number> = { 1: 5000, 2: 2000, 3: 1000, 4: 400, 5: 100 };

export function knownCount(m: number, n: number): KnownCount | undefined {
  const published = publishedCount(m, n);
  if (published !== undefined) return { value: published, source: 'paper' };
  const [narrow, long] = m <= n ? [m, n] : [n, m];
  if (long > (QUICK_EXACT[narrow] ?? 0)) return undefined;
  return { value: exactTerms(buildColumnTransfer(narrow), long + 1)[long], source: 'computed' };
}
