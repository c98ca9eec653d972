/**
 * gocount as a library: count legal Go positions exactly, check a count's files, and the toolkit of
 * the paper's other computations. Everything public is exported here, and only here.
 */

export { countLegal } from './count/count-legal.js';
export type { ColumnCount, CountResult } from './count/count-legal.js';
export type { CountOptions } from './count/count-options.js';
export { planCount } from './count/count-plan.js';
export type { ColumnPlan, CountPlan } from './count/count-plan.js';
export { parseStepLog, readStepLog } from './format/step-log.js';
export type { StepLogEntry } from './format/step-log.js';
export type { ProgressEvent, OnProgress, StepReport } from './observe/progress.js';
export type { CountStats } from './observe/stats.js';
export type { Residue } from './residues/crt.js';
export { verifyPath } from './verify/verify.js';
export type { VerifyProgress, VerifyReport } from './verify/verify.js';
export { inspectRun } from './verify/inspect.js';
export { validStates } from './paper/valid-classes.js';
export { recurrenceOf as recurrence } from './paper/recurrence/recurrence-report.js';
export { estimateBoard as estimate } from './paper/estimate/estimate-board.js';
export { games, sample } from './paper/toolkit.js';
export type { GamesOptions, GamesResult, SampleOptions } from './paper/toolkit.js';
export { solve } from './solve/solve.js';
export type { MoveValue, SolveOptions, SolveResult } from './solve/solve.js';
export type { CycleRule } from './solve/state-space.js';
export type { Scoring } from './solve/solve-board.js';
export type { SampleResult } from './paper/sample/heuristic-sampling.js';
export { AbortedError, GocountError, InvalidOptionError, RunFileError, UsageError } from './shared/errors.js';
export type { GocountErrorCode } from './shared/errors.js';
