/**
 * What a caller gives a solve: its options and its progress callback, in a module of their own, as
 * solve.ts and solve-options.ts (which checks them) both import them.
 */

import type { CycleRule, Scoring } from './defaults.js';

export interface SolveOptions {
  readonly m: number;
  readonly n: number;
  /** 'no-cycle' (situational superko, the default) or 'cycle-draw' (simple ko; a longer cycle is a draw). */
  readonly rule?: CycleRule;
  /** 'tromp-taylor' (the default) or 'split-shared' (points reaching both colours split, as the paper scores seki). */
  readonly scoring?: Scoring;
  /**
   * Bytes the solve may hold (a number or a bigint), or a size such as "512M", "4G" or "50%" (of the memory available to
   * the process), as a count's memory (default: half the free memory). Moves beyond it go to files in
   * `scratch` (default: ./scratch), read back in blocks; under cycle-draw, states that do not fit
   * in it go there too (lib/solve/cycle-draw/cycle-draw-on-disk.ts).
   */
  readonly memory?: number | bigint | string;
  readonly scratch?: string;
  /**
   * Under cycle-draw, keep one position of each orbit of the board's rotations and reflections
   * (default true). no-cycle keeps every position, its repetitions being of positions, not
   * orbits (its history search still runs once per orbit).
   */
  readonly symmetry?: boolean;
  /**
   * Under no-cycle, value only the empty board and the states its moves lead to, not every state:
   * the value and first moves are the same, found with far less search, and there is no database
   * to write (default false). cycle-draw values every state either way.
   */
  readonly emptyBoardOnly?: boolean;
  /**
   * Under no-cycle, every state valued: seconds between two checkpoints of the history search in
   * `scratch` (default 60; lib/solve/files/search-checkpoint.ts). A solve finds the checkpoint its board,
   * rule and scoring left there and resumes from it; the caller removes it once the database is
   * written (SolvedBoard.checkpoint).
   */
  readonly checkpointSeconds?: number;
  /**
   * Under no-cycle, search nodes between two reports of the history search's progress (default
   * 65,536): within a state's search, a checkpoint is written at a report.
   */
  readonly nodesPerReport?: number;
  /**
   * Also write the database, every state's value, to this file once solved (lib/solve/files/solve-db.ts;
   * `gocount solve --db`). Checked before the solve starts; it needs every state valued, so not
   * with emptyBoardOnly under no-cycle.
   */
  readonly db?: string;
  /**
   * Under no-cycle, every state valued: called with the checkpoint's file before the solve starts
   * when it resumes from one.
   */
  readonly onResume?: (checkpoint: string) => void;
  /**
   * Called as each phase advances, and with done = total when it ends. In the history search, where
   * one state's search can take minutes, also every nodesPerReport search nodes, with `detail` "N
   * positions searched" (done unchanged).
   */
  readonly onProgress?: SolveProgress;
}

export type SolvePhase = 'positions' | 'moves' | 'forward checking' | 'retrograde' | 'history search';
export type SolveProgress = (phase: SolvePhase, done: number, total: number, detail?: string) => void;
