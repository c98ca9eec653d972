/**
 * Waiting for files that another process writes into the count folder (a step's manifest, the
 * done-markers): a check run after each short sleep, the sleeps growing from a few milliseconds to a
 * tenth of a second, and cut short by fs.watch events on the folder where the file will appear and
 * by anything else that calls wake(). Cluster file systems may not deliver the events; the sleeps
 * bound the wait there.
 */

import { watch, type FSWatcher } from 'node:fs';

/** The first sleep and the longest, milliseconds. */
export const FIRST_SLEEP_MS = 5;
export const LONGEST_SLEEP_MS = 100;

export interface WaitOptions {
  /** A folder whose changes wake the wait at once; one that does not exist is only polled. */
  readonly watch?: string;
  /** Wakes the wait when aborted; the check decides what that means. */
  readonly signal?: AbortSignal;
  /** Given a function that wakes the wait, for events of its own (a child process that ended). */
  readonly wakeOn?: (wake: () => void) => () => void;
}

/** Runs `check` until it gives a value, sleeping between tries; resolves to that value. */
export async function waitFor<T>(check: () => T | undefined, options: WaitOptions = {}): Promise<T> {
  let wake = () => {};
  const wakeNow = () => wake();
  let watcher: FSWatcher | undefined;
  if (options.watch !== undefined) {
    try {
      watcher = watch(options.watch, { persistent: false }, wakeNow);
      watcher.on('error', () => watcher?.close()); // the folder went: the sleeps go on
    } catch {
      // no folder yet, or no events here: polling alone
    }
  }
  options.signal?.addEventListener('abort', wakeNow);
  const unsubscribe = options.wakeOn?.(wakeNow);
  try {
    // The watch is armed before the first check: a change after it wakes the sleep that follows.
    for (let sleep = FIRST_SLEEP_MS; ; sleep = Math.min(LONGEST_SLEEP_MS, sleep * 2)) {
      const value = check();
      if (value !== undefined) return value;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, sleep);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = () => {};
    }
  } finally {
    watcher?.close();
    options.signal?.removeEventListener('abort', wakeNow);
    unsubscribe?.();
  }
}
