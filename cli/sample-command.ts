/** `gocount sample MxN`: an unbiased estimate of L(m,n) by Heuristic Sampling (paper §5.8). */

import type { CommandModule } from 'yargs';
import { numberOption } from './number-option.js';
import { parseBoard } from '../lib/board/shape.js';
import { DEFAULT_RUNS } from '../lib/paper/defaults.js';
import { stoppedBySignals } from './stop-signals.js';

interface SampleArgs {
  size: (string | number)[];
  runs: number;
  seed?: number;
  json: boolean;
  quiet: boolean;
}

/**
 * Progress lines, a line every 5 s at most: the probes done of all, and the seconds since `started`
 * (on `clock`, performance.now()'s by default). The last probe says nothing: the result follows.
 */
export function sampleProgress(
  label: string,
  started: number,
  write: (line: string) => void,
  clock = () => performance.now(),
): (done: number, runs: number) => void {
  let shown = started;
  return (done, runs) => {
    const now = clock();
    if (now - shown < 5000 || done === runs) return;
    shown = now;
    write(`${label}: ${done} of ${runs} probes, ${((now - started) / 1000).toFixed(0)} s\n`);
  };
}

export const sampleCommand: CommandModule<object, SampleArgs> = {
  command: 'sample <size..>',
  describe: 'estimate L(m,n) by Heuristic Sampling over the tree of border states, with a standard error',
  builder: (y) =>
    y
      .positional('size', { describe: 'board size as MxN or M N', type: 'string', array: true, demandOption: true })
      .option('runs', {
        ...numberOption('runs'),
        default: DEFAULT_RUNS,
        describe: 'probes to average (the standard error falls as 1/√runs)',
      })
      .option('seed', { ...numberOption('seed'), describe: 'seed of the random generator, to repeat a sample (default: from the clock)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the estimate, standard error and exact count as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress lines on stderr while the probes run' }),
  handler: async (args) => {
    const board = parseBoard(args.size);
    const [{ knownCount }, { sample }] = await Promise.all([import('../lib/paper/known-count.js'), import('../lib/paper/toolkit.js')]);
    const started = performance.now();
    const write = (line: string) => process.stderr.write(line);
    const onProgress = args.quiet || args.json ? undefined : sampleProgress(`sample ${board.m}x${board.n}`, started, write);
    const sampled = await stoppedBySignals((signal) =>
      sample({ m: board.m, n: board.n, runs: args.runs, seed: args.seed, signal, onProgress }),
    );
    const { seed, ...result } = sampled;
    const seconds = (performance.now() - started) / 1000;
    const exact = knownCount(board.m, board.n);
    const difference = exact === undefined ? undefined : result.mean - Number(exact.value);
    // Every probe of a board with one border state per step gives the exact count: no error at all.
    const deviations = difference === undefined || result.standardError === 0 ? undefined : difference / result.standardError;
    const { m, n } = board;
    if (args.json) {
      process.stdout.write(
        `${JSON.stringify({
          m,
          n,
          ...result,
          relativeStandardError: result.standardError / result.mean,
          seed,
          seconds,
          exact: exact?.value.toString(),
          deviations,
        })}\n`,
      );
      return;
    }
    const lines = [
      `L(${m},${n}) ≈ ${result.mean.toPrecision(6)} ± ${result.standardError.toPrecision(3)} ` +
        `(standard error, ${((100 * result.standardError) / result.mean).toPrecision(3)}%)`,
      `${result.runs} runs, seed ${seed}, ${seconds.toFixed(1)} s`,
    ];
    if (exact !== undefined)
      lines.push(
        deviations === undefined
          ? `exact ${exact.value}: every probe gave ${difference === 0 ? 'it' : result.mean.toPrecision(6)}`
          : `exact ${exact.value}: the estimate is ${deviations.toFixed(2)} standard errors from it`,
      );
    process.stdout.write(`${lines.join('\n')}\n`);
  },
};
