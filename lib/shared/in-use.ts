/**
 * A process that runs gocount from a checkout marks itself in that checkout's dist/, so that a build
 * there (cli/build.mjs) refuses rather than delete the files this process still loads as it goes:
 * worker threads, kernels, a partition task's command.
 */

import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';

/** dist/, two folders above this module's compiled file (dist/lib/shared/in-use.js). */
const DIST = fileURLToPath(new URL('../../', import.meta.url));

/** The folder of marks, one file a process, named by its pid: cli/build.mjs reads the same name. */
export const IN_USE_FOLDER = path.join(DIST, '.in-use');

let marked = false;

/** Marks this process until it exits; once per process, and only in a checkout (which has a tsconfig.json beside dist/). */
export function markInUse(): void {
  if (marked || !isMainThread || !existsSync(path.join(DIST, '..', 'tsconfig.json'))) return;
  marked = true;
  const mark = path.join(IN_USE_FOLDER, String(process.pid));
  try {
    mkdirSync(IN_USE_FOLDER, { recursive: true });
    writeFileSync(mark, `${process.pid}\n`);
  } catch {
    return; // a dist/ this process cannot write to is no dist/ it can rebuild under itself either
  }
  process.on('exit', () => rmSync(mark, { force: true }));
}
