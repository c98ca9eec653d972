/**
 * Options that take a whole number. yargs's own number type turns "abc" into NaN, and the error then
 * echoes NaN, and Number() reads "0x2", "1e1" and " 2" as numbers; these keep what was typed until it
 * is checked, and take decimal digits only (with a sign), as GNU coreutils do.
 */

import { UsageError } from '../lib/shared/errors.js';

/** yargs settings for the option `name` (its flag without the dashes) that takes a whole number; `label` names it in errors. */
export function numberOption(name: string, label = `--${name}`) {
  return {
    type: 'string' as const,
    coerce: (given: unknown): number => {
      const value = Array.isArray(given) ? given.at(-1) : given; // given twice: the last value counts
      if (typeof value === 'number') return value; // a default
      const text = String(value);
      if (/^[+-]?\d+$/.test(text)) return Number(text);
      const problem = /^[+-]?(\d+\.\d*|\.\d+)$/.test(text)
        ? 'not a whole number'
        : text.trim() !== '' && Number.isFinite(Number(text))
          ? 'not a whole number in decimal digits' // "0x2", "1e1", " 2"
          : 'not a number';
      const shown = /^\S+$/.test(text) ? text : JSON.stringify(text);
      throw new UsageError(`${label} ${shown}: ${problem}`, 'GOCOUNT_INVALID_OPTION');
    },
  };
}
