/**
 * One test per bad input: the command must print one clear line on stderr and exit with code 2.
 * A table's command lines run in one process, one after another (spec/support/command-lines.ts).
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliResult } from './run-cli.js';
import { once } from './shared.js';

const commandLines = path.join(path.dirname(fileURLToPath(import.meta.url)), 'command-lines.js');

/** The results of `lines`, run in one process, in their order. */
function runAll(lines: string[][]): Array<CliResult & { late: string }> {
  const run = spawnSync(process.execPath, [commandLines, JSON.stringify(lines)], { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`the command lines' process exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

export function testRefusals(cases: Array<[string[], RegExp]>): void {
  const results = once(() => runAll(cases.map(([args]) => args)));
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
