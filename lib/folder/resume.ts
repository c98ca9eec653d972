/**
 * Where a pass restarts after a crash or a kill: the latest step whose manifest exists and whose
 * run files all check out, read in full (header, every record, trailer or index, CRC-32) and matched against
 * the manifest. Steps without a manifest were never finished and are removed (but for a partitioned
 * count's next step, below); a step whose files fail is removed too, with a note, and the one before
 * it is tried. Nothing unchecked is used.
 */

import path from 'node:path';
import fse from 'fs-extra';
import { GocountError, InvalidOptionError, UsageError } from '../shared/errors.js';
import { MANIFEST_FILE, RUN_SUFFIX, stepFilesEndingIn } from '../format/folder-names.js';
import { readManifest, StepManifest } from '../format/manifest.js';
import { runHeaderProblem } from '../format/layout.js';
import { readWholeRun } from '../format/section-reader.js';
import type { CountLayout, ScratchFolder } from './scratch.js';
import { moduliAt } from '../residues/growth.js';
import { counted } from '../shared/plural.js';

const READ_BUFFER_BYTES = 1 << 20;

/**
 * The manifest to resume from, or undefined to start at step 0. A step folder without a manifest
 * was cut short and goes, except, with keepNext, the one after the resume point: a partitioned
 * count's tasks that finished there keep their work.
 */
export function findResumePoint(
  scratch: ScratchFolder,
  layout: CountLayout,
  note: (message: string) => void,
  keepNext = false,
): StepManifest | undefined {
  scratch.removeLeftovers();
  const buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  const unfinished: number[] = [];
  const found = latestCompleteStep();
  for (const step of unfinished) if (!(keepNext && found && step === found.step + 1)) scratch.removeStep(step);
  return found;

  function latestCompleteStep(): StepManifest | undefined {
    for (const step of scratch.steps().reverse()) {
      const manifest = completeStep(step);
      if (manifest) return manifest;
    }
    return undefined;
  }

  function completeStep(step: number): StepManifest | undefined {
    const dir = scratch.stepDir(step);
    if (!fse.pathExistsSync(path.join(dir, MANIFEST_FILE))) {
      unfinished.push(step); // cut short before its manifest: never complete
      return undefined;
    }
    // A damaged step is passed over, with a note, and removed: the one before it is tried.
    const passOver = (error: unknown): undefined => {
      if (!(error instanceof GocountError)) throw error;
      note(`not resuming from step ${step}: ${error.message}`);
      scratch.removeStep(step);
      return undefined;
    };
    let manifest: StepManifest;
    try {
      manifest = readManifest(path.join(dir, MANIFEST_FILE));
    } catch (error) {
      return passOver(error);
    }
    refuseAnotherSchedule(manifest, scratch, step);
    try {
      checkStepFiles(dir, manifest, scratch, step, buffer);
    } catch (error) {
      return passOver(error);
    }
    const written = `step ${step} in ${scratch.root} was written by`;
    if (manifest.partitions !== layout.partitions) {
      const problem = `${written} ${counted(manifest.partitions, 'partition')}: resume it with ${manifest.partitions}`;
      throw new InvalidOptionError('partitions', layout.partitions, problem);
    }
    if (manifest.workers !== layout.workers) {
      const problem = `${written} ${counted(manifest.workers, 'worker')}${manifest.partitions > 1 ? ' per partition' : ''}: resume it with ${manifest.workers}, or leave the number out`;
      throw new InvalidOptionError('workers', layout.workers, problem);
    }
    return manifest;
  }
}

/**
 * Stops, removing nothing, at a step of this count written by a gocount whose steps carried
 * residues for 3^step (before growth.ts bounded a state's count by its class): its files are whole,
 * and that gocount finishes the count.
 */
function refuseAnotherSchedule(manifest: StepManifest, scratch: ScratchFolder, step: number): void {
  const { width, columns, moduli } = scratch.identity;
  const carried = manifest.moduli;
  const expected = moduliAt(moduli, step, scratch.identity);
  const sameCount =
    manifest.step === step && manifest.width === width && manifest.columns === columns && manifest.countModuli?.join() === moduli.join();
  const otherPrefix =
    Array.isArray(carried) && carried.length !== expected.length && carried.join() === moduli.slice(0, carried.length).join();
  if (sameCount && otherPrefix)
    throw new UsageError(
      `step ${step} in ${scratch.root} carries ${counted(carried.length, 'residue')} a state where this gocount carries ${expected.length}: an earlier gocount wrote it, and finishes it; or count again in another scratch folder`,
      'GOCOUNT_SCRATCH_UNUSABLE',
    );
}

/** Throws a GocountError unless the step folder holds exactly the manifest's runs, each whole. */
function checkStepFiles(dir: string, manifest: StepManifest, scratch: ScratchFolder, step: number, buffer: Buffer): void {
  const { width, columns, moduli } = scratch.identity;
  const problem = (what: string): never => {
    throw new GocountError(`${path.join(dir, MANIFEST_FILE)}: ${what}`, 1);
  };
  const stepModuli = moduliAt(moduli, step, scratch.identity);
  if (
    manifest.step !== step ||
    manifest.width !== width ||
    manifest.columns !== columns ||
    manifest.countModuli.join() !== moduli.join() ||
    manifest.moduli.join() !== stepModuli.join()
  ) {
    problem('describes another step or count');
  }
  if (!Array.isArray(manifest.columnSums) || manifest.columnSums.length !== columnsSummedBefore(step, width))
    problem('column sums missing');
  const listed = new Set(manifest.runs.map((run) => run.file));
  for (const name of stepFilesEndingIn(dir, RUN_SUFFIX)) if (!listed.has(name)) problem(`${name} is not listed`);
  for (const run of manifest.runs) {
    const file = path.join(dir, run.file);
    if (!fse.pathExistsSync(file)) problem(`${run.file} is missing`);
    // Reading checks every record, then the trailer (a split run's index) and CRC-32.
    const read = readWholeRun(file, buffer);
    const wrong = runHeaderProblem(read.header, { width, columns, step, moduli: stepModuli });
    if (wrong) problem(`${run.file} ${wrong}`);
    if (read.records !== run.records) problem(`${run.file} holds ${read.records} records, the manifest says ${run.records}`);
    if (read.sums.join() !== run.sums.join()) problem(`${run.file}: residue sums differ from the manifest's`);
  }
}

/** How many column sums the manifest of `step` carries: those of boundaries expanded before it. */
export function columnsSummedBefore(step: number, width: number): number {
  return step === 0 ? 0 : Math.floor((step - 1) / width);
}
