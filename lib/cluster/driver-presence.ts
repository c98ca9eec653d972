/**
 * Whether the driver that launched a task process is still there. The driver holds the count's
 * lock (folder/lock.ts) and refreshes the lock file's time while its tasks run; a task that
 * waits for the next step stops when the lock is gone, another driver holds it, or it has not been
 * refreshed for DRIVER_SILENCE_MS: a driver killed on another node leaves its lock behind, and its
 * tasks on a cluster would otherwise wait until their time limit. A driver of the task's own
 * host that has stopped is seen at once.
 */

import { statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { LOCK_FILE } from '../format/folder-names.js';
import { isStale, LockHolder, readLockHolder } from '../folder/lock.js';

/** How often a driver refreshes its lock's time. */
export const DRIVER_BEAT_MS = 30_000;
/** How long a waiting task trusts a lock that is not refreshed: clocks of cluster nodes and NFS's cached times differ. */
export const DRIVER_SILENCE_MS = 10 * 60_000;
/** The lock is looked at no more often than this while a task waits. */
const LOOK_EVERY_MS = 500;

/** Refreshes the time of the lock of count folder `dir` until the returned function is called. */
export function beatWhileRunning(dir: string): () => void {
  const file = path.join(dir, LOCK_FILE);
  const beat = () => {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // the lock is gone: the driver is ending, and its tasks will see that
    }
  };
  beat();
  const timer = setInterval(beat, DRIVER_BEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The driver a task serves, from the lock of its count folder when the task starts. */
export class DriverWatch {
  private readonly dir: string;
  private readonly holder: LockHolder | undefined;
  private readonly silenceMs: number;
  private lookedAt = 0;
  private reason?: string;

  constructor(dir: string, silenceMs = DRIVER_SILENCE_MS) {
    this.dir = dir;
    this.holder = readLockHolder(dir);
    this.silenceMs = silenceMs;
  }

  /** Whether a driver held the lock when the task started. */
  get present(): boolean {
    return this.holder !== undefined;
  }

  /** Why the driver is gone, or undefined while it is there; looks at the lock now and then. */
  gone(now = Date.now()): string | undefined {
    if (this.reason !== undefined || now - this.lookedAt < LOOK_EVERY_MS) return this.reason;
    this.lookedAt = now;
    const holder = readLockHolder(this.dir);
    const mine = this.holder;
    if (!holder || !mine) this.reason = 'its lock is gone';
    else if (holder.pid !== mine.pid || holder.host !== mine.host || holder.started !== mine.started)
      this.reason = `another driver holds the count now (process ${holder.pid} on ${holder.host})`;
    else if (isStale(holder)) this.reason = `its process ${holder.pid} on this host has stopped`;
    else {
      const quiet = now - lockTime(this.dir);
      if (quiet > this.silenceMs) this.reason = `it has not refreshed its lock for ${Math.round(quiet / 1000)} s`;
    }
    return this.reason;
  }
}

function lockTime(dir: string): number {
  try {
    return statSync(path.join(dir, LOCK_FILE)).mtimeMs;
  } catch {
    return 0;
  }
}
