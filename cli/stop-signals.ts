/**
 * Ctrl-C and SIGTERM during a count: the first asks the engine to stop after the step under way,
 * which it writes to disk, so that the same command resumes after it; a second stops the process at
 * once, giving back its lock, and says what is lost (the steps not yet on disk are counted again on
 * the resume, and their temporary files are cleared then). The toolkit's games and sample stop
 * within a fraction of a second of the first.
 */

import { CountLock } from '../lib/folder/lock.js';
import { AbortedError } from '../lib/shared/errors.js';

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export interface StopSignals {
  readonly signal: AbortSignal;
  /** An AbortedError with the exit code of the signal received; other errors unchanged. */
  exitCodeFor(error: unknown): unknown;
  dispose(): void;
}

/** `afterwards`: what a second signal's line adds, after the words that the command stopped at once. */
export function stopOnSignals(tell: (message: string) => void, afterwards: () => string): StopSignals {
  const controller = new AbortController();
  let received: string | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    if (received !== undefined) {
      CountLock.releaseAll(); // the count is gone: the next run need not take its lock over
      process.stderr.write(`\ngocount: stopped at once by a second ${name}${afterwards()}\n`);
      process.exit(EXIT_CODES[name]);
    }
    received = name;
    tell(`${name}: stopping after the step under way (again to stop at once)`);
    controller.abort();
  };
  for (const name of Object.keys(EXIT_CODES)) process.on(name, onSignal);
  return {
    signal: controller.signal,
    exitCodeFor: (error) =>
      error instanceof AbortedError && received !== undefined ? new AbortedError(error.message, EXIT_CODES[received]) : error,
    dispose: () => {
      for (const name of Object.keys(EXIT_CODES)) process.off(name, onSignal);
    },
  };
}

/**
 * Runs work that stops at once when its signal is aborted (the toolkit's `games` and `sample`): the
 * first SIGINT or SIGTERM stops it, with the signal's exit code, and there is nothing to say before.
 */
export async function stoppedBySignals<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = stopOnSignals(
    () => {},
    () => '',
  );
  // The handlers stay on a failure until the process exits, as for a count.
  const result = await work(stop.signal).catch((error: unknown) => Promise.reject(stop.exitCodeFor(error)));
  stop.dispose();
  return result;
}
