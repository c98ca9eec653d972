/**
 * "gocount verfy", "--Memory": a word close to a command's name, or a flag close to one of the
 * command's flags, is taken for a typo of it.
 */

/** The commands a mistyped word is compared with. */
const COMMANDS = ['verify', 'inspect', 'states', 'recurrence', 'estimate', 'sample', 'games', 'report', 'task'];

/** The command `word` most likely meant. */
export function suggestCommand(word: string): string | undefined {
  return closest(word, COMMANDS);
}

/** The name of `names` that `word` most likely meant, in any case: within two edits, and closer than half its length. */
export function closest(word: string, names: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [name, distance];
  }
  return bestDistance <= Math.min(2, Math.floor(word.length / 2)) ? best : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
