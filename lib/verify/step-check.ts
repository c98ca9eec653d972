/**
 * Checks one step folder: its manifest lists exactly the run files present, each file checks out on
 * its own (a split run's sections each on its own too: split-check.ts) and agrees with the
 * manifest's summary of it, and the manifest's totals add up. In a partitioned count the step's
 * done-markers must account for its runs and dropped mass between them (markers.ts).
 */

import path from 'node:path';
import fse from 'fs-extra';
import { GocountError } from '../shared/errors.js';
import {
  CountIdentity,
  MANIFEST_FILE,
  MERGE_FOLDER,
  parseRunFileName,
  parseSplitRunFileName,
  RUN_SUFFIX,
  stepFilesEndingIn,
  stepOfFolder,
  TEMP_SUFFIX,
} from '../format/folder-names.js';
import { checkMarkers } from './markers.js';
import { readManifest, StepManifest } from '../format/manifest.js';
import { sumResidueVectors } from '../residues/sums.js';
import type { Problem } from './problems.js';
import { checkRunFile, RunCheck } from './run-check.js';
import { checkSplitFile } from './split-check.js';
import { counted } from '../shared/plural.js';

export interface StepCheck {
  readonly dir: string;
  readonly manifest?: StepManifest;
  readonly runs: RunCheck[];
  /** At a column boundary: the legal states' residues over all runs. */
  readonly legal?: number[];
  readonly problems: Problem[];
}

/**
 * The worker a run file's name gives: run-w1-00003.run is worker 1's, run-00003.run the only one's,
 * and in a partitioned count for-w3/run-w1-00003.run is worker 3's (written by worker 1).
 */
function workerOfName(file: string, manifest: StepManifest): number | undefined {
  const name = parseRunFileName(file);
  if (!name) return undefined;
  if (name.source !== undefined) return name.worker;
  if (manifest.workers * manifest.partitions === 1) return name.worker === undefined ? 0 : undefined;
  return name.worker;
}

/** A step folder without its manifest: the step under way when the count stopped, or, before a complete step, damage. */
export const NO_MANIFEST = 'no manifest: this step was never completed';

