#!/usr/bin/env node
/**
 * The `gocount` command: argument parsing and printing only; every decision lives in lib/.
 * Errors print one line, "gocount: …", and exit 2 for unusable input, 1 for a failed run.
 */

import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { GocountError, UsageError } from '../lib/errors.js';
import { errorLine } from './errors.js';
import { countCommand } from './count-command.js';
import { estimateCommand } from './estimate-command.js';
import { gamesCommand } from './games-command.js';
import { inspectCommand } from './inspect-command.js';
import { recurrenceCommand } from './recurrence-command.js';
import { sampleCommand } from './sample-command.js';
import { statesCommand } from './states-command.js';
import { taskCommand } from './task-command.js';
import { verifyCommand } from './verify-command.js';

function fail(error: unknown): never {
  if (error instanceof GocountError) {
    process.stderr.write(`gocount: ${errorLine(error)}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`gocount: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  await yargs(hideBin(process.argv))
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
    .command(taskCommand)
    .example('gocount 9x9', 'count the legal positions of a 9×9 board')
    .example('gocount 5 7 --json', 'the same for 5×7, as JSON')
    .example('gocount verify scratch/', 'check every run file and manifest left in scratch/')
    .example('gocount inspect run-00001.run', "show a run file's header, trailer and first records")
    .example('gocount 15x15 --partitions 8 --launcher slurm --scratch /shared/gocount', 'count through Slurm, one job array per step')
    .strict()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(null)
    .fail((message, error) => fail(error ?? new UsageError(`${message} (see gocount --help)`)))
    .parseAsync();
}

main().catch(fail);
