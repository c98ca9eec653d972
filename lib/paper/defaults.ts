/**
 * What the paper's toolkit takes unless told, and its limits that the command's help names: in a
 * module of their own, so that the help is printed without loading the toolkit.
 */

/** The probes `gocount sample` and sample average unless told. */
export const DEFAULT_RUNS = 1000;
/** Decimal digits of λ_M and a_M: far more would take long to compute for nothing. */
export const MAX_DIGITS = 1000;
/** The digits `gocount recurrence` and recurrenceOf give unless told. */
export const DEFAULT_DIGITS = 20;
/** The game graph (`gocount games`) of boards of up to this many points: 3×4's has 321689 nodes and 2.9M edges. */
export const MAX_GRAPH_POINTS = 12;
/** The games counted, on boards of up to this many points: 2×2 takes minutes; the next ones have 10^31 games and more. */
export const MAX_GAME_POINTS = 4;
