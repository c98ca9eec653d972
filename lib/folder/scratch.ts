/**
 * Where a count keeps its files: one folder per sweep and modulus set under the scratch directory
 * (format/folder-names.ts names them), so passes with other moduli, and other boards, never share
 * files. A folder found in place is reused (the count resumes) only when its count.json names the
 * same count.
 */

import path from 'node:path';
import { existsSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { GocountError, UsageError } from '../shared/errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import { CountLock } from './lock.js';
import { makeFolder, pathProblem } from '../format/make-folder.js';
import {
  COUNT_FILE,
  COUNT_FORMAT,
  countFolderPath,
  CountIdentity,
  countVersion,
  MANIFEST_FILE,
  MERGE_FOLDER,
  RESULT_FILE,
  resultCrc,
  runFileName,
  stepFilesEndingIn,
  stepFolderName,
  stepOfFolder,
  TEMP_SUFFIX,
  tempPath,
} from '../format/folder-names.js';
import { counted } from '../shared/plural.js';

/** How a count's states are shared out: partition tasks (1 in one process), each of `workers` workers. */
export interface CountLayout {
  readonly workers: number;
  readonly partitions: number;
  /** A partitioned count (lib/cluster), even of one partition: its folder is of PARTITIONED_COUNT_VERSION. */
  readonly partitioned?: boolean;
}

/** What a count folder's count.json records beside what it counts and its layout. */
export interface FolderRecord {
  /** --keep: every step's files stay, and no later count removes them, with --keep or without. */
  readonly keep: boolean;
  /**
   * How many folders, from the scratch folder upwards, the count had to create: whichever count
   * finishes it removes them too, where they are empty.
   */
  readonly madeAbove: number;
}

/**
 * Which worker holds a state, as count.json records it: the window keys (border/window-key.ts),
 * among a process's worker threads or every partition's workers. Which worker holds a state never
 * changes its count, so a count written under ownerOf (border/ownership.ts, the rule before
 * windows) resumes under windows.
 */
export const OWNERSHIP = 'windows-v1 over partitions*workers';
export const THREAD_OWNERSHIP = 'windows-v1 over workers';
/** The rule before windows, of both kinds of count. */
export const HASH_OWNERSHIP = 'ownerOf-v3 over partitions*workers';

function ownershipOf(partitioned: boolean): string {
  return partitioned ? OWNERSHIP : THREAD_OWNERSHIP;
}

function resumesUnder(found: unknown, partitioned: boolean): boolean {
  return found === ownershipOf(partitioned) || found === HASH_OWNERSHIP;
}

/**
 * The count folder at `dir`, found from its count.json, and how its states are shared out: for a
 * partition task, which is given the folder itself.
 */
export function openCountFolder(dir: string): { scratch: ScratchFolder; layout: CountLayout } {
  const root = path.resolve(dir);
  const found = countFileIn(root);
  if (found?.format !== COUNT_FORMAT) throw new UsageError(`${dir} is not a count folder: it has no readable ${COUNT_FILE}`);
  if (found.version !== countVersion(true))
    throw new UsageError(
      `${dir} holds format version ${found.version}, this gocount's tasks read ${countVersion(true)}`,
      'GOCOUNT_SCRATCH_UNUSABLE',
    );
  const { width, columns, moduli } = found;
  const scratch = new ScratchFolder(path.dirname(path.dirname(root)), {
    width: width as number,
    columns: columns as number,
    moduli: moduli as number[],
  });
  const layout = scratch.recordedLayout();
  if (scratch.root !== root || layout.workers === undefined || layout.partitions === undefined)
    throw new UsageError(`${dir}: its ${COUNT_FILE} does not describe the count of this folder`, 'GOCOUNT_SCRATCH_UNUSABLE');
  return { scratch, layout: { workers: layout.workers, partitions: layout.partitions, partitioned: true } };
}

export class ScratchFolder {
  readonly root: string;

  constructor(
    scratchDir: string,
    readonly identity: CountIdentity,
  ) {
    this.root = countFolderPath(scratchDir, identity);
  }

  stepDir(step: number): string {
    return path.join(this.root, stepFolderName(step));
  }

  /** A run file; with several workers, each names its own. */
  runPath(step: number, run: number, worker?: number): string {
    return path.join(this.stepDir(step), runFileName(run, worker));
  }

  /**
   * Opens the folder: creates it when absent or empty (returns true), or checks that the count it
   * holds is this one (returns false: the caller may resume). Refuses a folder of another count.
   */
  open(layout: CountLayout, record: FolderRecord): boolean {
    try {
      this.removeRemovalLeftover();
      // A temporary file alone is what a kill during the folder's creation leaves.
      const entries = existsSync(this.root) ? readdirSync(this.root).filter((name) => !name.endsWith(TEMP_SUFFIX)) : [];
      if (entries.length > 0) {
        this.checkIdentity(layout.partitioned ?? false);
        return false;
      }
      const made = makeFolder(this.root, 'scratch folder');
      try {
        this.recordLayout(layout, record);
      } catch (error) {
        if (made) removeTree(made); // a folder without its count.json would be refused as another's
        throw error;
      }
      return true;
    } catch (error) {
      if (error instanceof GocountError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (['EACCES', 'EROFS', 'ENOTDIR', 'EEXIST', 'EPERM', 'ENAMETOOLONG', 'ELOOP'].includes(code ?? '')) {
        throw new UsageError(`scratch folder ${this.root} cannot be written: ${pathProblem(code)}`, 'GOCOUNT_SCRATCH_UNUSABLE');
      }
      throw diskError(error, this.root);
    }
  }

  /**
   * open(), then the lock that the count holds on the folder until it ends (lock.ts), and
   * whether the folder's files are kept: asked for now, or recorded by an earlier count (once
   * kept, a folder stays kept).
   */
  openLocked(
    layout: CountLayout,
    record: FolderRecord,
    note: (message: string) => void,
  ): { fresh: boolean; lock: CountLock; keep: boolean } {
    const fresh = this.open(layout, record);
    const lock = CountLock.take(this.root, note);
    try {
      const kept = !fresh && this.recorded().keep;
      if (record.keep && !fresh && !kept) this.markKept();
      return { fresh, lock, keep: record.keep || kept };
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Writes count.json: what this folder counts, how its states are shared out, and its record. */
  recordLayout(layout: CountLayout, record: FolderRecord): void {
    const { workers, partitions } = layout;
    const { keep, madeAbove } = record;
    const json = {
      format: COUNT_FORMAT,
      version: countVersion(layout.partitioned ?? false),
      ...this.identity,
      workers,
      partitions,
      ownership: ownershipOf(layout.partitioned ?? false),
      keep,
      madeAbove,
    };
    writeFileAtomically(path.join(this.root, COUNT_FILE), JSON.stringify(json, null, 1) + '\n');
  }

  /**
   * The record in count.json. A folder written before count.json recorded `keep` was kept when it
   * holds two complete steps or more: a count without --keep holds one, and two only for a moment.
   */
  recorded(): FolderRecord {
    const found = countFileIn(this.root);
    const keep = typeof found?.keep === 'boolean' ? found.keep : this.completeSteps().length >= 2;
    const madeAbove = Number.isInteger(found?.madeAbove) && (found!.madeAbove as number) >= 0 ? (found!.madeAbove as number) : 0;
    return { keep, madeAbove };
  }

  /** Marks the folder kept (a count resumed with --keep): from now on no count removes its files. */
  private markKept(): void {
    const file = path.join(this.root, COUNT_FILE);
    writeFileAtomically(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), keep: true }, null, 1) + '\n');
  }

  /** Whether a count run again would resume from this folder: a pass finished, or a step complete. */
  holdsWork(): boolean {
    return existsSync(path.join(this.root, RESULT_FILE)) || this.completeSteps().length > 0;
  }

  /** The steps whose manifest is written. */
  private completeSteps(): number[] {
    if (!existsSync(this.root)) return [];
    return this.steps().filter((step) => existsSync(path.join(this.stepDir(step), MANIFEST_FILE)));
  }

  /** The layout recorded in this folder's count.json, as far as the folder and the numbers exist. */
  recordedLayout(): Partial<CountLayout> {
    const found = countFileIn(this.root);
    const count = (x: unknown) => (Number.isInteger(x) && (x as number) >= 1 ? (x as number) : undefined);
    return { workers: count(found?.workers), partitions: count(found?.partitions), partitioned: found?.version === countVersion(true) };
  }

  /** The steps that have a folder, in order. */
  steps(): number[] {
    return readdirSync(this.root)
      .map((name) => stepOfFolder(name))
      .filter((step) => step !== undefined)
      .sort((a, b) => a - b);
  }

  /**
   * The residues of every column prefix, once the pass has finished; undefined before. A damaged
   * result.json is removed, and `note` hears of it: the pass's last step gives it again.
   */
  readResult(note: (message: string) => void = () => {}): number[][] | undefined {
    const file = path.join(this.root, RESULT_FILE);
    if (!existsSync(file)) return undefined;
    const result = readJsonOrNull(file) as { moduli?: number[]; perColumn?: number[][]; crc?: number } | null;
    const valid =
      result?.moduli?.join() === this.identity.moduli.join() &&
      result.crc === resultCrc(result.perColumn) &&
      result.perColumn?.length === this.identity.columns &&
      result.perColumn.every(
        (residues) =>
          residues.length === this.identity.moduli.length &&
          residues.every((r, i) => Number.isInteger(r) && r >= 0 && r < this.identity.moduli[i]),
      );
    if (!valid) {
      removeTree(file);
      note(`${file} was damaged and is removed: the count's result is made again from its last step on disk`);
      return undefined;
    }
    return result.perColumn;
  }

  writeResult(perColumn: number[][]): void {
    writeFileAtomically(
      path.join(this.root, RESULT_FILE),
      JSON.stringify({ moduli: this.identity.moduli, perColumn, crc: resultCrc(perColumn) }) + '\n',
    );
  }

  /** Removes what an interrupted run leaves: temporary files and merge folders. */
  removeLeftovers(): void {
    for (const step of this.steps()) {
      const dir = this.stepDir(step);
      removeTree(path.join(dir, MERGE_FOLDER));
      for (const name of stepFilesEndingIn(dir, TEMP_SUFFIX)) removeTree(path.join(dir, name));
    }
    for (const name of readdirSync(this.root)) if (name.endsWith(TEMP_SUFFIX)) removeTree(path.join(this.root, name));
  }

  removeStep(step: number): void {
    removeTree(this.stepDir(step));
  }

  /**
   * Removes a step's folder without waiting for the disk: it is renamed away at once, so that no
   * listing and no resume sees it, and its files go on libuv's thread pool while the count goes on
   * (unlinking a step's gigabytes took 0.3–0.7 s here, the workers idle meanwhile). A kill before
   * they are gone leaves the renamed folder, which removeLeftovers clears.
   */
  removeStepLater(step: number): Promise<void> {
    const dir = this.stepDir(step);
    if (!existsSync(dir)) return Promise.resolve();
    const doomed = tempPath(dir);
    removeTree(doomed);
    renameSync(dir, doomed);
    return rm(doomed, { recursive: true, force: true });
  }

  /** Removes this count's folder, and the sweep's folder above it when nothing else is left there. */
  removeAll(): void {
    // Renamed first: a kill while the files go must not leave a folder without its count.json.
    this.removeRemovalLeftover();
    const doomed = tempPath(this.root);
    renameSync(this.root, doomed);
    removeTree(doomed);
    const sweep = path.dirname(this.root);
    try {
      if (readdirSync(sweep).length === 0) rmdirSync(sweep);
    } catch {
      // gone already, or in use by another count: leave it
    }
  }

  /**
   * Removes what a kill during removeAll leaves: the folder under its temporary name, which
   * find-counts passes over. Checked for first: under a path through a file, removal would fail
   * before makeFolder could name the part that is a file.
   */
  private removeRemovalLeftover(): void {
    const doomed = tempPath(this.root);
    if (existsSync(doomed)) removeTree(doomed);
  }

  private checkIdentity(partitioned: boolean): void {
    const problem = this.identityProblem(partitioned);
    if (problem)
      throw new UsageError(
        `scratch folder ${this.root} ${problem}; remove it or choose another scratch folder`,
        'GOCOUNT_SCRATCH_UNUSABLE',
      );
  }

  /**
   * Why the folder is not this count's (partitioned or in one process), or undefined when its
   * count.json describes this count. A partitioned count's folder of version 3 holds runs split by
   * owner into a file each, which no count reads now: it is counted again.
   */
  identityProblem(partitioned: boolean): string | undefined {
    const found = countFileIn(this.root);
    if (found?.format !== COUNT_FORMAT) return `is not empty and has no readable ${COUNT_FILE}`;
    const version = countVersion(partitioned);
    if (found.version !== version) return `holds format version ${found.version}, this gocount writes ${version}`;
    if (!resumesUnder(found.ownership, partitioned))
      return `shares states out by ${found.ownership}, this gocount by ${ownershipOf(partitioned)}`;
    const { width, columns, moduli } = this.identity;
    if (found.width !== width || found.columns !== columns)
      return `holds a ${found.width}-wide sweep of ${counted(found.columns as number, 'column')}, not ${width} of ${columns}`;
    if (!Array.isArray(found.moduli) || found.moduli.join() !== moduli.join()) return 'holds residues for other moduli';
    return undefined;
  }
}

/** Turns ENOSPC and friends into one clear line; `advice` says what to do then (a count resumes). */
/** Whether an error is a full disk (or quota): diskError's, or the system's own. */
export function isDiskFull(error: unknown): boolean {
  if (error instanceof GocountError) return error.code === 'GOCOUNT_DISK_FULL';
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

export function diskError(
  error: unknown,
  where: string,
  advice = 'finished steps are kept: free some space and run the same count again to resume',
): unknown {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new GocountError(`disk full while writing ${where}; ${advice}`, 1, 'GOCOUNT_DISK_FULL');
  return error;
}

// node:fs rather than fs-extra here and in the run store: every worker thread loads these modules,
// and fs-extra (with graceful-fs) would cost each thread about 35 ms of CPU to load (docs/contributing.md).

/** The count.json of the count folder at `root`; null when it is missing or not JSON. */
function countFileIn(root: string): Record<string, unknown> | null {
  return readJsonOrNull(path.join(root, COUNT_FILE)) as Record<string, unknown> | null;
}

/** A JSON file's value; null when it is missing or not JSON. */
function readJsonOrNull(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Removes a file or a folder with all it holds; nothing when it is gone already. */
export function removeTree(target: string): void {
  rmSync(target, { recursive: true, force: true });
}
