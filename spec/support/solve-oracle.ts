/**
 * The solver's independent oracle: a plain search over whole game histories, on a board held as an
 * array (0 empty, 1 Black, 2 White), sharing no code with the database. It applies the rules as
 * written: suicide illegal, a pass always legal, two passes in a row end the game, area scoring
 * (empty points reaching both colours counted for nobody, or split with the odd one to the player
 * who passed first), komi 0; no-cycle: a move may not recreate a board with the same player to move met
 * earlier in the game; cycle-draw: a move may not retake a single stone at once (recreating the
 * board before the opponent's move by capturing one stone), and a move that brings the game back to
 * a situation met before (board, player to move, whether the last move was a pass, the point barred
 * by ko) ends it as a draw. Exponential: for boards of a few points.
 */

import type { CycleRule, Scoring } from '../../lib/solve/defaults.js';

export interface OracleStart {
  /** The board, row by row (a1 first), 0 empty, 1 Black, 2 White; empty when omitted. */
  readonly board?: readonly number[];
  /** The player to move: 1 Black (default) or 2 White. */
  readonly toMove?: 1 | 2;
  /** Whether the last move was a pass. */
  readonly afterPass?: boolean;
  /** cycle-draw: the point the player to move may not retake at once, or -1. */
  readonly koBan?: number;
}

/** The value, for the player to move, of the game from `start` with no earlier history. */
export function oracleValue(m: number, n: number, rule: CycleRule, start: OracleStart = {}, scoring: Scoring = 'tromp-taylor'): number {
  return new Oracle(m, n, rule, scoring).value(start) + 0; // + 0 turns a negated zero into 0
}

class Oracle {
  private readonly size: number;
  private readonly adjacent: number[][];
  private readonly seen = new Set<string>();

  constructor(
    m: number,
    n: number,
    private readonly rule: CycleRule,
    private readonly scoring: Scoring,
  ) {
    this.size = m * n;
    this.adjacent = [];
    for (let p = 0; p < this.size; p++) {
      const r = Math.floor(p / n);
      const c = p % n;
      const list: number[] = [];
      if (r > 0) list.push(p - n);
      if (r < m - 1) list.push(p + n);
      if (c > 0) list.push(p - 1);
      if (c < n - 1) list.push(p + 1);
      this.adjacent.push(list);
    }
  }

  value(start: OracleStart): number {
    const board = start.board ? [...start.board] : new Array<number>(this.size).fill(0);
    const toMove = start.toMove ?? 1;
    const afterPass = start.afterPass ?? false;
    const ban = start.koBan ?? -1;
    this.seen.clear();
    this.seen.add(this.situation(board, toMove, afterPass, ban));
    // Every value lies in [-size, size]: that window is exact and cuts at a whole-board result.
    return this.search(board, toMove, afterPass, ban, null, -this.size, this.size);
  }

  /** What the rule compares for a repetition. */
  private situation(board: number[], toMove: number, afterPass: boolean, ban: number): string {
    const text = `${board.join('')}${toMove}`;
    return this.rule === 'no-cycle' ? text : `${text}${afterPass ? 'p' : '-'}${ban}`;
  }

  /** Negamax with alpha-beta: exact inside (alpha, beta), a bound outside it. */
  private search(
    board: number[],
    toMove: number,
    afterPass: boolean,
    ban: number,
    before: number[] | null,
    alpha: number,
    beta: number,
  ): number {
    const other = 3 - toMove;
    // Passing: always legal; a second pass ends the game.
    let best: number;
    if (afterPass) best = this.score(board, toMove);
    else best = this.follow(board, other, true, -1, () => -this.search(board, other, true, -1, board, -beta, -alpha));
    if (best > alpha) alpha = best;
    for (let p = 0; p < this.size && alpha < beta; p++) {
      if (board[p] !== 0) continue;
      const { next, taken, takenAt } = this.place(board, p, toMove);
      if (!this.breathes(next, p)) continue; // suicide
      // Simple ko: no retaking one stone to recreate the board before the opponent's move (at the
      // start, whose earlier board is unknown, the barred point stands for it).
      if (this.rule === 'cycle-draw' && taken === 1 && (before !== null ? next.every((v, i) => v === before[i]) : p === ban)) continue;
      if (this.rule === 'no-cycle' && this.seen.has(this.situation(next, other, false, -1))) continue;
      const nextBan = this.rule === 'cycle-draw' && taken === 1 ? this.retakeBan(next, other, takenAt, board) : -1;
      const v = this.follow(next, other, false, nextBan, () => -this.search(next, other, false, nextBan, board, -beta, -alpha));
      if (v > best) best = v;
      if (best > alpha) alpha = best;
    }
    return best;
  }

  /**
   * Enters the situation (board, toMove, afterPass, ban) and values it with `value`, leaving it
   * again after. Met before: under cycle-draw a draw; under no-cycle only a pass gets here, and the
   * game goes on.
   */
  private follow(board: number[], toMove: number, afterPass: boolean, ban: number, value: () => number): number {
    const key = this.situation(board, toMove, afterPass, ban);
    if (this.seen.has(key)) return this.rule === 'cycle-draw' ? 0 : value();
    this.seen.add(key);
    const v = value();
    this.seen.delete(key);
    return v;
  }

  /** After a move took one stone at q: q, if the opponent retaking there would recreate `previous`. */
  private retakeBan(board: number[], toMove: number, q: number, previous: number[]): number {
    const { next, taken } = this.place(board, q, toMove);
    return taken === 1 && next.every((v, i) => v === previous[i]) ? q : -1;
  }

  /** A copy of `board` with a stone of `player` at p and the opponent strings it leaves breathless removed. */
  private place(board: number[], p: number, player: number): { next: number[]; taken: number; takenAt: number } {
    const next = [...board];
    next[p] = player;
    let taken = 0;
    let takenAt = -1;
    for (const q of this.adjacent[p]) {
      if (next[q] !== 3 - player || this.breathes(next, q)) continue;
      const string = this.stringOf(next, q);
      for (const r of string) next[r] = 0;
      taken += string.length;
      takenAt = string[0];
    }
    return { next, taken, takenAt };
  }

  /** Whether the string through p has a liberty. */
  private breathes(board: number[], p: number): boolean {
    return this.stringOf(board, p).some((r) => this.adjacent[r].some((t) => board[t] === 0));
  }

  private stringOf(board: number[], p: number): number[] {
    const colour = board[p];
    const found = [p];
    const inString = new Set([p]);
    for (let i = 0; i < found.length; i++) {
      for (const q of this.adjacent[found[i]]) {
        if (board[q] === colour && !inString.has(q)) {
          inString.add(q);
          found.push(q);
        }
      }
    }
    return found;
  }

  /** The area score for `player`, who passed second. */
  private score(board: number[], player: number): number {
    let total = 0;
    let shared = 0;
    const counted = new Set<number>();
    for (let p = 0; p < this.size; p++) {
      if (board[p] !== 0) {
        total += board[p] === player ? 1 : -1;
        continue;
      }
      if (counted.has(p)) continue;
      const region = this.stringOf(board, p);
      region.forEach((r) => counted.add(r));
      const touches = new Set(region.flatMap((r) => this.adjacent[r].map((t) => board[t]).filter((v) => v !== 0)));
      if (touches.size === 1) total += touches.has(player) ? region.length : -region.length;
      if (touches.size === 2) shared += region.length;
    }
    // Split shared points: the odd one, if any, to the opponent, who passed first.
    if (this.scoring === 'split-shared' && shared % 2 === 1) total -= 1;
    return total;
  }
}
