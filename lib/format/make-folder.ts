/**
 * Folders the user names (--scratch): created one level at a time, with one line saying what is
 * wrong with which part of the path. Node's recursive mkdir never returns on some paths (under
 * /proc it spins), and its errors name only the deepest folder.
 */

import { lstatSync, mkdirSync, readlinkSync, rmdirSync, Stats, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';

/** What an errno means for a folder the user named. */
export function pathProblem(code: string | undefined): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ENOENT':
      return 'the file system does not allow it';
    case 'EEXIST':
      return 'exists, but is not a folder';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'no space left on the device';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    default:
      return code ?? 'unknown error';
  }
}

/**
 * Makes `dir` and its missing parents; `what` names the folder in errors ("scratch folder").
 * Returns the topmost folder it created, or undefined when `dir` was there already.
 */
export function makeFolder(dir: string, what: string): string | undefined {
  const missing: string[] = [];
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const found = statOf(at);
    if (found) {
      if (!found.isDirectory()) throw new UsageError(`${what} ${dir}: ${at} is a file, not a folder`, 'GOCOUNT_SCRATCH_UNUSABLE');
      break;
    }
    if (statOf(at, lstatSync)?.isSymbolicLink())
      throw new UsageError(
        `${what} ${dir}: ${at} is a symbolic link to ${readlinkSync(at)}, which does not exist`,
        'GOCOUNT_SCRATCH_UNUSABLE',
      );
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  const made: string[] = [];
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
      made.push(folder);
    } catch (error) {
      // What was made for nothing goes: a path too long for the file system leaves no folders behind.
      for (const empty of made.reverse()) rmdirSync(empty);
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(`${what} ${dir}: cannot create ${folder}: ${pathProblem(code)}`, 'GOCOUNT_SCRATCH_UNUSABLE');
    }
  }
  return made[0];
}

/** The stat of `at`, undefined when it is not there (also when a parent is a file: the walk up finds that file). */
function statOf(at: string, stat: typeof statSync | typeof lstatSync = statSync): Stats | undefined {
  try {
    return stat(at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new UsageError(`${at}: ${pathProblem(code)}`, 'GOCOUNT_SCRATCH_UNUSABLE');
  }
}
