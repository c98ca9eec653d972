/**
 * The checkpoint of a no-cycle database's history search, kept in the scratch folder: the states
 * valued so far and their values, so that a solve stopped or killed resumes where it was (1×12's
 * first states take about an hour each; docs/solve.md). The values are the game's, whatever the
 * order or the table of earlier results that found them, so a resumed solve writes the same
 * database as one run through.
 *
 * The file: a header line of JSON (format gocount-solve-checkpoint, version, the board and state
 * space as a database's header gives them, the states valued, the search's figures so far, and the
 * state whose search was under way, with how many of its moves were done and the best they gave),
 * then one signed byte per state (its value; 0 where not valued), one byte per state (1 where
 * valued), and the CRC-32 of everything before it, 4 bytes little-endian. Written under a temporary
 * name of its own process and renamed, so a file with this name is whole.
 */

import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isAlive } from '../../folder/lock.js';
import { diskError } from '../../folder/scratch.js';
import { GocountError } from '../../shared/errors.js';
import { signedBytes, writeFramedFile } from '../../format/framed-file.js';
import { makeFolder } from '../../format/make-folder.js';
import type { Problem } from '../../verify/problems.js';
import type { HistoryTable } from '../no-cycle/history-table.js';
import type { CarriedStats, SearchKeeper, UnderWay } from '../no-cycle/search-components.js';
import type { StateSpace } from '../rules/state-space.js';
import { checkSolveValues } from './db-check.js';
import { differingField, readSolveFile, solveHeader, type SolveFileHeader } from './solve-file.js';
import { readTableFile, writeTableFile } from './table-file.js';
import { counted } from '../../shared/plural.js';
import type { Scoring, CycleRule } from '../defaults.js';

export const CHECKPOINT_FORMAT = 'gocount-solve-checkpoint';
export const CHECKPOINT_VERSION = 1;
/**
 * Seconds between two checkpoints, written when a state or one of its moves is done or, within a
 * move's search, at a report of its progress: about what a stopped solve searches again.
 */
export const CHECKPOINT_SECONDS = 60;
/**
 * The table of earlier results (lib/solve/files/table-file.ts) can take gigabytes to save: it is saved
 * with a checkpoint once the time since its last save is this many times what that save took.
 */
const TABLE_SAVE_SHARE = 10;

const NONE_UNDER_WAY: UnderWay = { state: -1, moves: 0, best: 0 };

export interface CheckpointHeader extends SolveFileHeader, UnderWay {
  readonly valued: number;
  readonly searchNodes: number;
  readonly revised: number;
  readonly fromImages: number;
}

/** Where a board's checkpoint is kept in a scratch folder. */
export function checkpointFile(folder: string, m: number, n: number, rule: CycleRule, scoring: Scoring): string {
  return path.join(folder, `solve-${m}x${n}-${rule}-${scoring}.checkpoint`);
}

function currentHeader(header: CheckpointHeader): CheckpointHeader | string {
  return header.version === CHECKPOINT_VERSION ? header : `version ${header.version}; this gocount reads version ${CHECKPOINT_VERSION}`;
}

/** Reads a checkpoint whole: its header, values and the states valued, or the one thing wrong with it. */
export function readCheckpoint(file: string): { header: CheckpointHeader; values: Int8Array; done: Uint8Array } | string {
  const read = readSolveFile(file, CHECKPOINT_FORMAT, currentHeader, (header) => 2 * header.states);
  if (typeof read === 'string') return read;
  const { header, body } = read;
  const done = new Uint8Array(header.states);
  done.set(body.subarray(header.states));
  return { header, values: signedBytes(body, 0, header.states), done };
}

/**
 * Checks a checkpoint offline: readable and whole, its header matching the board's state space and
 * the states it marks, and each state it marks valued consistent as a database's (checkSolveValues).
 */
export function checkCheckpoint(
  file: string,
  progress: (done: number, total: number) => void = () => {},
): { states: number; problems: Problem[] } {
  const read = readCheckpoint(file);
  if (typeof read === 'string') return { states: 0, problems: [{ file, problem: read }] };
  const { header, values, done } = read;
  const marked = done.reduce((sum, d) => sum + d, 0);
  if (marked !== header.valued)
    return {
      states: header.states,
      problems: [{ file, problem: `the header gives ${counted(header.valued, 'state')} valued, the file marks ${marked}` }],
    };
  return { states: header.states, problems: checkSolveValues(file, header, values, done, progress).problems };
}

export class SearchCheckpoint implements SearchKeeper {
  /** Whether the file exists: restored from, or written by this solve. */
  private kept: boolean;
  private last = performance.now();
  private lastTable = performance.now();
  /** Milliseconds the last save of the table took. */
  private tableMs = 0;
  /** Where the table of earlier results is kept beside it. */
  readonly tableFile: string;

  constructor(
    readonly file: string,
    private readonly space: StateSpace,
    private readonly seconds = CHECKPOINT_SECONDS,
  ) {
    this.kept = existsSync(file);
    this.tableFile = file.replace(/\.checkpoint$/, '.table');
  }

