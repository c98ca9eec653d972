/** Flags given where they cannot apply are refused, not ignored: one line naming them all. */

import { UsageError } from '../lib/shared/errors.js';

/**
 * Throws when any flag of `flags` ([flag, whether it was given]) was given: `line` words the refusal,
 * from the flags' names and whether they are several.
 */
export function refuseFlags(flags: ReadonlyArray<readonly [string, boolean]>, line: (names: string, several: boolean) => string): void {
  const given = flags.filter(([, isGiven]) => isGiven).map(([flag]) => flag);
  if (given.length > 0) throw new UsageError(line(given.join(', '), given.length > 1));
}
