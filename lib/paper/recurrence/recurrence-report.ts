/** Everything `gocount recurrence M` reports: the recurrence, and λ_M and a_M from it. */

import { wholeNumber } from '../../shared/arguments.js';
import { buildColumnTransfer, growthGuess } from './column-transfer.js';
import { DominantRoot, dominantRoot } from './dominant-root.js';
import { findRecurrence, Recurrence } from './find-recurrence.js';
import { DEFAULT_DIGITS, MAX_DIGITS } from '../defaults.js';

export const MAX_RECURRENCE_HEIGHT = 6;

export interface RecurrenceReport extends Recurrence, DominantRoot {}

export function recurrenceOf(height: number, digits = DEFAULT_DIGITS): RecurrenceReport {
  wholeNumber(
    'height',
    height,
    1,
    MAX_RECURRENCE_HEIGHT,
    `recurrence handles heights 1 to ${MAX_RECURRENCE_HEIGHT} (order 791 at 6; the order grows about fourfold per row)`,
  );
  wholeNumber('digits', digits, 1, MAX_DIGITS);
  const transfer = buildColumnTransfer(height);
  const recurrence = findRecurrence(height, transfer);
  return { ...recurrence, ...dominantRoot(recurrence.coefficients, recurrence.numerator, growthGuess(transfer), height, digits) };
}
