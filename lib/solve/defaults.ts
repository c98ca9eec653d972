/**
 * What a solve and a look-up, by the library or the command, take unless told: in a module of their
 * own, so that the command's help names them without loading the solver.
 */

import type { Scoring } from './rules/solve-board.js';
import type { CycleRule } from './rules/state-space.js';

export const DEFAULT_RULE: CycleRule = 'no-cycle';
export const DEFAULT_SCORING: Scoring = 'tromp-taylor';
export const DEFAULT_SYMMETRY = true;
/** The player to move in a look-up. */
export const DEFAULT_TO_MOVE = 'black';
