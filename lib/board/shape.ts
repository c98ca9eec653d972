/**
 * Board sizes and their orientation. The paper's m×n board is m points high and n wide; the engine
 * sweeps it column by column, so m is the state width. L(m, n) = L(n, m), and the state count grows
 * like 5.4^width, so by default the narrower side is the width.
 */

import { MAX_WIDTH } from '../border/layout.js';
import { shown } from '../shared/arguments.js';
import { InvalidOptionError, UsageError } from '../shared/errors.js';

export interface Board {
  /** As the user gave them. */
  readonly m: number;
  readonly n: number;
}

export interface Sweep {
  /** Points per column: the state width. */
  readonly width: number;
  /** Columns swept. */
  readonly columns: number;
}

/** The sweep of a board: narrower side as width, unless keepOrientation (then m is the width). */
export function sweepOf(board: Board, keepOrientation = false): Sweep {
  const width = keepOrientation ? board.m : Math.min(board.m, board.n);
  const columns = keepOrientation ? board.n : Math.max(board.m, board.n);
  if (width > MAX_WIDTH) {
    const side = keepOrientation ? 'height m' : 'narrower side';
    throw new UsageError(
      `board ${board.m}x${board.n}: the ${side} is ${width}, above the widest state gocount handles (${MAX_WIDTH})`,
      'GOCOUNT_INVALID_SIZE',
    );
  }
  if (columns > MAX_COLUMNS)
    throw new UsageError(
      `board ${board.m}x${board.n}: ${columns} columns, above the most a run file records (${MAX_COLUMNS})`,
      'GOCOUNT_INVALID_SIZE',
    );
  return { width, columns };
}

/** Run files record the columns of their count in 16 bits. */
export const MAX_COLUMNS = 65535;

/**
 * The board m × n given as numbers, checked as parseBoard checks words: a side that is not a number
 * is an InvalidOptionError naming it, a number that is no board's side a board size refused.
 */
export function boardOf(m: number, n: number): Board {
  for (const [name, side] of [
    ['m', m],
    ['n', n],
  ] as const) {
    if (typeof side !== 'number')
      throw new InvalidOptionError(name, shown(side), side === undefined ? 'missing: a board is m by n points' : 'not a number');
  }
  return parseBoard([String(m), String(n)]);
}

/**
 * Reads a board from "9x9" (or "9×9", "9X9") or from two numbers "9" "9". Anything else — zero,
 * negatives, fractions, words, a third number — is a UsageError naming what was given.
 */
export function parseBoard(words: readonly (string | number)[]): Board {
  const text = words.map(String).join(' ').trim();
  const parts = words.length === 1 ? String(words[0]).split(/[x×X]/) : words.map(String);
  if (parts.length !== 2) {
    throw new UsageError(`board size "${text}" is not of the form MxN (for example 9x9) or M N`, 'GOCOUNT_INVALID_SIZE');
  }
  const [m, n] = parts.map((part, index) => parseSide(part, index === 0 ? 'm' : 'n', text));
  return { m, n };
}

function parseSide(part: string, name: string, text: string): number {
  const trimmed = part.trim();
  if (/^\d+$/.test(trimmed) && !Number.isSafeInteger(Number(trimmed)))
    throw new UsageError(`board size "${text}": ${name} = ${trimmed} is too large`, 'GOCOUNT_INVALID_SIZE');
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < 1) {
    throw new UsageError(`board size "${text}": ${name} = "${trimmed}" is not a positive integer`, 'GOCOUNT_INVALID_SIZE');
  }
  return Number(trimmed);
}
