/**
 * A step's manifest: the run files that hold the states after `step` points, their totals, and
 * the residues the step before sent to dropped successors. A step is complete exactly when its
 * manifest exists; it is written under a temporary name and renamed.
 */

import { readFileSync } from 'node:fs';
import { RunFileError } from '../errors.js';
import { writeFileAtomically } from './atomic.js';
import { FORMAT_VERSION } from './layout.js';
import type { RunSummary } from './run-writer.js';
import { sumResidueVectors } from '../residues/sums.js';

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 'gocount-step';

export interface StepManifest {
  readonly format: typeof MANIFEST_FORMAT;
  readonly version: number;
  readonly width: number;
  readonly columns: number;
  readonly step: number;
  readonly moduli: number[];
  /** How many partitions (workers) wrote the runs; each run names its own. */
  readonly partitions: number;
  readonly runs: RunSummary[];
  readonly records: number;
  /** Per residue: the sum over all runs of this step. */
  readonly sums: number[];
  readonly bytes: number;
  /** Per residue: what the step before sent to successors it dropped (zeros at step 0). */
  readonly dropped: number[];
  /** columnSums[k − 1]: L(width, k) per residue, for the columns finished before this step. */
  readonly columnSums: number[][];
}

export function buildManifest(
  identity: { width: number; columns: number; step: number; moduli: readonly number[]; partitions: number },
  runs: RunSummary[],
  dropped: ArrayLike<number>,
  columnSums: number[][],
): StepManifest {
  const { moduli } = identity;
  const sums = sumResidueVectors(moduli, runs.map((run) => run.sums));
  return {
    format: MANIFEST_FORMAT,
    version: FORMAT_VERSION,
    width: identity.width,
    columns: identity.columns,
    step: identity.step,
    moduli: [...moduli],
    partitions: identity.partitions,
    runs,
    records: runs.reduce((n, run) => n + run.records, 0),
    sums,
    bytes: runs.reduce((n, run) => n + run.bytes, 0),
    dropped: Array.from(dropped),
    columnSums: columnSums.map((sums) => [...sums]),
  };
}

export function writeManifest(path: string, manifest: StepManifest): void {
  writeFileAtomically(path, JSON.stringify(manifest, null, 1) + '\n');
}

export function readManifest(path: string): StepManifest {
  let manifest: StepManifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RunFileError(path, `not a readable manifest (${(error as Error).message})`);
  }
  if (manifest?.format !== MANIFEST_FORMAT) throw new RunFileError(path, 'not a gocount step manifest');
  if (manifest.version !== FORMAT_VERSION) throw new RunFileError(path, `manifest version ${manifest.version}, this gocount reads ${FORMAT_VERSION}`);
  return manifest;
}
