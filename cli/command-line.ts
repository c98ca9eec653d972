/**
 * The `gocount` command line: argument parsing and printing only; every decision lives in lib/.
 * Errors print one line, "gocount: …", and exit 2 for unusable input, 1 for a failed run.
 * Each command's handler loads its work (the engine, the solver, the checks) with import() when it
 * runs, so help, the version and a refused command line start without it (spec/cli/startup.spec.ts).
 * cli/main.ts runs it for the process's arguments; the tests' refusal tables run many in one process.
 */

import yargs from 'yargs';
import { GocountError, isSystemError, shortenPaths, systemExitCode, systemProblem, UsageError } from '../lib/shared/errors.js';
import { errorLine } from './errors.js';
import { parseBoard } from '../lib/board/shape.js';
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
import { setCommandLine, valuesRequired } from './values-required.js';
import { unknownArgumentsLine } from './unknown-arguments.js';
import { missingPositionalLine } from './missing-positional.js';

/** System calls in words, for the error line of a file that cannot be used. */
const SYSCALL_WORDS: Record<string, string> = {
  scandir: 'read the folder',
  opendir: 'read the folder',
  mkdir: 'create the folder',
  unlink: 'remove',
  rmdir: 'remove the folder',
  rm: 'remove',
  lstat: 'look at',
  stat: 'look at',
  fsync: 'sync',
};

/** Set before parsing: a failure while parsing prints its stack too. */
let debug = false;

/** Prints the error in one line (and its stack with --debug) and exits with its code. */
export function fail(error: unknown): never {
  if (error instanceof GocountError) {
    process.stderr.write(`gocount: ${errorLine(error)}\n`);
    process.exit(error.exitCode);
  }
  if (isSystemError(error)) {
    // A file or folder the system refused, or a full disk: what was done to which path, and why.
    const target = error.path === undefined ? '' : ` ${error.path}${error.dest === undefined ? '' : ` as ${error.dest}`}`;
    process.stderr.write(
      shortenPaths(`gocount: cannot ${SYSCALL_WORDS[error.syscall] ?? error.syscall}${target}: ${systemProblem(error)}`) + '\n',
    );
    if (debug && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exit(systemExitCode(error));
  }
  // An error nobody foresaw: one line, and the stack only when asked for (--debug).
  const message = shortenPaths(error instanceof Error ? error.message : String(error));
  process.stderr.write(`gocount: internal error: ${message} (run again with --debug for details)\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}

/** Runs the command line `args` (the arguments after the script's name); a failure rejects, for fail(). */
export async function runCommandLine(args: string[]): Promise<void> {
  debug = args.includes('--debug');
  setCommandLine(args);
  const cli = yargs()
    .scriptName('gocount')
    .usage(
      'gocount [MxN | M N] [options]\n\n' +
        'Counts the legal Go positions of an M×N board exactly: the positions in which every string of stones has a liberty.',
    )
    .command(valuesRequired(countCommand))
    .command(valuesRequired(verifyCommand))
    .command(valuesRequired(inspectCommand))
    .command(valuesRequired(statesCommand))
    .command(valuesRequired(recurrenceCommand))
    .command(valuesRequired(estimateCommand))
    .command(valuesRequired(sampleCommand))
    .command(valuesRequired(gamesCommand))
    .command(valuesRequired(solveCommand))
    .command(valuesRequired(reportCommand))
    .command(valuesRequired(taskCommand))
    .example('gocount 9x9', 'count the legal positions of a 9×9 board')
    .example('gocount 5 7 --json', 'the same for 5×7, as JSON')
    .example('gocount 13x13 --memory 50% -T /data/gocount --plan', 'what a count would need, before starting it')
    .example('gocount verify scratch/', 'check every run file and manifest left in scratch/')
    .example('gocount report scratch/13x13 -o 13x13.html', 'charts of a running or finished count')
    .example('gocount 15x15 --partitions 8 --launcher slurm --scratch /shared/gocount', 'count through Slurm, one job array per pass')
    .epilog(EXIT_CODES)
    .option('debug', { type: 'boolean', default: false, describe: 'print the stack of an internal error', global: true })
    .strict()
    .middleware(lastValueWins, true)
    .help()
    .alias('h', 'help')
    .version()
    .fail((message, error) => {
      // yargs hands on an error thrown while it parses (a coerce) as a YError with the same message.
      if (error?.name === 'YError') fail(new UsageError(oneLine(error.message)));
      const unknown = /^Unknown arguments?: (.+)$/.exec(message ?? '');
      if (!error && unknown) fail(new UsageError(unknownArgumentsLine(unknown[1].split(', '), args)));
      const missing = error ? undefined : missingPositionalLine(message ?? '');
      if (missing) fail(new UsageError(missing));
      fail(error ?? new UsageError(`${oneLine(message)} (see gocount --help)`));
    });
  // Help and version come back as text: placeholders go in before it is printed.
  await cli.wrap(null).parseAsync(joinSizeValues(args), {}, (_error, _argv, output) => {
    if (output) process.stdout.write(`${formatHelp(output, Math.min(process.stdout.columns || 80, 120))}\n`);
  });
}

/**
 * A flag given twice takes its last value, as in most commands (a flag in a shell alias can then be
 * overridden). yargs collects the values in an array; the board size and what follows "--" are the
 * arrays meant as such.
 */
function lastValueWins(argv: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(argv)) if (Array.isArray(value) && !['_', '--', 'size'].includes(key)) argv[key] = value.at(-1);
}

/** A yargs message on one line, in the words of the rest of gocount's errors. */
function oneLine(message: string): string {
  const missing = /^Not enough arguments following: (.+)$/.exec(message);
  if (missing) return `${missing[1].length === 1 ? '-' : '--'}${missing[1]} needs a value`;
  const choice = /^Invalid values:\s*Argument: ([\w-]+), Given: "(.*)", Choices: (.*)$/.exec(message.trim());
  if (choice) return `--${choice[1]} ${choice[2]}: must be ${choice[3].replace(/"/g, '').replace(/, ([^,]*)$/, ' or $1')}`;
  return message.replace(/:?\s*\n\s*/g, ': ');
}

/** Options whose value is a size: "--memory -5M" is a bad size, not the flags -5 and -M. */
const SIZE_OPTIONS = ['--memory', '-S', '--buffer-size', '--disk'];

function joinSizeValues(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (SIZE_OPTIONS.includes(args[i]) && /^-\d/.test(args[i + 1] ?? '')) joined.push(`${args[i]}=${args[++i]}`);
    // "-S4M" as GNU sort takes it, not the flags -S, -4 and -M.
    else if (/^-S[^=]/.test(args[i])) joined.push(`--memory=${args[i].slice(2)}`);
    // "-3x3" is a board size with a negative side, not the flags -3 and -x: parseBoard says so.
    else if (/^-\d+[x×X]/.test(args[i])) parseBoard([args[i]]);
    else joined.push(args[i]);
  }
  return joined;
}
