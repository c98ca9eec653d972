/** `gocount solve --db FILE --position TEXT`: a position's stored value and its best moves. */

import { checkOptionNames, type OptionNames, shown, stringArgument, switchOption } from '../shared/arguments.js';
import { InvalidOptionError, UsageError } from '../shared/errors.js';
import { parsePosition } from './rules/position-text.js';
import { readSolveDb, SolveDbHeader } from './files/solve-db.js';
import { firstMoves, MoveValue, storedBoard } from './solve.js';
import { AFTER_PASS, KO, PLAIN } from './rules/state-space.js';
import { DEFAULT_TO_MOVE } from './defaults.js';

export interface LookUpOptions {
  /** The rows from the top (the last is row 1), separated by /: X Black, O White, . empty. */
  readonly position: string;
  /** The player to move (default black). */
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

const LOOK_UP_OPTIONS: OptionNames<LookUpOptions> = { position: true, toMove: true, afterPass: true, ko: true };

/** A position's value and the value of each of its moves, from a database written by solve's `db`. */
export function lookUp(file: string, options: LookUpOptions): LookUpResult {
  stringArgument('file', file);
  checkOptionNames('lookUp', options, LOOK_UP_OPTIONS);
  stringArgument('position', options.position);
  if (options.toMove !== undefined && options.toMove !== 'black' && options.toMove !== 'white')
    throw new InvalidOptionError('toMove', shown(options.toMove), 'must be black or white');
  switchOption('afterPass', options.afterPass);
  if (options.ko !== undefined) stringArgument('ko', options.ko);
  const read = readSolveDb(file);
  if (typeof read === 'string') throw new UsageError(`${file}: ${read}`);
  const { header, values } = read;
  const solved = storedBoard(header, values);
  const { space } = solved;
  const key = parsePosition(options.position, space.board, options.toMove ?? DEFAULT_TO_MOVE);
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
