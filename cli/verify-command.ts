/**
 * `gocount verify PATH`: checks run files, step folders and count folders offline. Exit 0 when
 * clean, 1 for damage, 3 when all it found is a count running or stopped before its end.
 */

import type { CommandModule } from 'yargs';
import { formatProblem } from '../lib/verify/problems.js';
import { verifyProgress } from './verify-progress.js';
import { counted } from '../lib/shared/plural.js';

interface VerifyArgs {
  path: string;
  json: boolean;
  quiet: boolean;
}

export const verifyCommand: CommandModule<object, VerifyArgs> = {
  command: 'verify <path>',
  describe:
    'check a run file, a step folder, a whole scratch folder or a solve database offline; exit 0 when clean, 1 when anything ' +
    'is damaged, 3 when it found only a count running or stopped before its end (which the same count command resumes)',
  builder: (y) =>
    y
      .positional('path', {
        type: 'string',
        demandOption: true,
        describe: 'a .run file, a step folder, a folder holding counts (such as scratch/), or a gocount solve --db file',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the report as JSON' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress on stderr' }),
  handler: async (args) => {
    const [{ verifyPath }, { registerSolveFileChecks }] = await Promise.all([
      import('../lib/verify/verify.js'),
      import('../lib/solve/files/file-checks.js'),
    ]);
    // verify knows the solver's files only through the checks the solver registers with it.
    registerSolveFileChecks();
    const progress = verifyProgress(process.stderr, args.quiet);
    const report = verifyPath(args.path, progress.onProgress);
    progress.done();
    const ok = report.status === 'clean';
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ ok, ...report })}\n`);
    } else {
      for (const problem of report.problems) process.stdout.write(`${formatProblem(problem)}\n`);
      const what = [
        report.counts > 0 ? counted(report.counts, 'count') : '',
        report.steps > 0 ? counted(report.steps, 'step') : '',
        report.databases
          ? counted(report.databases, `solve ${SOLVE_FILE_NAMES[report.solveFile ?? 'database']}`)
          : counted(report.files, 'run file'),
        counted(report.records, report.databases ? 'state' : 'record'),
      ].filter(Boolean);
      const verdict = VERDICTS[report.status](report.problems.length);
      process.stdout.write(`checked ${what.join(', ')}: ${verdict}\n`);
    }
    process.exitCode = EXIT_CODES[report.status];
  },
};

/** The exit code of each outcome: a count that is only unfinished is not damage, and scripts tell them apart. */
const EXIT_CODES = { clean: 0, damaged: 1, unfinished: 3 } as const;

const VERDICTS = {
  clean: () => 'no problems',
  damaged: (n: number) => counted(n, 'problem'),
  unfinished: () => 'no damage; a count is running here, or was stopped before its end and resumes when run again',
} as const;

const SOLVE_FILE_NAMES = { database: 'database', checkpoint: 'checkpoint', table: 'table file' } as const;
