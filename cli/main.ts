#!/usr/bin/env node
/**
 * The `gocount` command: argument parsing and printing only; every decision lives in lib/.
 * Errors print one line, "gocount: …", and exit 2 for unusable input, 1 for a failed run.
 */

import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { GocountError, UsageError } from '../lib/errors.js';
import { errorLine } from './errors.js';
import { EXIT_CODES, formatHelp } from './help-text.js';
import { countCommand } from './count-command.js';
import { estimateCommand } from './estimate-command.js';
import { gamesCommand } from './games-command.js';
import { solveCommand } from './solve-command.js';
import { inspectCommand } from './inspect-command.js';
import { recurrenceCommand } from './recurrence-command.js';
import { reportCommand } from './report-command.js';
import { sampleCommand } from './sample-command.js';
import { statesCommand } from './states-command.js';
import { taskCommand } from './task-command.js';
import { verifyCommand } from './verify-command.js';

/** Read before parsing: a failure while parsing prints its stack too. */
const DEBUG = process.argv.includes('--debug');

function fail(error: unknown): never {
  if (error instanceof GocountError) {
    process.stderr.write(`gocount: ${errorLine(error)}\n`);
    process.exit(error.exitCode);
  }
  // An error nobody foresaw: one line, and the stack only when asked for (--debug).
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`gocount: internal error: ${message} (run again with --debug for details)\n`);
  if (DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const cli = yargs()
    .scriptName('gocount')
    .usage(
      'gocount [MxN | M N] [options]\n\n' +
        'Counts the legal Go positions of an M×N board exactly: the positions in which every string of stones has a liberty.',
    )
    .command(countCommand)
    .command(verifyCommand)
    .command(inspectCommand)
    .command(statesCommand)
    .command(recurrenceCommand)
    .command(estimateCommand)
    .command(sampleCommand)
    .command(gamesCommand)
    .command(solveCommand)
    .command(reportCommand)
    .command(taskCommand)
    .example('gocount 9x9', 'count the legal positions of a 9×9 board')
    .example('gocount 5 7 --json', 'the same for 5×7, as JSON')
    .example('gocount 13x13 --memory 50% -T /data/gocount --plan', 'what a count would need, before starting it')
    .example('gocount verify scratch/', 'check every run file and manifest left in scratch/')
    .example('gocount report scratch/13x13 -o 13x13.html', 'charts of a running or finished count')
    .example('gocount 15x15 --partitions 8 --launcher slurm --scratch /shared/gocount', 'count through Slurm, one job array per step')
    .epilog(EXIT_CODES)
    .option('debug', { type: 'boolean', default: false, describe: 'print the stack of an internal error', global: true })
    .strict()
    .help()
    .alias('h', 'help')
    .version()
    .fail((message, error) => {
      // yargs hands on an error thrown while it parses (a coerce) as a YError with the same message.
      if (error?.name === 'YError') fail(new UsageError(error.message));
      fail(error ?? new UsageError(`${message} (see gocount --help)`));
    });
  // Help and version come back as text: placeholders go in before it is printed.
  await cli.wrap(null).parseAsync(joinSizeValues(hideBin(process.argv)), {}, (_error, _argv, output) => {
    if (output) process.stdout.write(`${formatHelp(output, Math.min(process.stdout.columns || 80, 120))}\n`);
  });
}

/** Options whose value is a size: "--memory -5M" is a bad size, not the flags -5 and -M. */
const SIZE_OPTIONS = ['--memory', '-S', '--buffer-size', '--disk'];

function joinSizeValues(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (SIZE_OPTIONS.includes(args[i]) && /^-\d/.test(args[i + 1] ?? '')) joined.push(`${args[i]}=${args[++i]}`);
    else joined.push(args[i]);
  }
  return joined;
}

main().catch(fail);
