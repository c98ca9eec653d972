/**
 * Run files written whole under their temporary names, each waiting for its sync on libuv's
 * thread pool while the step goes on: a file is closed and renamed into place once its bytes are on
 * disk, as commitTempFile does, but the thread that wrote it does not wait for the disk. settle()
 * waits for every one and syncs their folders; only then may a step's manifest name them.
 */

import { closeSync, fsync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { discardTempFile, syncDirectory } from './atomic.js';

interface Pending {
  readonly path: string;
  readonly done: Promise<void>;
}

/** A commit that failed: the run file it was for, and why. */
export interface FailedCommit {
  readonly path: string;
  readonly error: unknown;
}

export class PendingCommits {
  private pending: Pending[] = [];

  /** Files handed over and not yet settled. */
  get size(): number {
    return this.pending.length;
  }

  /** Syncs the file open at `fd` (its bytes all written to `temp`), then closes it and renames it to `path`. */
  add(fd: number, temp: string, path: string): void {
    const done = new Promise<void>((resolve, reject) => {
      fsync(fd, (error) => {
        try {
          if (error) throw error;
          closeSync(fd);
          renameSync(temp, path);
          resolve();
        } catch (failure) {
          discardTempFile(error ? fd : -1, temp);
          reject(failure);
        }
      });
    });
    // Settled later; a rejection is not unhandled in the meantime.
    done.catch(() => {});
    this.pending.push({ path, done });
  }

  /**
   * Waits for every file handed over: each renamed into place, then each folder synced once.
   * Returns the first failure, if any (the others are in place or removed).
   */
  async settle(): Promise<FailedCommit | undefined> {
    const pending = this.pending;
    this.pending = [];
    const results = await Promise.allSettled(pending.map((commit) => commit.done));
    const failed = results.findIndex((result) => result.status === 'rejected');
    if (failed >= 0) return { path: pending[failed].path, error: (results[failed] as PromiseRejectedResult).reason };
    try {
      for (const folder of new Set(pending.map((commit) => dirname(commit.path)))) syncDirectory(folder);
    } catch (error) {
      return { path: pending[0].path, error };
    }
    return undefined;
  }
}
