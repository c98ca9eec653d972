/** "gocount verfy": a word where a board size goes, close to a command's name, is taken for a typo. */

import { closestWord } from '../lib/closest-word.js';

/** The commands a mistyped word is compared with. */
const COMMANDS = ['verify', 'inspect', 'states', 'recurrence', 'estimate', 'sample', 'games', 'report', 'task'];

/** The command `word` most likely meant: within two edits, and closer than half its length. */
export function suggestCommand(word: string): string | undefined {
  return closestWord(word, COMMANDS);
}
