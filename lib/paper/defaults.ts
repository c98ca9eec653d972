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
