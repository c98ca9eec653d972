/**
 * verify's progress on stderr, for folders and solve databases that take a while: on a terminal a line redrawn at most
 * five times a second, otherwise a line every 5 seconds; nothing for a check that ends sooner.
 */

import type { VerifyProgress } from '../lib/index.js';
import { formatBytes } from '../lib/shared/units.js';
import type { Clock, ProgressStream } from './progress-display.js';
import { counted } from '../lib/shared/plural.js';

export function verifyProgress(stream: ProgressStream, quiet: boolean, clock: Clock = Date.now) {
  const started = clock();
  let last = started;
  let drawn = false;
  const every = stream.isTTY ? 200 : 5000;
  return {
    onProgress(progress: VerifyProgress): void {
      const now = clock();
      if (quiet || now - last < every) return;
      last = now;
      const line =
        progress.totalStates !== undefined
          ? `verifying: ${progress.states} of ${counted(progress.totalStates, 'state')}`
          : `verifying: ${progress.steps}/${counted(progress.totalSteps, 'step folder')}, ${counted(progress.files, 'run file')}, ` +
            `${formatBytes(progress.bytes)} read`;
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      stream.write(stream.isTTY ? `\r\x1b[K${line.slice(0, width)}` : `${line}\n`);
      drawn = true;
    },
    /** Clears the redrawn line before the report is printed. */
    done(): void {
      if (drawn && stream.isTTY) stream.write('\r\x1b[K');
    },
  };
}
