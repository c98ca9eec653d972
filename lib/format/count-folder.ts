/**
 * The names in a count folder, each with its formatter and, where files are found by name, its
 * parser. The engine, `verify` and the tests take every name from here:
 *
 *   <scratch>/<width>x<columns>/moduli-<K>-<hash>/count.json     what this folder counts
 *                                                /result.json    the pass's residues, once it is done
 *                                                /step-00042/    the states after 42 points:
 *                                                   manifest.json, run-00001.run (one worker) or
 *                                                   run-p1-00001.run (worker 1 of several), and
 *                                                   merge/p1-level-1/ while runs are merged
 *
 * A file is written under its name plus TEMP_SUFFIX and renamed when whole.
 */

import { createHash } from 'node:crypto';
import path from 'node:path';
import { crc32 } from 'node:zlib';

export const COUNT_FILE = 'count.json';
/** The `format` field of count.json. */
export const COUNT_FORMAT = 'gocount-count';
export const RESULT_FILE = 'result.json';
export const MANIFEST_FILE = 'manifest.json';
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

/** A run file's name; with several partitions, each names its own: run-p1-00003.run. */
export function runFileName(run: number, partition?: number): string {
  const owner = partition === undefined ? '' : `p${partition}-`;
  return `run-${owner}${String(run).padStart(5, '0')}${RUN_SUFFIX}`;
}

/** What a run file's name gives: its number and, with several partitions, its partition. */
export function parseRunFileName(name: string): { run: number; partition?: number } | undefined {
  const match = /^run-(?:p(\d+)-)?(\d{5,})\.run$/.exec(name);
  if (!match) return undefined;
  return { run: Number(match[2]), partition: match[1] === undefined ? undefined : Number(match[1]) };
}

/** Where a partition's runs of one step are merged at a level, before the step reads them. */
export function mergeFolderPath(stepDir: string, partition: number, level: number): string {
  return path.join(stepDir, MERGE_FOLDER, `p${partition}-level-${level}`);
}

export function tempPath(file: string): string {
  return file + TEMP_SUFFIX;
}

/** CRC-32 of the residues in result.json, so a damaged one is counted again, not trusted. */
export function resultCrc(perColumn: unknown): number {
  return crc32(JSON.stringify(perColumn ?? null));
}
