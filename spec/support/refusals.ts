/** One test per bad input: the command must print one clear line on stderr and exit with code 2. */
import test from 'ava';
import { runCli } from './run-cli.js';

export function testRefusals(cases: Array<[string[], RegExp]>): void {
  for (const [args, message] of cases) {
    test(`bad input ${JSON.stringify(args)}: one clear line, exit code 2`, (t) => {
      const run = runCli(args);
      t.is(run.status, 2);
      t.is(run.stdout, '');
      t.regex(run.stderr, message);
      t.regex(run.stderr, /^gocount: [^\n]+\n$/);
    });
  }
}
