/**
 * The checks the library's exported functions make of their arguments, shared so that each refuses
 * bad input alike: an options object with no unknown key, whole numbers within limits, switches,
 * signals and callbacks. Errors name the library's argument, never a command-line flag.
 */

import { closestWord } from './closest-word.js';
import { InvalidOptionError, UsageError } from './errors.js';

/** Every option of an options type, once: a Record, so that the compiler checks the list against the type. */
export type OptionNames<T> = Readonly<Record<keyof T, true>>;

/**
 * Refuses `options` unless it is an object whose keys are all in `names`; an unknown key is named,
 * with the option it most likely meant. `what` names the function ("solve").
 */
export function checkOptionNames<T>(what: string, options: T, names: OptionNames<T>): void {
  const known = Object.keys(names);
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new UsageError(`${what} takes an options object, { ${known.join(', ')} }, not ${shown(options)}`);
  for (const [key, value] of Object.entries(options)) {
    if (Object.hasOwn(names, key)) continue;
    const meant = closestWord(key, known);
    throw new InvalidOptionError(key, shown(value), `not an option of ${what}${meant === undefined ? '' : ` (did you mean ${meant}?)`}`);
  }
}

/**
 * A whole number from `least` to `most`, or an InvalidOptionError naming `option`; `problem`
 * replaces the usual words ("must be a whole number from 1 to 6").
 */
export function wholeNumber(option: string, value: unknown, least: number, most = Number.MAX_SAFE_INTEGER, problem?: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= least && value <= most) return value;
  const range = most !== Number.MAX_SAFE_INTEGER ? ` from ${least} to ${most}` : least === 0 ? '' : ` of at least ${least}`;
  throw new InvalidOptionError(option, shown(value), problem ?? `must be a whole number${range}`);
}

/** A switch: true, false or left out. */
export function switchOption(option: string, value: unknown): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  throw new InvalidOptionError(option, shown(value), 'must be true or false');
}

/** An AbortSignal or nothing. */
export function signalOption(value: unknown): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new InvalidOptionError('signal', shown(value), 'not an AbortSignal');
}

/** A function or nothing (onProgress). */
export function callbackOption<F>(option: string, value: F | undefined): F | undefined {
  if (value === undefined || typeof value === 'function') return value;
  throw new InvalidOptionError(option, shown(value), 'not a function');
}

/** A string (a file, a path, a text). */
export function stringArgument(option: string, value: unknown): string {
  if (typeof value === 'string') return value;
  throw new InvalidOptionError(option, shown(value), 'not a string');
}

/** A value as an error message shows it: strings quoted (so that "3" is not taken for 3), objects by kind. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return String(value);
}
