/**
 * One test per bad input: the command must print one clear line on stderr and exit with code 2.
 * A table's command lines run in one process, one after another (spec/support/command-lines.ts).
 */
import test from 'ava';
import { runCliLines } from './run-cli.js';
import { once } from './shared.js';

export function testRefusals(cases: Array<[string[], RegExp]>): void {
  const results = once(() => runCliLines(cases.map(([args]) => args)));
  cases.forEach(([args, message], i) => {
    test(`bad input ${JSON.stringify(args)}: one clear line, exit code 2`, (t) => {
      const run = results()[i];
      t.is(run.status, 2);
      t.is(run.stdout, '');
      t.regex(run.stderr, message);
      t.regex(run.stderr, /^gocount: [^\n]+\n$/);
      t.is(run.late, '', 'printed after it exited');
    });
  });
}
