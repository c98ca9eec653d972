/**
 * `npm run bench`'s child for a count's first steps: counts a board through the library and stops
 * it by its abort signal once `steps` steps have ended (no public flag stops a count at a step),
 * then prints the stats of the steps it ran as JSON, as `gocount --json` prints a whole count's.
 * Usage: node bench-steps.js BOARD STEPS MEMORY SCRATCH WORKERS.
 */

import { countLegal } from '../lib/count/count-legal.js';
import type { StepReport } from '../lib/observe/progress.js';
import { summarize } from '../lib/observe/stats.js';
import { AbortedError } from '../lib/shared/errors.js';

const [board, stepsText, memory, scratch, workers] = process.argv.slice(2);
const [m, n] = board.split('x').map(Number);
const steps = Number(stepsText);
const stop = new AbortController();
const reports: StepReport[] = [];
const started = performance.now();
try {
  await countLegal({
    m,
    n,
    memory,
    scratch,
    workers: Number(workers),
    signal: stop.signal,
    onProgress: (event) => {
      if (event.type !== 'step-end') return;
      reports.push(event.report);
      if (event.report.step >= steps) stop.abort();
    },
  });
  throw new Error(`${board} ended before its step ${steps}`);
} catch (error) {
  if (!(error instanceof AbortedError) || reports.length < steps) throw error;
}
console.log(JSON.stringify({ steps: reports.length, stats: summarize(reports, (performance.now() - started) / 1000) }));
