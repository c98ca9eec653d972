/**
 * `gocount verify PATH`: PATH is a run file, a step folder, a count folder (with count.json), or
 * any folder above count folders, such as a board's or the whole scratch folder. Returns every
 * problem found and what was looked at; throws a UsageError when PATH holds nothing to verify.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import fse from 'fs-extra';
import { UsageError } from '../errors.js';
import { COUNT_FILE, MANIFEST_FILE, RUN_SUFFIX, stepOfFolder } from '../format/count-folder.js';
import { HEADER_MAGIC } from '../format/layout.js';
import { checkCount } from './count-check.js';
import type { Problem } from './problems.js';
import { checkRunFile } from './run-check.js';
import { checkStep, StepCheck } from './step-check.js';

export interface VerifyReport {
  readonly path: string;
  readonly counts: number;
  readonly steps: number;
  readonly files: number;
  readonly records: number;
  readonly problems: Problem[];
}

/** How deep below PATH to look for count folders: scratch / board / moduli. */
const SEARCH_DEPTH = 3;

export function verifyPath(target: string): VerifyReport {
  const stat = fse.statSync(target, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`${target}: no such file or folder`);
  if (stat.isFile()) {
    if (path.basename(target) === MANIFEST_FILE) return fromSteps(target, 0, [checkStep(path.dirname(target))]);
    // A .run file without the magic is a damaged run file (a problem found); anything else is not ours.
    if (!startsWithMagic(target) && !target.endsWith(RUN_SUFFIX))
      throw new UsageError(`${target}: not a gocount run file (it does not start with ${HEADER_MAGIC})`);
    const run = checkRunFile(target);
    return { path: target, counts: 0, steps: 0, files: 1, records: run.records, problems: run.problems };
  }
  if (fse.pathExistsSync(path.join(target, MANIFEST_FILE)) || stepOfFolder(target) !== undefined) {
    return fromSteps(target, 0, [checkStep(target)]);
  }
  const folders = countFolders(target, SEARCH_DEPTH);
  if (folders.length === 0) throw new UsageError(`${target}: holds no gocount count folder (${COUNT_FILE}), step folder or run file`);
  const checks = folders.map(checkCount);
  const report = fromSteps(
    target,
    checks.length,
    checks.flatMap((check) => check.steps),
  );
  // Count-level problems include the steps' own; report each once.
  return { ...report, problems: checks.flatMap((check) => check.problems) };
}

function fromSteps(target: string, counts: number, steps: StepCheck[]): VerifyReport {
  return {
    path: target,
    counts,
    steps: steps.length,
    files: steps.reduce((n, step) => n + step.runs.length, 0),
    records: steps.reduce((n, step) => n + step.runs.reduce((m, run) => m + run.records, 0), 0),
    problems: steps.flatMap((step) => step.problems),
  };
}

function countFolders(dir: string, depth: number): string[] {
  if (fse.pathExistsSync(path.join(dir, COUNT_FILE))) return [dir];
  if (depth === 0) return [];
  return fse
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => countFolders(path.join(dir, entry.name), depth - 1));
}

function startsWithMagic(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(HEADER_MAGIC.length);
    return readSync(fd, buf, 0, buf.length, 0) === buf.length && buf.toString('latin1') === HEADER_MAGIC;
  } finally {
    closeSync(fd);
  }
}
