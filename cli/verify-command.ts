/** `gocount verify PATH`: checks run files, step folders and count folders offline. */

import type { CommandModule } from 'yargs';
import { formatProblem } from '../lib/verify/problems.js';
import { verifyPath } from '../lib/verify/verify.js';
import { verifyProgress } from './verify-progress.js';

interface VerifyArgs {
  path: string;
  json: boolean;
  quiet: boolean;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify <path>',
  describe:
    'check a run file, a step folder, a whole scratch folder or a solve database offline; exit 0 when clean, 1 when anything is wrong',
  builder: (y) =>
    y
      .positional('path', {
        type: 'string',
        demandOption: true,
        describe: 'a .run file, a step folder, a folder holding counts (such as scratch/), or a gocount solve --db file',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress on stderr' }),
  handler: (args) => {
    const progress = verifyProgress(process.stderr, args.quiet);
    const report = verifyPath(args.path, progress.onProgress);
    progress.done();
    const ok = report.problems.length === 0;
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ ok, ...report })}\n`);
    } else {
      for (const problem of report.problems) process.stdout.write(`${formatProblem(problem)}\n`);
      const what = [
        report.counts > 0 ? plural(report.counts, 'count') : '',
        report.steps > 0 ? plural(report.steps, 'step') : '',
        report.databases
          ? plural(report.databases, `solve ${SOLVE_FILE_NAMES[report.solveFile ?? 'database']}`)
          : plural(report.files, 'run file'),
        report.databases ? `${report.records} states` : `${report.records} records`,
      ].filter(Boolean);
      const verdict = ok ? 'no problems' : plural(report.problems.length, 'problem');
      process.stdout.write(`checked ${what.join(', ')}: ${verdict}\n`);
    }
    if (!ok) process.exitCode = 1;
  },
};

const SOLVE_FILE_NAMES = { database: 'database', checkpoint: 'checkpoint', table: 'table file' } as const;

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
