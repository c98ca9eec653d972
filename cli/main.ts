#!/usr/bin/env node
/** The `gocount` command: runs its command line (cli/command-line.ts) for this process's arguments. */

import { hideBin } from 'yargs/helpers';
import { GocountError, systemProblem } from '../lib/shared/errors.js';
import { markInUse } from '../lib/shared/in-use.js';
import { fail, runCommandLine } from './command-line.js';

// A build in this checkout refuses while the command runs from it (cli/build.mjs).
markInUse();
// Output into a full device or a closed pipe (gocount … | head) stops the command: one line for a
// full device, nothing for a pipe whose reader has gone.
process.stdout.on('error', (error: NodeJS.ErrnoException) =>
  error.code === 'EPIPE' ? process.exit(1) : fail(new GocountError(`cannot write the output: ${systemProblem(error)}`, 1)),
);
runCommandLine(hideBin(process.argv)).catch(fail);
