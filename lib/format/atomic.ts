/** Small files (manifests, count and result records, solve databases) written whole or not at all. */

import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { tempPath } from './folder-names.js';
import { chargeWrite } from './write-faults.js';

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

/** Writes all of `data` at the end of the file open at `fd` (a run file being written: GOCOUNT_DISK_FULL_AFTER counts it). */
export function writeAll(fd: number, data: Uint8Array): void {
  chargeWrite(data.length);
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done);
}

/** A file written whole under its temporary name, open at `fd`: synced, closed and renamed into place. */
export function commitTempFile(fd: number, temp: string, path: string): void {
  fsyncSync(fd);
  closeSync(fd);
  renameSync(temp, path);
  syncDirectory(dirname(path));
}

/** On an error: closes `fd` (−1: closed already) and removes the temporary file. */
export function discardTempFile(fd: number, temp: string): void {
  if (fd >= 0) {
    try {
      closeSync(fd);
    } catch {
      // already unusable; removing it is what matters
    }
  }
  rmSync(temp, { force: true });
}

function isDeviceOrPipe(path: string): boolean {
  try {
    const stats = statSync(path);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false;
  }
}
