/** Small files (manifests, count and result records, solve databases) written whole or not at all. */

import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { tempPath } from './count-folder.js';

/**
 * Writes `text` under a temporary name (`temp`, by default the path's own), syncs it and renames it
 * into place. A device or a pipe (/dev/stdout, a FIFO) is written to as it is: a rename would
 * replace it with a plain file.
 */
export function writeFileAtomically(path: string, text: string | Uint8Array, temp = tempPath(path)): void {
  if (isDeviceOrPipe(path)) {
    writeFileSync(path, text);
    return;
  }
  try {
    writeFileSync(temp, text);
    const fd = openSync(temp, 'r');
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
    syncDirectory(dirname(path));
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Makes a rename in `dir` durable: without it a power cut may undo the rename after a later step. */
export function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function isDeviceOrPipe(path: string): boolean {
  try {
    const stats = statSync(path);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false;
  }
}
