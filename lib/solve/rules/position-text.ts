/**
 * Positions as text for `gocount solve --position`: rows separated by '/', the top row first as on
 * a diagram (the last row given is row 1), X a black stone, O a white one, '.' an empty point.
 */

import { UsageError } from '../../shared/errors.js';
import { keyOf, moverOf, opponentOf, SolveBoard } from './solve-board.js';
import { counted } from '../../shared/plural.js';

/** The key of `text` seen from the player to move, checked against the board's shape. */
export function parsePosition(text: string, board: SolveBoard, toMove: 'black' | 'white'): number {
  const rows = text.trim().split('/');
  if (rows.length !== board.m || rows.some((row) => row.length !== board.n)) {
    throw new UsageError(`position "${text}": give ${counted(board.m, 'row')} of ${counted(board.n, 'point')} each, separated by '/'`);
  }
  let black = 0;
  let white = 0;
  rows.forEach((row, i) => {
    const r = board.m - 1 - i;
    for (let c = 0; c < board.n; c++) {
      const mark = row[c].toUpperCase();
      const point = 1 << (r * board.n + c);
      if (mark === 'X') black |= point;
      else if (mark === 'O') white |= point;
      else if (mark !== '.') throw new UsageError(`position "${text}": '${row[c]}' is not X, O or '.'`);
    }
  });
  if (!board.legal(black, white)) throw new UsageError(`position "${text}": a string has no liberty`);
  return toMove === 'black' ? keyOf(black, white) : keyOf(white, black);
}

/** The position of `key` as text, the player to move's stones X: what parsePosition reads back. */
export function positionText(board: SolveBoard, key: number): string {
  const rows: string[] = [];
  for (let r = board.m - 1; r >= 0; r--) {
    let row = '';
    for (let c = 0; c < board.n; c++) {
      const point = 1 << (r * board.n + c);
      row += moverOf(key) & point ? 'X' : opponentOf(key) & point ? 'O' : '.';
    }
    rows.push(row);
  }
  return rows.join('/');
}
