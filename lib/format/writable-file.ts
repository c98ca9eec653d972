/** The check an output file's name gets before any work starts: a count or a solve may take hours. */

import path from 'node:path';
import { accessSync, constants, statSync } from 'node:fs';
import { InvalidOptionError } from '../shared/errors.js';

/**
 * `file` resolved, when it names a file that can be written: not a folder, in a folder that exists
 * and can be written to (a device or a pipe, like /dev/stdout, is written as it is). `option` names
 * it in the error.
 */
export function writableFile(option: string, file: string): string {
  if (typeof file !== 'string' || file.trim() === '') throw new InvalidOptionError(option, `"${String(file)}"`, 'not a file name');
  const resolved = path.resolve(file);
  const statOf = (at: string) => {
    try {
      return statSync(at, { throwIfNoEntry: false });
    } catch {
      return undefined; // a part of the path is a file
    }
  };
  const target = statOf(resolved);
  if (target?.isDirectory()) throw new InvalidOptionError(option, file, 'is a folder, not a file');
  if (target !== undefined && !target.isFile()) return resolved;
  const folder = path.dirname(resolved);
  if (!statOf(folder)?.isDirectory()) throw new InvalidOptionError(option, file, `its folder ${folder} does not exist`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new InvalidOptionError(option, file, `its folder ${folder} cannot be written to`);
  }
  return resolved;
}
