/**
 * A small Go rules engine for the game graph (paper §4): positions of an m×n board as base-3 codes
 * (point p = y·n + x holds 0 empty, 1 black, 2 white, weighted 3^p), strings and liberties by flood
 * fill, and a move: colour an empty point, remove the opponent's strings without liberties, then
 * the mover's own (suicide is allowed, as in the paper's rules). Meant for boards of a few points.
 */

export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;

export class GoBoard {
  readonly points: number;
  /** neighbours[p]: the points next to p. */
  readonly neighbours: number[][];
  private readonly cells: Uint8Array;
  private readonly seen: Uint8Array;
  private readonly stack: Int32Array;
  private readonly powers: number[];

  constructor(
    readonly m: number,
    readonly n: number,
  ) {
    this.points = m * n;
    this.neighbours = Array.from({ length: this.points }, (_, p) => {
      const [y, x] = [Math.floor(p / n), p % n];
      return [
        [y - 1, x],
        [y + 1, x],
        [y, x - 1],
        [y, x + 1],
      ]
        .filter(([r, c]) => r >= 0 && r < m && c >= 0 && c < n)
        .map(([r, c]) => r * n + c);
    });
    this.cells = new Uint8Array(this.points);
    this.seen = new Uint8Array(this.points);
    this.stack = new Int32Array(this.points);
    this.powers = Array.from({ length: this.points }, (_, p) => 3 ** p);
  }

  /** The number of codes: 3^(mn). */
  get codes(): number {
    return 3 ** this.points;
  }

  /** Whether every string of the position has a liberty. */
  isLegal(code: number): boolean {
    this.load(code);
    this.seen.fill(0);
    for (let p = 0; p < this.points; p++) {
      if (this.cells[p] !== EMPTY && !this.seen[p] && !this.markString(p)) return false;
    }
    return true;
  }

  /** The position after `colour` plays at empty point p (captures, then suicide), as a code. */
  play(code: number, p: number, colour: number): number {
    this.load(code);
    this.cells[p] = colour;
    const enemy = colour === BLACK ? WHITE : BLACK;
    for (const q of this.neighbours[p]) if (this.cells[q] === enemy) this.removeIfDead(q);
    this.removeIfDead(p);
    return this.store();
  }

  /** Whether point p is empty in the position. */
  isEmpty(code: number, p: number): boolean {
    return Math.floor(code / this.powers[p]) % 3 === EMPTY;
  }

  /** The colours of a position, for printing and symmetry. */
  decode(code: number): number[] {
    this.load(code);
    return Array.from(this.cells);
  }

  encode(cells: readonly number[]): number {
    return cells.reduce((code, cell, p) => code + cell * this.powers[p], 0);
  }

  private load(code: number): void {
    for (let p = 0; p < this.points; p++) {
      this.cells[p] = code % 3;
      code = Math.floor(code / 3);
    }
  }

  private store(): number {
    let code = 0;
    for (let p = this.points - 1; p >= 0; p--) code = code * 3 + this.cells[p];
    return code;
  }

  /** Marks p's string in `seen`; returns whether it has a liberty. */
  private markString(p: number): boolean {
    const { cells, seen, stack, neighbours } = this;
    const colour = cells[p];
    let top = 0;
    let liberty = false;
    stack[top++] = p;
    seen[p] = 1;
    while (top > 0) {
      const q = stack[--top];
      for (const r of neighbours[q]) {
        if (cells[r] === EMPTY) liberty = true;
        else if (cells[r] === colour && !seen[r]) {
          seen[r] = 1;
          stack[top++] = r;
        }
      }
    }
    return liberty;
  }

  private removeIfDead(p: number): void {
    if (this.cells[p] === EMPTY) return;
    this.seen.fill(0);
    if (this.markString(p)) return;
    for (let q = 0; q < this.points; q++) if (this.seen[q]) this.cells[q] = EMPTY;
  }
}
