/** Small files (manifests, count and result records) written whole or not at all. */

import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { TEMP_SUFFIX } from './layout.js';

/** Writes `text` under a temporary name, syncs it and renames it into place. */
export function writeFileAtomically(path: string, text: string): void {
  const temp = path + TEMP_SUFFIX;
  try {
    writeFileSync(temp, text);
    const fd = openSync(temp, 'r');
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
