/**
 * Human-readable border states: one character per border field, top to bottom.
 *
 *   #  edge (off the board, first column only)      .  empty
 *   X  black stone with a liberty                    O  white stone with a liberty
 *   A B C …  libertyless black stones, one letter per string (same letter = connected)
 *   a b c …  libertyless white stones, likewise
 *
 * Used by error messages, `inspect`, debugging and the tests (which also parse it back).
 */

import { BLACK, BorderStates, EDGE, EMPTY, LIBERTYLESS, STONE, WHITE } from './border.js';

const STRING_LETTERS = 'ABCDEFGHIJKLMNPQRSTUVWYZ'; // no O or X: those mean stones with liberties

/** Renders (hi, lo) at step y, or throws when it is not a well-formed state. */
export function renderState(states: BorderStates, hi: number, lo: number, y: number): string {
  if (!states.decode(hi, lo, y)) {
    throw new Error(`not a well-formed border state of width ${states.width} at step ${y}: ${describeCode(hi, lo)}`);
  }
  const { width, kind, colour, group } = states;
  const letterOf = new Map<number, string>();
  const used = [0, 0];
  let text = '';
  for (let i = 0; i < width; i++) {
    switch (kind[i]) {
      case EDGE:
        text += '#';
        break;
      case EMPTY:
        text += '.';
        break;
      case STONE:
        text += colour[i] === BLACK ? 'X' : 'O';
        break;
      case LIBERTYLESS: {
        let letter = letterOf.get(group[i]);
        if (letter === undefined) {
          letter = STRING_LETTERS[used[colour[i]]++];
          if (colour[i] === WHITE) letter = letter.toLowerCase();
          letterOf.set(group[i], letter);
        }
        text += letter;
        break;
      }
    }
  }
  return text;
}

/** The raw code, for messages about states that do not decode. */
export function describeCode(hi: number, lo: number): string {
  return `hi=0x${hi.toString(16)} lo=0x${lo.toString(16)}`;
}

/**
 * Parses a rendering back into its class code at step y, written to out[at], out[at + 1].
 * Colours may be given either way round: the class is the same.
 */
export function parseState(states: BorderStates, text: string, y: number, out: Uint32Array, at = 0): void {
  const { width } = states;
  if (text.length !== width) throw new Error(`state "${text}" has ${text.length} points, expected ${width}`);
  const kind = new Uint8Array(width);
  const colour = new Uint8Array(width);
  const group = new Uint8Array(width);
  const labels = new Map<string, number>();
  for (let i = 0; i < width; i++) {
    const ch = text[i];
    if (ch === '#') kind[i] = EDGE;
    else if (ch === '.') kind[i] = EMPTY;
    else if (ch === 'X' || ch === 'O') {
      kind[i] = STONE;
      colour[i] = ch === 'X' ? BLACK : WHITE;
    } else if (/^[A-Za-z]$/.test(ch)) {
      kind[i] = LIBERTYLESS;
      colour[i] = ch === ch.toUpperCase() ? BLACK : WHITE;
      let label = labels.get(ch);
      if (label === undefined) labels.set(ch, (label = i));
      group[i] = label;
    } else {
      throw new Error(`state "${text}": unknown point '${ch}'`);
    }
  }
  states.encodeBorder(kind, colour, group, y, out, at);
}
