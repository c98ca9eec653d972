/**
 * yargs's "Unknown arguments: Memory, b" in gocount's words: each flag as it was typed, with the
 * command's flag it most likely meant, as a mistyped command gets (`unknown option "--Memory": did
 * you mean "--memory"?`), and each word no positional takes.
 */

import { closestWord } from '../lib/shared/closest-word.js';

/** The long flags of the command being parsed, without dashes ("no-" forms of its switches too); its builder sets them. */
let commandFlags: string[] = [];

export function setCommandFlags(names: readonly string[]): void {
  commandFlags = names.filter((name) => name.length > 1);
}

/** The error line for the unknown arguments `names` (as yargs lists them) among the command line `args`. */
export function unknownArgumentsLine(names: readonly string[], args: readonly string[]): string {
  const end = args.indexOf('--');
  const flags = (end < 0 ? args : args.slice(0, end)).filter((arg) => arg.startsWith('-'));
  let allMeant = true;
  // yargs lists an unknown "--all-column" twice: as typed and as its camelCase key (allColumn).
  const typed = names.filter((name) => !names.some((other) => other !== name && camelCase(other) === name));
  const parts = typed.map((name) => {
    // yargs gives "--no-kep" as "kep".
    const long = flags.map((arg) => /^--((?:no-)?)([^=]*)/.exec(arg)).find((match) => match?.[2] === name);
    if (long) {
      const meant = closestWord(`${long[1]}${name}`, commandFlags);
      if (meant) return `unknown option "--${long[1]}${name}": did you mean "--${meant}"?`;
      allMeant = false;
      return `unknown option "--${long[1]}${name}"`;
    }
    allMeant = false;
    return name.length === 1 && flags.some((arg) => /^-[^-]/.test(arg) && arg.includes(name))
      ? `unknown option "-${name}"`
      : `unexpected argument "${name}"`;
  });
  return `${parts.join('; ')}${allMeant ? '' : ' (see gocount --help)'}`;
}

/** yargs's key for a flag of several words: all-column → allColumn. */
function camelCase(flag: string): string {
  return flag.replace(/-+([^-])/g, (_, letter: string) => letter.toUpperCase());
}
