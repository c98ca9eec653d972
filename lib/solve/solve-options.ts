/**
 * A solve's options, checked and given their defaults once, before any work: for the library's
 * `solve` and the command alike. Errors name the library's option (InvalidOptionError.option).
 */

import os from 'node:os';
import { callbackOption, checkOptionNames, OptionNames, switchOption } from '../shared/arguments.js';
import { boardOf } from '../board/shape.js';
import { scratchOption } from '../count/options.js';
import { availableMemory } from '../shared/available-memory.js';
import { defaultMemoryBudget } from '../engine/budget.js';
import { InvalidOptionError } from '../shared/errors.js';
import { writableFile } from '../format/writable-file.js';
import { sizeOption } from '../shared/units.js';
import type { SolveOptions, SolveProgress } from './option-types.js';
import { CYCLE_RULES, type CycleRule, DEFAULT_RULE, DEFAULT_SCORING, DEFAULT_SYMMETRY, SCORINGS, type Scoring } from './defaults.js';

const SOLVE_OPTIONS: OptionNames<SolveOptions> = {
  m: true,
  n: true,
  rule: true,
  scoring: true,
  memory: true,
  scratch: true,
  symmetry: true,
  emptyBoardOnly: true,
  checkpointSeconds: true,
  nodesPerReport: true,
  db: true,
  onResume: true,
  onProgress: true,
};

export interface CheckedSolveOptions {
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  readonly scoring: Scoring;
  /** Bytes. */
  readonly memory: number;
  /** The scratch folder, resolved. */
  readonly folder: string;
  readonly symmetry: boolean;
  readonly emptyBoardOnly: boolean;
  readonly checkpointSeconds?: number;
  readonly nodesPerReport?: number;
  /** The database's file, as given. */
  readonly db?: string;
  readonly onResume: (checkpoint: string) => void;
  readonly onProgress: SolveProgress;
}

export function checkSolveOptions(options: SolveOptions): CheckedSolveOptions {
  checkOptionNames('solve', options, SOLVE_OPTIONS);
  const { m, n } = boardOf(options.m, options.n);
  const { rule = DEFAULT_RULE, scoring = DEFAULT_SCORING, checkpointSeconds, nodesPerReport } = options;
  if (!CYCLE_RULES.includes(rule)) throw new InvalidOptionError('rule', rule, `must be one of ${CYCLE_RULES.join(', ')}`);
  if (!SCORINGS.includes(scoring)) throw new InvalidOptionError('scoring', scoring, `must be one of ${SCORINGS.join(', ')}`);
  if (checkpointSeconds !== undefined && !(typeof checkpointSeconds === 'number' && checkpointSeconds >= 0 && checkpointSeconds < Infinity))
    throw new InvalidOptionError('checkpointSeconds', checkpointSeconds, 'not a number of seconds, 0 or more');
  if (nodesPerReport !== undefined && !(Number.isSafeInteger(nodesPerReport) && nodesPerReport > 0))
    throw new InvalidOptionError('nodesPerReport', nodesPerReport, 'not a whole number of search nodes, 1 or more');
  const checked: CheckedSolveOptions = {
    m,
    n,
    rule,
    scoring,
    // As a count's: bytes, or a size such as "64M", "4G" or "50%" of the memory available.
    memory:
      options.memory === undefined ? defaultMemoryBudget(os.freemem()) : sizeOption('memory', options.memory, availableMemory().bytes),
    folder: scratchOption(options.scratch),
    symmetry: switchOption('symmetry', options.symmetry) ?? DEFAULT_SYMMETRY,
    emptyBoardOnly: switchOption('emptyBoardOnly', options.emptyBoardOnly) ?? false,
    checkpointSeconds,
    nodesPerReport,
    db: options.db,
    onResume: callbackOption('onResume', options.onResume) ?? (() => {}),
    onProgress: callbackOption('onProgress', options.onProgress) ?? (() => {}),
  };
  if (options.db !== undefined) {
    writableFile('db', options.db); // before the solve, which may take hours: not after it
    if (checked.emptyBoardOnly && rule === 'no-cycle')
      throw new InvalidOptionError('db', options.db, 'needs every state valued: not with emptyBoardOnly');
  }
  return checked;
}
