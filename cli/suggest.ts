/**
 * "gocount verfy", "--Memory": a word close to a command's name, or a flag close to one of the
 * command's flags, is taken for a typo of it.
 */

import { closestWord } from '../lib/shared/closest-word.js';

/** The commands a mistyped word is compared with. */
const COMMANDS = ['verify', 'inspect', 'states', 'recurrence', 'estimate', 'sample', 'games', 'report', 'task'];

/** The command `word` most likely meant. */
export function suggestCommand(word: string): string | undefined {
  return closestWord(word, COMMANDS);
}