  static in(folder: string, space: StateSpace, seconds?: number): SearchCheckpoint {
    const { m, n, scoring } = space.board;
    const file = checkpointFile(folder, m, n, space.rule, scoring);
    removeLeftovers(file);
    return new SearchCheckpoint(file, space, seconds);
  }

  /**
   * Takes over what the file holds, if there is one: the values of the states valued, which are
   * marked done, the search's figures, and the table of earlier results if its file is there and of
   * the table's shape (the same --memory). Returns how many states are valued and the search under
   * way. A damaged file, or one of another state space, stops the solve with one line.
   */
  restore(
    values: Int8Array,
    done: Uint8Array,
    known: Uint8Array,
    stats: CarriedStats,
    table?: HistoryTable,
  ): { valued: number; underWay: UnderWay } {
    if (!this.kept) return { valued: 0, underWay: NONE_UNDER_WAY };
    const read = readCheckpoint(this.file);
    const wrong =
      typeof read === 'string'
        ? read
        : differingField<SolveFileHeader>(read.header, solveHeader(CHECKPOINT_FORMAT, CHECKPOINT_VERSION, this.space));
    if (typeof read === 'string' || wrong !== undefined)
      throw new GocountError(`${this.file}: ${wrong}; remove it to solve from the start`, 1, 'GOCOUNT_BAD_FILE');
    const { header } = read;
    for (let s = 0; s < this.space.states; s++) {
      if (!read.done[s]) continue;
      values[s] = read.values[s];
      done[s] = 1;
      known[s] = 1;
    }
    stats.searchNodes = header.searchNodes;
    stats.revised = header.revised;
    stats.fromImages = header.fromImages;
    stats.resumed = header.valued;
    stats.tableResumed = table ? this.restoreTable(table) : 'not taken back: this solve has none';
    return { valued: header.valued, underWay: { state: header.state, moves: header.moves, best: header.best } };
  }

  /** 'taken back', or why not. */
  private restoreTable(table: HistoryTable): string {
    if (!existsSync(this.tableFile)) return `not taken back: no ${path.basename(this.tableFile)}`;
    const read = readTableFile(this.tableFile, this.space, table);
    if ('problem' in read)
      throw new GocountError(`${this.tableFile}: ${read.problem}; remove it to resume without it`, 1, 'GOCOUNT_BAD_FILE');
    return 'differs' in read ? `not taken back: ${read.differs}` : 'taken back';
  }

  /** Whether the last checkpoint is `seconds` old. */
  get due(): boolean {
    return performance.now() - this.last >= 1000 * this.seconds;
  }

  /**
   * Saves the states valued and the search under way; with `table`, also the table of earlier
   * results, unless its last save took more than a TABLE_SAVE_SHARE-th of the time since (with
   * `seconds` 0, a checkpoint at every chance, always).
   */
  save(values: Int8Array, done: Uint8Array, valued: number, stats: CarriedStats, underWay = NONE_UNDER_WAY, table?: HistoryTable): void {
    const header: CheckpointHeader = {
      ...solveHeader(CHECKPOINT_FORMAT, CHECKPOINT_VERSION, this.space),
      valued,
      searchNodes: stats.searchNodes,
      revised: stats.revised,
      fromImages: stats.fromImages,
      ...underWay,
    };
    // Only the states valued: a state not yet valued holds what forward checking gave, or nothing.
    const kept = new Int8Array(values.length);
    for (let s = 0; s < values.length; s++) if (done[s]) kept[s] = values[s];
    makeFolder(path.dirname(this.file), 'scratch folder');
    try {
      const started = performance.now();
      if (table && (this.seconds === 0 || started - this.lastTable >= TABLE_SAVE_SHARE * this.tableMs)) {
        writeTableFile(this.tableFile, this.space, table);
        this.lastTable = performance.now();
        this.tableMs = this.lastTable - started;
      }
      writeFramedFile(this.file, header, [kept, done], `${this.file}.${process.pid}.tmp`);
    } catch (error) {
      throw diskError(
        error,
        this.file,
        'free some space, or give --scratch a folder with more, and solve again: it resumes from the last checkpoint',
      );
    }
    this.kept = true;
    this.last = performance.now();
  }

  /**
   * Saves the search finished, if it was long enough to keep a checkpoint: a rerun then only
   * reports. The table is not saved again: no search of a state is left.
   */
  saveFinished(values: Int8Array, done: Uint8Array, valued: number, stats: CarriedStats): void {
    if (this.kept) this.save(values, done, valued, stats);
  }

  /** Removes the files, once what the solve was for is done. */
  remove(): void {
    rmSync(this.file, { force: true });
    rmSync(this.tableFile, { force: true });
    this.kept = false;
  }
}

/**
 * Removes the temporary files of the checkpoint and table a process no longer running left half
 * written (killed while it saved them): a table's can take gigabytes.
 */
function removeLeftovers(file: string): void {
  const base = path.basename(file).replace(/\.checkpoint$/, '');
  let names: string[];
  try {
    names = readdirSync(path.dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = new RegExp(`^${base.replace(/\./g, '\\.')}\\.(?:checkpoint|table)\\.(\\d+)\\.tmp$`).exec(name)?.[1];
    if (pid !== undefined && !isAlive(Number(pid))) rmSync(path.join(path.dirname(file), name), { force: true });
  }
}