export function checkStep(dir: string, identity?: CountIdentity): StepCheck {
  const problems: Problem[] = [];
  const manifestFile = path.join(dir, MANIFEST_FILE);
  const names = fse.readdirSync(dir).sort();
  for (const name of stepFilesEndingIn(dir, TEMP_SUFFIX))
    problems.push({ file: path.join(dir, name), problem: 'temporary file left by an interrupted write', unfinished: true });
  if (names.includes(MERGE_FOLDER))
    problems.push({ file: path.join(dir, MERGE_FOLDER), problem: 'merge folder left by an interrupted step', unfinished: true });
  if (!names.includes(MANIFEST_FILE)) {
    problems.push({ file: manifestFile, problem: NO_MANIFEST, unfinished: true });
    return { dir, runs: [], problems };
  }
  let manifest: StepManifest;
  try {
    manifest = readManifest(manifestFile);
  } catch (error) {
    if (!(error instanceof GocountError)) throw error;
    problems.push({ file: manifestFile, problem: error.message.slice(manifestFile.length + 2) });
    return { dir, runs: [], problems };
  }
  const bad = (problem: string) => problems.push({ file: manifestFile, problem });
  const folderStep = stepOfFolder(dir);
  if (folderStep !== undefined && folderStep !== manifest.step)
    bad(`describes step ${manifest.step}, but its folder is step ${folderStep}`);
  if (identity) {
    if (manifest.width !== identity.width || manifest.columns !== identity.columns)
      bad(
        `describes a ${manifest.width}-wide sweep of ${counted(manifest.columns, 'column')}, not ${identity.width} of ${identity.columns}`,
      );
    if (manifest.countModuli.join() !== identity.moduli.join()) bad('describes other moduli than its count folder');
    else if (!carriesScheduledModuli(manifest.moduli, identity, manifest.step))
      bad(
        `carries residues for ${manifest.moduli.length} moduli; step ${manifest.step} needs ` +
          `the fewest leading ones whose product exceeds what one of its states may count`,
      );
  }
  const { moduli } = manifest;
  const listed = new Set(manifest.runs.map((run) => run.file));
  const present = stepFilesEndingIn(dir, RUN_SUFFIX);
  for (const name of present)
    if (!listed.has(name)) problems.push({ file: path.join(dir, name), problem: 'run file not listed in the manifest' });
  const runs: RunCheck[] = [];
  for (const summary of manifest.runs) {
    const file = path.join(dir, summary.file);
    if (!present.includes(summary.file)) {
      bad(`lists ${summary.file}, which is missing`);
      continue;
    }
    const owners = manifest.workers * manifest.partitions;
    const expected = { width: manifest.width, columns: manifest.columns, step: manifest.step, moduli };
    const split = parseSplitRunFileName(summary.file);
    const run = split ? checkSplitFile(file, { ...expected, owners }) : checkRunFile(file, expected);
    runs.push(run);
    problems.push(...run.problems);
    if (run.problems.length > 0) continue;
    const differs: string[] = [];
    if (run.records !== summary.records) differs.push(`${counted(run.records, 'record')}, the manifest says ${summary.records}`);
    if (run.bytes !== summary.bytes) differs.push(`${counted(run.bytes, 'byte')}, the manifest says ${summary.bytes}`);
    if (run.crc !== summary.crc) differs.push("a checksum other than the manifest's");
    if (run.sums.join() !== summary.sums.join()) differs.push("residue sums other than the manifest's");
    if (split) {
      // A split run holds every owner's states: it names the worker that wrote it, in its name, its header and the manifest.
      const writer = (run.header as { writer?: number } | undefined)?.writer;
      if (summary.worker !== undefined || summary.source !== split.source || writer !== split.source || split.source >= owners)
        differs.push(`writer ${summary.source} of ${owners} in the manifest and ${writer} in its header, which its name does not give`);
    } else if (summary.worker! >= owners || workerOfName(summary.file, manifest) !== summary.worker) {
      differs.push(`worker ${summary.worker} of ${owners}, which its name does not give`);
    }
    for (const what of differs) problems.push({ file, problem: `has ${what}` });
  }
  // States a partitioned count's tasks held in memory inside a window have no file: their counts and sums are the markers' word.
  const held = manifest.held ?? [];
  const parts = [...manifest.runs, ...held];
  const whose = held.length > 0 ? ' and the states held in memory' : '';
  const records = parts.reduce((n, part) => n + part.records, 0);
  const bytes = manifest.runs.reduce((n, run) => n + run.bytes, 0);
  if (manifest.records !== records) bad(`total of ${counted(manifest.records, 'record')}, its runs${whose} add up to ${records}`);
  if (manifest.bytes !== bytes) bad(`total of ${counted(manifest.bytes, 'byte')}, its runs add up to ${bytes}`);
  if (
    sumResidueVectors(
      moduli,
      parts.map((part) => part.sums),
    ).join() !== manifest.sums.join()
  )
    bad(`residue sums are not the sums of its runs'${whose}`);
  const holders = held.map((part) => part.worker);
  if (new Set(holders).size !== holders.length) bad("lists a worker's held states twice");
  problems.push(...checkMarkers(dir, manifest, names));
  const legal =
    runs.every((run) => run.legal) && runs.length > 0 && held.length === 0
      ? sumResidueVectors(
          moduli,
          runs.map((run) => run.legal!),
        )
      : undefined;
  return { dir, manifest, runs, legal, problems };
}

/**
 * Whether `moduli` is the prefix of `countModuli` that the states after `step` points need: the
 * fewest whose product exceeds what one state may count, or all of them. A state counts at most
 * 2 · 3^(points placed off its border), and the states at a column's end 3^step (their legal sum);
 * a gocount before 2026-12-07 bounded every step by 3^step, and its folders verify too. Written here
 * again, apart from the engine's rule (residues/growth.ts), so that verify checks the engine rather
 * than repeating it.
 */
function carriesScheduledModuli(moduli: readonly number[], identity: CountIdentity, step: number): boolean {
  const { width, columns, moduli: countModuli } = identity;
  if (moduli.join() !== countModuli.slice(0, moduli.length).join()) return false;
  const product = (k: number) => countModuli.slice(0, k).reduce((p, m) => p * BigInt(m), 1n);
  const fewest = (bound: bigint) => moduli.length === countModuli.length || product(moduli.length) > bound;
  const noFewer = (bound: bigint) => moduli.length === 1 || product(moduli.length - 1) <= bound;
  const everyCount = 3n ** BigInt(step);
  // In the last column each step forgets the field above the point it places.
  const forgotten = Math.max(0, step - (columns - 1) * width - 1);
  const onBorder = Math.min(step, width) - forgotten;
  const oneState = step % width === 0 ? everyCount : 2n * 3n ** BigInt(step - onBorder);
  return [everyCount, oneState < everyCount ? oneState : everyCount].some((bound) => fewest(bound) && noFewer(bound));
}
