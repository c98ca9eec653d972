/** How the command reports an error: one line, with its own flag names for the library's options. */

import { GocountError, InvalidOptionError, shortenPaths } from '../lib/shared/errors.js';

/** Library arguments the command names otherwise: positionals without dashes, inspectRun's limit as --first. */
const NAMED_OTHERWISE: Record<string, string> = { height: 'height', limit: '--first' };

/** The flag of a library option: fanIn → --fan-in. */
export function flagOf(option: string): string {
  if (Object.hasOwn(NAMED_OTHERWISE, option)) return NAMED_OTHERWISE[option];
  return `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

export function errorLine(error: GocountError): string {
  return error instanceof InvalidOptionError ? shortenPaths(`${flagOf(error.option)} ${error.value}: ${error.problem}`) : error.message;
}
