/**
 * The independent oracle: enumerate all 3^(mn) positions of an m×n board and test each one.
 * It shares nothing with the border-state code: positions are two bitboards (black, white), a
 * string has a liberty when flood-filling from its stones next to empty points covers it.
 * Boards up to 16 points (3^16 ≈ 43 million positions, about a second).
 */

export interface Bitboard {
  readonly points: number;
  readonly full: number;
  /** Every point next to a point of `set`. */
  neighbours(set: number): number;
}

export function bitboard(m: number, n: number): Bitboard {
  const points = m * n;
  if (points > 30) throw new RangeError('bitboards here hold at most 30 points');
  const full = points === 0 ? 0 : (2 ** points - 1) | 0;
  let firstColumn = 0;
  let lastColumn = 0;
  for (let r = 0; r < m; r++) {
    firstColumn |= 1 << (r * n);
    lastColumn |= 1 << (r * n + n - 1);
  }
  return {
    points,
    full,
    neighbours: (set) => (((set & ~lastColumn) << 1) | ((set & ~firstColumn) >>> 1) | (set << n) | (set >>> n)) & full,
  };
}

/** Whether every string of `stones` reaches a point of `empty`. */
function allStringsBreathe(board: Bitboard, stones: number, empty: number): boolean {
  let alive = stones & board.neighbours(empty);
  for (;;) {
    const grown = alive | (board.neighbours(alive) & stones);
    if (grown === alive) return alive === stones;
    alive = grown;
  }
}

/** Whether the position (black, white) is legal: every string has a liberty. */
export function isLegalPosition(board: Bitboard, black: number, white: number): boolean {
  const empty = board.full & ~(black | white);
  return allStringsBreathe(board, black, empty) && allStringsBreathe(board, white, empty);
}

/** L(m, n) by brute force. */
export function bruteForceLegal(m: number, n: number): number {
  const board = bitboard(m, n);
  if (board.points > 16) throw new RangeError('brute force is for boards of at most 16 points');
  let legal = 0;
  for (let black = 0; black <= board.full; black++) {
    const rest = board.full & ~black;
    // Every white ⊆ rest, counting down through the subsets and ending with the empty one.
    for (let white = rest; ; white = (white - 1) & rest) {
      if (isLegalPosition(board, black, white)) legal++;
      if (white === 0) break;
    }
  }
  return legal;
}
