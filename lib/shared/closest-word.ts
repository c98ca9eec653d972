/** The word a typo most likely meant, for "did you mean …?": the command's mistyped commands and the library's mistyped options. */

/** The word of `words` closest to `typed`: within two edits, and closer than half its length; undefined when none is. */
export function closestWord(typed: string, words: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const word of words) {
    const distance = editDistance(typed.toLowerCase(), word.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [word, distance];
  }
  return bestDistance <= Math.min(2, Math.floor(typed.length / 2)) ? best : undefined;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
