/**
 * What ends a step, for the pass in one process and for the partitioned driver alike: the
 * manifest that makes it complete, and the column sums its legal states give.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { MANIFEST_FILE, tempPath } from '../format/folder-names.js';
import { buildManifest, type HeldStates, type ManifestWindow, StepManifest, writeManifest } from '../format/manifest.js';
import type { RunSummary } from '../format/run-writer.js';
import { liftResidues, moduliAt, type SweptBoard } from '../residues/growth.js';
import { sumResidueVectors } from '../residues/sums.js';
import { CountLayout, diskError, ScratchFolder } from './scratch.js';

/** Writes the manifest that makes the states after `step` points complete. */
export function writeStepManifest(
  scratch: ScratchFolder,
  layout: CountLayout,
  step: number,
  runs: RunSummary[],
  dropped: ArrayLike<number>,
  columnSums: number[][],
  window?: ManifestWindow,
  held?: HeldStates[],
): StepManifest {
  const { width, columns, moduli } = scratch.identity;
  const manifest = buildManifest(
    { width, columns, step, moduli: moduliAt(moduli, step, scratch.identity), countModuli: moduli, ...layout },
    runs,
    dropped,
    columnSums,
    window,
    held,
  );
  const file = path.join(scratch.stepDir(step), MANIFEST_FILE);
  try {
    fse.ensureDirSync(path.dirname(file));
    writeManifest(file, manifest);
  } catch (error) {
    fse.removeSync(tempPath(file));
    throw diskError(error, file);
  }
  return manifest;
}

/** L(width, step / width) for every modulus of the pass, from the legal states' residue vectors of the workers. */
export function columnSum(moduli: readonly number[], step: number, board: SweptBoard, vectors: number[][]): number[] {
  return liftResidues(sumResidueVectors(moduliAt(moduli, step, board), vectors), moduli);
}
