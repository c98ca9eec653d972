/**
 * The options of a count, checked and completed in one place: the library's countLegal and the
 * command both call normalizeCountOptions, so a default or a limit is defined once. Errors name the
 * library's option (InvalidOptionError.option); the command maps that name to its flag.
 */

import os from 'node:os';
import path from 'node:path';
import { InvalidOptionError } from '../errors.js';
import { Board, boardOf, Sweep, sweepOf } from '../board/shape.js';
import { defaultMemoryBudget } from '../engine/budget.js';
import { MAX_WORKERS } from '../engine/count.js';
import type { OnProgress } from '../engine/progress.js';
import { ignoreProgress } from '../engine/progress.js';
import { parseSize } from '../units.js';

export interface CountOptions {
  /** The board: m rows (the sweep's width unless it is the wider side) by n columns. */
  readonly m: number;
  readonly n: number;
  /** Bytes, or a size such as "512M" or "4G". Default: half the free memory, at least 256 MiB. */
  readonly memory?: number | string;
  /** Folder for run files; a count in it resumes. Default: "scratch", from the working directory. */
  readonly scratch?: string;
  /** Refuse to start when the count may need more disk than this (bytes or a size). */
  readonly disk?: number | string;
  /** Worker threads, 1 to MAX_WORKERS. Default: the number a resumed count recorded, else one per core. */
  readonly workers?: number;
  /** Moduli per pass. Default: all in one pass. */
  readonly residuesPerPass?: number;
  /** The most run files one merge opens. Default: DEFAULT_FAN_IN. */
  readonly fanIn?: number;
  /** Keep every step's run files and manifests. */
  readonly keep?: boolean;
  /** Sweep the board m points wide as given, instead of along its narrower side. */
  readonly keepOrientation?: boolean;
  /** Also return L(width, k) for every column prefix k. */
  readonly allColumns?: boolean;
  /** Stops the count between two steps; it resumes from the scratch folder. */
  readonly signal?: AbortSignal;
  readonly onProgress?: OnProgress;
}

export interface NormalizedCountOptions {
  readonly board: Board;
  readonly sweep: Sweep;
  readonly memory: number;
  readonly scratchDir: string;
  readonly disk?: number;
  /** Undefined: the number a resumed count recorded, else one per core (engine/count.ts). */
  readonly workers?: number;
  readonly residuesPerPass?: number;
  readonly fanIn: number;
  readonly keep: boolean;
  readonly allColumns: boolean;
  readonly signal?: AbortSignal;
  readonly onProgress: OnProgress;
}

export const DEFAULT_FAN_IN = 64;
export const DEFAULT_SCRATCH = 'scratch';

export function normalizeCountOptions(options: CountOptions): NormalizedCountOptions {
  const board = boardOf(options.m, options.n);
  const fanIn = options.fanIn ?? DEFAULT_FAN_IN;
  if (!Number.isInteger(fanIn) || fanIn < 2) throw new InvalidOptionError('fanIn', fanIn, 'must be an integer of at least 2');
  const { workers, residuesPerPass } = options;
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= MAX_WORKERS)) {
    throw new InvalidOptionError('workers', workers, `must be an integer from 1 to ${MAX_WORKERS}`);
  }
  if (residuesPerPass !== undefined && !(Number.isInteger(residuesPerPass) && residuesPerPass >= 1)) {
    throw new InvalidOptionError('residuesPerPass', residuesPerPass, 'must be an integer of at least 1');
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw new InvalidOptionError('signal', options.signal, 'not an AbortSignal');
  return {
    board,
    sweep: sweepOf(board, options.keepOrientation ?? false),
    memory: options.memory === undefined ? defaultMemoryBudget(os.freemem()) : sizeOption('memory', options.memory),
    scratchDir: path.resolve(options.scratch ?? DEFAULT_SCRATCH),
    disk: options.disk === undefined ? undefined : sizeOption('disk', options.disk),
    workers,
    residuesPerPass,
    fanIn,
    keep: options.keep ?? false,
    allColumns: options.allColumns ?? false,
    signal: options.signal,
    onProgress: options.onProgress ?? ignoreProgress,
  };
}

function sizeOption(option: string, value: number | string): number {
  if (typeof value === 'string') return parseSize(value, option);
  if (!(Number.isSafeInteger(value) && value > 0)) throw new InvalidOptionError(option, value, 'not a positive whole number of bytes');
  return value;
}
