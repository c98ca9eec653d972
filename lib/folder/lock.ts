/**
 * The lock on a count folder: one count at a time. Taking it is atomic: the holder's record (pid,
 * host, start time) is written to a temporary file and hard-linked to lock.json, which fails when
 * the lock exists. A lock whose holder was on this host and is dead is taken over, with a note;
 * one held from another host is never taken over: the user removes it, as the message says.
 * A partitioned count's driver holds it; its tasks do not take it.
 */

import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../shared/errors.js';
import { LOCK_FILE, tempPath } from '../format/folder-names.js';

export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** ISO 8601. */
  readonly started: string;
}

export class CountLock {
  /** The locks this process holds, for a stop that cannot wait for their owners (releaseHeldLocks). */
  private static readonly held = new Set<CountLock>();

  private constructor(
    readonly file: string,
    private readonly holder: LockHolder,
  ) {
    CountLock.held.add(this);
  }

  /** Takes the lock on count folder `dir`, or throws a UsageError naming its holder. */
  static take(dir: string, note: (message: string) => void): CountLock {
    const file = path.join(dir, LOCK_FILE);
    const me: LockHolder = { pid: process.pid, host: os.hostname(), started: new Date().toISOString() };
    const temp = `${tempPath(file)}-${process.pid}`;
    writeFileSync(temp, JSON.stringify(me) + '\n');
    try {
      for (;;) {
        try {
          linkSync(temp, file);
          return new CountLock(file, me);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const holder = readLockHolder(dir);
        if (!holder || !isStale(holder)) throw lockedError(dir, holder);
        note(`took over the lock of ${dir} from process ${holder.pid}, which is no longer running`);
        rmSync(file, { force: true });
      }
    } finally {
      rmSync(temp, { force: true });
    }
  }

  /** Gives back every lock this process holds: for a process about to exit at once (a second Ctrl-C). */
  static releaseAll(): void {
    for (const lock of [...CountLock.held]) lock.release();
  }

  /** Gives the lock back, if it is still this count's. */
  release(): void {
    CountLock.held.delete(this);
    const holder = readLockHolder(path.dirname(this.file));
    if (holder?.pid === this.holder.pid && holder.host === this.holder.host) rmSync(this.file, { force: true });
  }
}

/** Who holds the lock on count folder `dir`: undefined when there is no lock, or it is unreadable. */
export function readLockHolder(dir: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as LockHolder;
    return Number.isInteger(holder?.pid) && typeof holder.host === 'string' ? holder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a lock's holder is known to have stopped: a process of this host that is no longer running.
 * One on another host may be running, whatever this host says.
 */
export function isStale(holder: LockHolder): boolean {
  return holder.host === os.hostname() && !isAlive(holder.pid);
}

/** Whether a process of this host is running (a process of another user counts as running). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedError(dir: string, holder: LockHolder | undefined): UsageError {
  const who = holder ? `process ${holder.pid} on ${holder.host} since ${holder.started}` : 'a process whose lock file is unreadable';
  return new UsageError(
    `${dir} is being counted by ${who}; if that count is gone for good, remove ${path.join(dir, LOCK_FILE)} and run again`,
    'GOCOUNT_SCRATCH_LOCKED',
  );
}
