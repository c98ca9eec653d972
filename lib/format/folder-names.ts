/**
 * The names in a count folder, each with its formatter and, where files are found by name, its
 * parser. The engine, `verify` and the tests take every name from here:
 *
 *   <scratch>/<width>x<columns>/moduli-<K>-<hash>/count.json     what this folder counts
 *                                                /lock.json      held by the count running in it
 *                                                /result.json    the pass's residues, once it is done
 *                                                /step-00042/    the states after 42 points:
 *                                                   manifest.json, run-00001.run (one worker) or
 *                                                   run-w1-00001.run (worker 1 of several), and
 *                                                   merge/w1-level-1/ while runs are merged;
 *                                                   in a partitioned count split-w1-00001.run
 *                                                   (worker 1's first run, a section for every
 *                                                   owner) and done-p0.json (task 0's done-marker)
 *
 * A file is written under its name plus TEMP_SUFFIX and renamed when whole.
 */

import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';

export const COUNT_FILE = 'count.json';
/** The `format` field of count.json. */
export const COUNT_FORMAT = 'gocount-count';
/**
 * count.json's version: that of the whole folder. 2: the run file format of that version. 3: runs
 * and merge folders are named by worker (w1), manifests give `workers` (manifest version 4). A
 * count in one process still writes version 3.
 */
export const COUNT_VERSION = 3;
/**
 * count.json's version in a partitioned count: 4: its runs are split run files (split-layout.ts),
 * one per worker and round, and its done-markers list them (task-marker.ts, version 2).
 */
export const PARTITIONED_COUNT_VERSION = 4;

/** The version of count.json a count writes: partitioned or in one process. */
export function countVersion(partitioned: boolean): number {
  return partitioned ? PARTITIONED_COUNT_VERSION : COUNT_VERSION;
}
export const RESULT_FILE = 'result.json';
export const MANIFEST_FILE = 'manifest.json';
/** The lock a running count holds on its folder (folder/lock.ts). */
export const LOCK_FILE = 'lock.json';
export const RUN_SUFFIX = '.run';
export const TEMP_SUFFIX = '.tmp';
export const MERGE_FOLDER = 'merge';

export interface CountIdentity {
  readonly width: number;
  readonly columns: number;
  readonly moduli: readonly number[];
}

/** The count's folder under a scratch directory: one per sweep and modulus set. */
export function countFolderPath(scratchDir: string, identity: CountIdentity): string {
  return path.resolve(scratchDir, sweepFolderName(identity), moduliFolderName(identity.moduli));
}

export function sweepFolderName(identity: CountIdentity): string {
  return `${identity.width}x${identity.columns}`;
}

/** moduli-<K>-<the first 10 hex digits of the SHA-256 of the moduli, comma-separated>. */
export function moduliFolderName(moduli: readonly number[]): string {
  const hash = createHash('sha256').update(moduli.join(',')).digest('hex').slice(0, 10);
  return `moduli-${moduli.length}-${hash}`;
}

export function stepFolderName(step: number): string {
  return `step-${String(step).padStart(5, '0')}`;
}

/** The step a folder's name gives, if it is named like one (the last component of a path). */
export function stepOfFolder(dir: string): number | undefined {
  const match = /^step-(\d{5,})$/.exec(path.basename(dir));
  return match ? Number(match[1]) : undefined;
}

/** A run file's name; with several workers, each names its own: run-w1-00003.run. */
export function runFileName(run: number, worker?: number): string {
  const owner = worker === undefined ? '' : `w${worker}-`;
  return `run-${owner}${String(run).padStart(5, '0')}${RUN_SUFFIX}`;
}

/**
 * In a partitioned count a worker writes each run as one split run file, a section for every owner
 * (split-layout.ts): split-w1-00003.run is worker 1's third.
 */
export function splitRunFileName(run: number, writer: number): string {
  return `split-w${writer}-${String(run).padStart(5, '0')}${RUN_SUFFIX}`;
}

/** The run number and writer that a split run file's name gives. */
export function parseSplitRunFileName(name: string): { run: number; source: number } | undefined {
  const match = /^split-w(\d+)-(\d{5,})\.run$/.exec(name);
  return match ? { run: Number(match[2]), source: Number(match[1]) } : undefined;
}

/**
 * A partitioned count of version 3 (before split runs) wrote each owner's part of a run to
 * for-w<owner>/ in the step folder, named by the worker that wrote it: verify still reads them.
 */
export const OWNED_FOLDER_PREFIX = 'for-w';

/**
 * The files of a step folder whose names end in `suffix` (RUN_SUFFIX, TEMP_SUFFIX), as paths within
 * it: its own, and those in the for-w<owner>/ folders of a partitioned count.
 */
export function stepFilesEndingIn(stepDir: string, suffix: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(stepDir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name.startsWith(OWNED_FOLDER_PREFIX)) {
      for (const name of readdirSync(path.join(stepDir, entry.name))) if (name.endsWith(suffix)) found.push(`${entry.name}/${name}`);
    } else if (entry.name.endsWith(suffix)) found.push(entry.name); // a folder so named too: it is not a run
  }
  return found.sort();
}

/**
 * What a run file's path within its step folder gives: its number and, with several workers, the
 * worker whose states it holds; for the parts of a partitioned count of version 3 also the worker
 * that wrote it.
 */
export function parseRunFileName(name: string): { run: number; worker?: number; source?: number } | undefined {
  const match = /^(?:for-w(\d+)\/)?run-(?:w(\d+)-)?(\d{5,})\.run$/.exec(name);
  if (!match) return undefined;
  const [, owner, writer, run] = match;
  const number = (digits?: string) => (digits === undefined ? undefined : Number(digits));
  if (owner === undefined) return { run: Number(run), worker: number(writer) };
  return writer === undefined ? undefined : { run: Number(run), worker: Number(owner), source: Number(writer) };
}

/** The done-marker partition task `part` writes last, in the folder of the step it made: done-p2.json. */
export function taskMarkerName(part: number): string {
  return `done-p${part}.json`;
}

export function parseTaskMarkerName(name: string): number | undefined {
  const match = /^done-p(\d+)\.json$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** Where a worker's runs of one step are merged at a level, before the step reads them. */
export function mergeFolderPath(stepDir: string, worker: number, level: number): string {
  return path.join(stepDir, MERGE_FOLDER, `w${worker}-level-${level}`);
}

/** The worker whose merge folder `name` (w1-level-2) is. */
export function workerOfMergeFolder(name: string): number | undefined {
  const match = /^w(\d+)-level-\d+$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

export function tempPath(file: string): string {
  return file + TEMP_SUFFIX;
}

/** CRC-32 of the residues in result.json, so a damaged one is counted again, not trusted. */
export function resultCrc(perColumn: unknown): number {
  return crc32(JSON.stringify(perColumn ?? null));
}
