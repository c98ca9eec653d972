/**
 * What a path the user names holds: its kind (a file or a folder, else refused with one line), and
 * the count folders at most a few levels below it. `verify` and `report` both look through folders
 * this way: a folder below the path that cannot be read is passed over, the path itself is not.
 */

import { readdirSync, Stats, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { TEMP_SUFFIX } from './folder-names.js';
import { pathProblem } from './make-folder.js';

/** How deep below a path to look for count folders: scratch / board / moduli. */
export const SEARCH_DEPTH = 3;

/** The stat of a file or folder the user named; anything else is refused with one line. */
export function statUserPath(target: string): Stats {
  let stat: Stats | undefined;
  try {
    stat = statSync(target, { throwIfNoEntry: false });
  } catch (error) {
    throw new UsageError(`${target}: ${pathProblem((error as NodeJS.ErrnoException).code)}`);
  }
  if (!stat) throw new UsageError(`${target}: no such file or folder`);
  if (!stat.isFile() && !stat.isDirectory()) throw new UsageError(`${target}: not a file or folder (a device, pipe or socket)`);
  return stat;
}

/** The folders at most `depth` levels below `dir` (itself included) for which isCount holds, in name order. */
export function findCountFolders(dir: string, isCount: (dir: string) => boolean, depth = SEARCH_DEPTH, top = true): string[] {
  if (isCount(dir)) return [dir];
  if (depth === 0) return [];
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      // A name ending in TEMP_SUFFIX is a count folder being removed (ScratchFolder.removeAll).
      .filter((entry) => entry.isDirectory() && !entry.name.endsWith(TEMP_SUFFIX))
      .map((entry) => entry.name);
  } catch (error) {
    if (!top) return [];
    throw new UsageError(`${dir}: cannot be read: ${pathProblem((error as NodeJS.ErrnoException).code)}`);
  }
  return names.sort((a, b) => a.localeCompare(b)).flatMap((name) => findCountFolders(path.join(dir, name), isCount, depth - 1, false));
}
