/**
 * What the solver's files (the database, lib/solve/files/solve-db.ts; the checkpoint and the table of
 * earlier results, lib/solve/files/search-checkpoint.ts and lib/solve/files/table-file.ts) share: a framed
 * file's header line (lib/format/framed-file.ts) that gives the board and its state space, read
 * and checked alike.
 */

import { readFramedFile } from '../../format/framed-file.js';
import type { StateSpace } from '../rules/state-space.js';
import { foldedSymmetry } from '../rules/symmetry.js';
import { SCORINGS, type Scoring, CYCLE_RULES, type CycleRule } from '../defaults.js';

/** What every solve file's header gives: the board and its state space. */
export interface SolveFileHeader {
  readonly format: string;
  readonly version: number;
  readonly m: number;
  readonly n: number;
  readonly rule: CycleRule;
  readonly scoring: Scoring;
  /** 1: every legal position kept; else the board's symmetries, one position kept per orbit. */
  readonly symmetries: number;
  readonly positions: number;
  readonly states: number;
}

/** What the header of a database and of a checkpoint (lib/solve/files/search-checkpoint.ts) give of the board and its state space. */
export function solveHeader(format: string, version: number, space: StateSpace): SolveFileHeader {
  const { m, n } = space.board;
  const { rule, positions, states } = space;
  return { format, version, m, n, rule, scoring: space.board.scoring, symmetries: space.symmetry?.count ?? 1, positions, states };
}

/** The first of `fields` whose value in a file's header is not this solve's own, said in words; undefined when all match. */
export function differingField<H extends object>(theirs: H, own: H, fields = Object.keys(own) as (keyof H)[]): string | undefined {
  const said = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  for (const field of fields) {
    if (JSON.stringify(theirs[field]) !== JSON.stringify(own[field]))
      return `its ${String(field)} is ${said(theirs[field])}, this solve's ${said(own[field])}`;
  }
  return undefined;
}

/**
 * Reads a solve file whole: its header, upgraded to the current version (or what is wrong with
 * it) by `versioned`, its rule, scoring and symmetries checked, and its body, the
 * `bodyBytes(header)` bytes between the header line and the CRC-32; or the one thing wrong with
 * the file.
 */
export function readSolveFile<H extends SolveFileHeader>(
  file: string,
  format: string,
  versioned: (header: H) => H | string,
  bodyBytes: (header: H) => number,
): { header: H; body: Buffer } | string {
  return readFramedFile<H>(file, format, (read) => checkedHeader(versioned(read)), bodyBytes);
}

/** The header, or what is wrong with its rule, scoring or symmetries. */
function checkedHeader<H extends SolveFileHeader>(header: H | string): H | string {
  if (typeof header === 'string') return header;
  if (!CYCLE_RULES.includes(header.rule)) return `unknown rule ${header.rule}`;
  if (!SCORINGS.includes(header.scoring)) return `unknown scoring ${header.scoring}`;
  if (header.rule === 'no-cycle' && header.symmetries !== 1) return 'symmetries folded under rule no-cycle, which never folds';
  try {
    foldedSymmetry(header.m, header.n, header.symmetries);
  } catch (error) {
    return (error as Error).message;
  }
  return header;
}
