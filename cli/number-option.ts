/**
 * Options that take a number. yargs's own number type turns "abc" into NaN, and the error then
 * echoes NaN; these keep what was typed until it is checked, and refuse what is not a number.
 */

import { UsageError } from '../lib/errors.js';

/** yargs settings for the option `name` (its flag without the dashes) that takes a number; `label` names it in errors. */
export function numberOption(name: string, label = `--${name}`) {
  return {
    type: 'string' as const,
    coerce: (given: unknown): number => {
      const value = Array.isArray(given) ? given.at(-1) : given; // given twice: the last value counts
      if (typeof value === 'number') return value; // a default
      const text = String(value);
      const number = Number(text);
      if (text.trim() === '' || !Number.isFinite(number)) throw new UsageError(`${label} ${text}: not a number`, 'GOCOUNT_INVALID_OPTION');
      return number;
    },
  };
}
