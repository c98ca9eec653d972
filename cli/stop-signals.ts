/**
 * Ctrl-C and SIGTERM during a count: the first asks the engine to stop before its next step, at a
 * point from which the same command resumes; a second stops the process at once, giving back its
 * lock (the step under way is then counted again on the resume, and its temporary files are
 * cleared then).
 */

import { CountLock } from '../lib/engine/count-lock.js';
import { AbortedError } from '../lib/errors.js';

const EXIT_CODES: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

export interface StopSignals {
  readonly signal: AbortSignal;
  /** An AbortedError with the exit code of the signal received; other errors unchanged. */
  exitCodeFor(error: unknown): unknown;
  dispose(): void;
}

export function stopOnSignals(tell: (message: string) => void): StopSignals {
  const controller = new AbortController();
  let received: string | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    if (received !== undefined) {
      CountLock.releaseAll(); // the count is gone: the next run need not take its lock over
      process.stderr.write(`\ngocount: stopped at once by a second ${name}; the same command resumes from the last complete step\n`);
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
