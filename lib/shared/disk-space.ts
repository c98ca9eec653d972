/** The disk a folder's file system has free, for the plan and the count's warning before it starts. */

import { existsSync, statfsSync } from 'node:fs';
import path from 'node:path';

export interface FreeSpace {
  /** Bytes this process may still write there (blocks free to unprivileged users). */
  readonly bytes: number;
  /** The folder measured: the one asked for, or its nearest ancestor that exists (a scratch folder not made yet). */
  readonly at: string;
}

/** The free space of `dir`'s file system, or undefined where the system cannot say. */
export function freeSpace(dir: string): FreeSpace | undefined {
  let at = path.resolve(dir);
  while (!existsSync(at)) {
    const up = path.dirname(at);
    if (up === at) return undefined;
    at = up;
  }
  try {
    const { bavail, bsize } = statfsSync(at);
    return { bytes: bavail * bsize, at };
  } catch {
    return undefined;
  }
}
