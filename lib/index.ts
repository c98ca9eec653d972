/**
 * gocount as a library: count legal Go positions exactly, check a count's files, and the toolkit of
 * the paper's other computations. Everything public is exported here, and only here.
 */

// The declarations use Node's types (Buffer, NodeJS.ErrnoException, streams): this line, kept in
// index.d.ts, loads them for a consumer's compiler, which since TypeScript 7 includes no @types/* unasked.
/// <reference types="node" preserve="true" />

import { registerSolveFileChecks } from './solve/files/file-checks.js';
import { markInUse } from './shared/in-use.js';

// A build in the checkout this process runs from waits for it (cli/build.mjs).
markInUse();
// verify knows the solver's files only through the checks the solver registers with it.
registerSolveFileChecks();

export { countLegal, countLegalInMemory } from './count/count-legal.js';
export type { ColumnCount, CountResult, InMemoryCountOptions } from './count/count-legal.js';
export type { CountOptions } from './count/option-types.js';
export { planCount } from './count/plan.js';
export type { ColumnPlan, CountPlan } from './count/plan.js';
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
export type { GamesOptions, GamesResult, SampleOptions, SampleOutcome } from './paper/toolkit.js';
export { solve } from './solve/solve.js';
export type { MoveValue, SolveResult } from './solve/solve.js';
export type { SolveOptions, SolvePhase, SolveProgress } from './solve/option-types.js';
export type { RetrogradeStats } from './solve/moves/forward-check.js';
export { lookUp } from './solve/look-up.js';
export type { LookUpOptions, LookUpResult } from './solve/look-up.js';
export type { SolveDbHeader } from './solve/files/solve-db.js';
export { CYCLE_RULES, SCORINGS } from './solve/defaults.js';
export type { CycleRule, Scoring } from './solve/defaults.js';
export type { SampleResult } from './paper/sample/heuristic-sampling.js';
export { AbortedError, GocountError, InvalidOptionError, RunFileError, UsageError } from './shared/errors.js';
export type { GocountErrorCode } from './shared/errors.js';
