/** `gocount solve --db FILE --position TEXT`: a position's stored value and its best moves. */

import { UsageError } from '../errors.js';
import { parsePosition } from './rules/position-text.js';
import { readSolveDb, SolveDbHeader } from './files/solve-db.js';
import { firstMoves, MoveValue, storedBoard } from './solve.js';
import { AFTER_PASS, KO, PLAIN } from './rules/state-space.js';

export interface LookUpOptions {
  readonly position: string;
  readonly toMove?: 'black' | 'white';
  /** The last move was a pass. */
  readonly afterPass?: boolean;
  /** cycle-draw: the point (as a1, b2, …) the player to move may not retake at once. */
  readonly ko?: string;
}

export interface LookUpResult {
  readonly header: SolveDbHeader;
  /** The value for the player to move, in points. */
  readonly value: number;
  readonly bestMoves: string[];
  readonly moves: MoveValue[];
}

export function lookUp(file: string, options: LookUpOptions): LookUpResult {
  const read = readSolveDb(file);
  if (typeof read === 'string') throw new UsageError(`${file}: ${read}`);
  const { header, values } = read;
  const solved = storedBoard(header, values);
  const { space } = solved;
  const key = parsePosition(options.position, space.board, options.toMove ?? 'black');
  let ko = -1;
  if (options.ko !== undefined) {
    ko = Array.from({ length: space.board.points }, (_, p) => space.board.pointName(p)).indexOf(options.ko);
    if (ko < 0) throw new UsageError(`ko point ${options.ko}: not a point of ${header.m}x${header.n}`);
  }
  const status = options.afterPass ? AFTER_PASS : ko >= 0 ? KO : PLAIN;
  const state = space.stateOf(key, status, ko);
  if (state < 0) throw new UsageError(`ko point ${options.ko}: the player to move cannot be barred from retaking there`);
  const moves = firstMoves(solved, key, status, ko);
  const value = values[state];
  return { header, value, bestMoves: moves.filter((move) => move.value === value).map((move) => move.move), moves };
}
