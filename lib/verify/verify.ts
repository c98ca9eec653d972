/**
 * `gocount verify PATH`: PATH is a run file (split or not), a step folder, a count folder (with count.json), or
 * any folder above count folders, such as a board's or the whole scratch folder. Returns every
 * problem found and what was looked at; throws a UsageError when PATH holds nothing to verify.
 */

import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import fse from 'fs-extra';
import { callbackOption, stringArgument } from '../shared/arguments.js';
import { UsageError } from '../shared/errors.js';
import { COUNT_FILE, MANIFEST_FILE, parseSplitRunFileName, RUN_SUFFIX, stepOfFolder } from '../format/folder-names.js';
import { SPLIT_MAGIC } from '../format/split-layout.js';
import { HEADER_MAGIC } from '../format/layout.js';
import { pathProblem } from '../format/make-folder.js';
import { findCountFolders, statUserPath } from '../format/find-counts.js';
import { checkCount } from './folder-check.js';
import { fileCheckOf, type FileKind } from './file-checks.js';
import { Problem, statusOf, VerifyStatus } from './problems.js';
import { checkRunFile } from './run-check.js';
import { checkSplitFile } from './split-check.js';
import { checkStep, StepCheck } from './step-check.js';

export interface VerifyReport {
  readonly path: string;
  readonly counts: number;
  readonly steps: number;
  readonly files: number;
  /** Solve databases (gocount solve --db); their records are states. */
  readonly databases?: number;
  /**
   * Which solve file it was: a database, a no-cycle solve's checkpoint or its table of earlier
   * results (lib/solve/files, which registers their checks: lib/verify/file-checks.ts).
   */
  readonly solveFile?: FileKind;
  readonly records: number;
  readonly problems: Problem[];
  /** clean, unfinished (only the marks of a count running or stopped before its end) or damaged. */
  readonly status: VerifyStatus;
}

/**
 * Step folders checked so far, of how many, and the run files and bytes they held; for a solve
 * database, its states checked of how many.
 */
export interface VerifyProgress {
  readonly steps: number;
  readonly totalSteps: number;
  readonly files: number;
  readonly bytes: number;
  readonly states?: number;
  readonly totalStates?: number;
}

// `path`, as its errors name it (within it the name hides node:path, which it does not use).
export function verifyPath(path: string, onProgress: (progress: VerifyProgress) => void = () => {}): VerifyReport {
  stringArgument('path', path);
  callbackOption('onProgress', onProgress);
  const found = findProblems(path, onProgress);
  return { ...found, status: statusOf(found.problems) };
}

function findProblems(target: string, onProgress: (progress: VerifyProgress) => void): Omit<VerifyReport, 'status'> {
  const stat = statUserPath(target);
  if (stat.isFile() && path.basename(target) === COUNT_FILE) return verifyPath(path.dirname(target), onProgress);
  if (stat.isFile()) {
    const registered = fileCheckOf(target);
    if (registered) {
      const checked = registered.check(target, (states, totalStates) =>
        onProgress({ steps: 0, totalSteps: 0, files: 0, bytes: 0, states, totalStates }),
      );
      const { kind: solveFile } = registered;
      return { path: target, counts: 0, steps: 0, files: 0, databases: 1, solveFile, records: checked.states, problems: checked.problems };
    }
    if (path.basename(target) === MANIFEST_FILE) return fromSteps(target, 0, [checkStep(path.dirname(target))]);
    // A .run file without the magic is a damaged run file (a problem found); anything else is not ours.
    const magic = startsWithMagic(target);
    if (!magic && !target.endsWith(RUN_SUFFIX))
      throw new UsageError(`${target}: not a gocount run file (it does not start with ${HEADER_MAGIC} or ${SPLIT_MAGIC})`);
    const split = magic === SPLIT_MAGIC || (!magic && parseSplitRunFileName(path.basename(target)) !== undefined);
    const run = split ? checkSplitFile(target) : checkRunFile(target);
    return { path: target, counts: 0, steps: 0, files: 1, records: run.records, problems: run.problems };
  }
  if (fse.pathExistsSync(path.join(target, MANIFEST_FILE)) || stepOfFolder(target) !== undefined) {
    return fromSteps(target, 0, [checkStep(target)]);
  }
  const folders = findCountFolders(target, (dir) => fse.pathExistsSync(path.join(dir, COUNT_FILE)));
  if (folders.length === 0) throw new UsageError(`${target}: holds no gocount count folder (${COUNT_FILE}), step folder or run file`);
  const totalSteps = folders.reduce((n, folder) => n + readdirSync(folder).filter((name) => stepOfFolder(name) !== undefined).length, 0);
  const done = { steps: 0, totalSteps, files: 0, bytes: 0 };
  const checks = folders.map((folder) =>
    checkCount(folder, (step) => {
      done.steps++;
      done.files += step.runs.length;
      done.bytes += step.runs.reduce((n, run) => n + run.bytes, 0);
      onProgress({ ...done });
    }),
  );
  const report = fromSteps(
    target,
    checks.length,
    checks.flatMap((check) => check.steps),
  );
  // Count-level problems include the steps' own; report each once.
  return { ...report, problems: checks.flatMap((check) => check.problems) };
}

function fromSteps(target: string, counts: number, steps: StepCheck[]): Omit<VerifyReport, 'status'> {
  return {
    path: target,
    counts,
    steps: steps.length,
    files: steps.reduce((n, step) => n + step.runs.length, 0),
    records: steps.reduce((n, step) => n + step.runs.reduce((m, run) => m + run.records, 0), 0),
    problems: steps.flatMap((step) => step.problems),
  };
}

/** The magic a file starts with: a run file's or a split run file's, or undefined. */
function startsWithMagic(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new UsageError(`${file}: cannot be read: ${pathProblem((error as NodeJS.ErrnoException).code)}`);
  }
  try {
    const buf = Buffer.alloc(HEADER_MAGIC.length);
    const magic = readSync(fd, buf, 0, buf.length, 0) === buf.length ? buf.toString('latin1') : undefined;
    return magic === HEADER_MAGIC || magic === SPLIT_MAGIC ? magic : undefined;
  } finally {
    closeSync(fd);
  }
}
