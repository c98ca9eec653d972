/**
 * What a solve and a look-up, by the library or the command, take unless told, and the rules and
 * scorings they may be told: in a module of their own, so that the command's help names them
 * without loading the solver.
 */

/**
 * How a finished game is scored. Both are area scoring: a player's stones and the empty points
 * that reach only their colour. 'tromp-taylor': empty points reaching both colours count for
 * nobody. 'split-shared': they are split equally, an odd one going to the player who passed first
 * (the scoring of seki in the endgame-database paper).
 */
export const SCORINGS = ['tromp-taylor', 'split-shared'] as const;
export type Scoring = (typeof SCORINGS)[number];

/**
 * How a solve treats a repeated position. 'no-cycle': no move may repeat a position (situational
 * superko). 'cycle-draw': simple ko, and a longer cycle is a draw.
 */
export const CYCLE_RULES = ['no-cycle', 'cycle-draw'] as const;
export type CycleRule = (typeof CYCLE_RULES)[number];

export const DEFAULT_RULE: CycleRule = 'no-cycle';
export const DEFAULT_SCORING: Scoring = 'tromp-taylor';
export const DEFAULT_SYMMETRY = true;
/** The player to move in a look-up. */
export const DEFAULT_TO_MOVE = 'black';
