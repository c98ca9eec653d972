/**
 * The library's count: L(m,n) exactly, by the streaming engine, with the same final check the
 * command makes before it prints a number; or by the in-memory counter (`--oracle`).
 */

import { checkOptionNames, type OptionNames, switchOption } from '../shared/arguments.js';
import { boardOf, sweepOf, type Sweep } from '../board/shape.js';
import { countWithEngine } from './with-engine.js';
import type { StepReport } from '../observe/progress.js';
import type { StepLogEntry } from '../format/step-log.js';
import { CountStats, summarize } from '../observe/stats.js';
import type { Residue } from '../residues/crt.js';
import { productOf } from '../residues/moduli.js';
import type { CountOptions } from './option-types.js';
import { normalizeCountOptions } from './options.js';
import { checkFinalCount } from './final-check.js';
import { countInMemory } from './in-memory.js';

export interface ColumnCount {
  readonly m: number;
  readonly n: number;
  readonly legal: bigint;
}

export interface CountResult {
  readonly m: number;
  readonly n: number;
  readonly legal: bigint;
  /** How the board was swept: width points a column (the narrower side unless keepOrientation), columns columns. */
  readonly sweep: Sweep;
  /** With allColumns: L(width, k) for k = 1 … columns, where width is the sweep's. */
  readonly columns?: ColumnCount[];
  /** The count modulo each modulus. */
  readonly residues: Residue[];
  readonly stats: CountStats;
  /** Per-step figures, in the order the steps ran. */
  readonly steps: StepReport[];
  /** The per-step log of the whole count, steps of an earlier, resumed run included. */
  readonly log: StepLogEntry[];
}

export async function countLegal(options: CountOptions): Promise<CountResult> {
  const normalized = normalizeCountOptions(options);
  const { board, sweep } = normalized;
  const started = performance.now();
  const result = await countWithEngine(normalized);
  const product = productOf(result.moduli);
  // Every column prefix is checked, so a wrong residue anywhere in the sweep is caught.
  result.perColumn.forEach((legal, k) => checkFinalCount(sweep.width, k + 1, legal, product));
  return {
    m: board.m,
    n: board.n,
    legal: result.legal,
    sweep,
    columns: normalized.allColumns ? result.perColumn.map((legal, k) => ({ m: sweep.width, n: k + 1, legal })) : undefined,
    residues: result.residues,
    stats: summarize(result.reports, (performance.now() - started) / 1000),
    steps: result.reports,
    log: result.log,
  };
}

/** The options countLegalInMemory takes: the board and its orientation, as countLegal takes them. */
export type InMemoryCountOptions = Pick<CountOptions, 'm' | 'n' | 'keepOrientation'>;

const IN_MEMORY_OPTIONS: OptionNames<InMemoryCountOptions> = { m: true, n: true, keepOrientation: true };

/**
 * L(m,n) by the exact in-memory BigInt counter instead of the engine (`gocount --oracle`): no
 * scratch folder and no workers, every state of a step in one Map, so sweeps up to 12 points wide;
 * the tests check the engine against it. The final check is countLegal's.
 */
export function countLegalInMemory(options: InMemoryCountOptions): bigint {
  checkOptionNames('countLegalInMemory', options, IN_MEMORY_OPTIONS);
  const board = boardOf(options.m, options.n);
  const legal = countInMemory(sweepOf(board, switchOption('keepOrientation', options.keepOrientation) ?? false));
  checkFinalCount(board.m, board.n, legal);
  return legal;
}
