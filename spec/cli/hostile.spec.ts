import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testRefusals } from '../support/refusals.js';
import { runCli } from '../support/run-cli.js';

/**
 * Hostile paths and arguments: each gets one line naming what is wrong with which path or flag,
 * exit code 2, and no stack (testRefusals checks that stderr is that one line and nothing else).
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'gocount-hostile-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
symlinkSync(path.join(dir, 'nowhere'), path.join(dir, 'dangling'));
writeFileSync(path.join(dir, 'file'), 'not a folder\n');
mkdirSync(path.join(dir, 'folder'));
execFileSync('mkfifo', [path.join(dir, 'fifo')]);

const at = (name: string) => path.join(dir, name);

testRefusals([
  [['4x4', '--scratch', at('dangling/s')], /dangling is a symbolic link to .*nowhere, which does not exist$/m],
  [['4x4', '--scratch', at('dangling')], /dangling is a symbolic link to .*nowhere, which does not exist$/m],
  // Node's recursive mkdir spins without end under /proc.
  [['4x4', '--scratch', '/proc/gocount-x'], /cannot create \/proc\/gocount-x: the file system does not allow it$/m],
  [['4x4', '--scratch', at('file/x')], /file is a file, not a folder$/m],
  [['4x4', '--scratch', ''], /--scratch "": not a folder name$/m],
  // A switch's value is checked on the command line being run, not on the process's own arguments.
  [['4x4', '--json=maybe'], /^gocount: --json=maybe: --json takes no value \(or true or false\)$/m],
  [['4x4', '--stats-json', '/proc/version'], /--stats-json \/proc\/version: cannot be written/],
  [['4x4', '--stats-json', at('folder')], /--stats-json .*folder: is a folder, not a file$/m],
  [['4x4', '--stats-json', at('file/x.jsonl')], /--stats-json .*: its folder .*file does not exist$/m],
  [['verify', '/dev/null'], /^gocount: \/dev\/null: not a file or folder \(a device, pipe or socket\)$/m],
  [['verify', at('fifo')], /fifo: not a file or folder \(a device, pipe or socket\)$/m],
  [['verify', at('nothing')], /nothing: no such file or folder$/m],
  [['verify', at('folder')], /folder: holds no gocount count folder/],
  [['inspect', at('fifo')], /fifo: not a file$/m],
  [['inspect', at('folder')], /folder: not a file but a folder$/m],
  [['inspect', at('file')], /file: not a gocount run file/],
  [['report', at('nothing')], /nothing: no such file or folder$/m],
  [['report', at('fifo')], /fifo: not a file or folder \(a device, pipe or socket\)$/m],
  [['report', '/proc'], /^gocount: \/proc: holds no gocount count folder/m],
  [['4x4', '--fan-in', 'abc'], /^gocount: --fan-in abc: not a number$/m],
  [['4x4', '--workers', 'abc'], /^gocount: --workers abc: not a number$/m],
  [['4x4', '--memory', '-5M'], /^gocount: --memory -5M: not a positive size$/m],
  [['4x4', '-S', '-5M'], /^gocount: --memory -5M: not a positive size$/m],
  [['4x4', '--memory', '0%'], /^gocount: --memory 0%: not a positive size$/m],
  [['4x4', '--memory', '5%%'], /^gocount: --memory 5%%: not a size/m],
  [['4x4', '--disk', '50%'], /^gocount: --disk 50%: not a size \(use a number with K, M, G or T, like 512M or 4G\)$/m],
  [['states', 'abc'], /^gocount: height abc: not a number$/m],
  [['inspect', 'x.run', '--first', 'many'], /^gocount: --first many: not a number$/m],
  [['sample', '5x5', '--seed', '4294967296'], /--seed 4294967296: must be a whole number from 0 to 4294967295$/m],
  [['verfy', 'scratch'], /^gocount: unknown command "verfy": did you mean "verify"\?$/m],
  [['4x4', '--Memory', '8M'], /^gocount: unknown option "--Memory": did you mean "--memory"\?$/m],
  [['4x4', '--no-kep'], /^gocount: unknown option "--no-kep": did you mean "--no-keep"\?$/m],
  [
    ['verify', 'x', 'y', '--jsno'],
    /^gocount: unknown option "--jsno": did you mean "--json"\?; unexpected argument "y" \(see gocount --help\)$/m,
  ],
  [['4x4', '--workers', '0x2'], /^gocount: --workers 0x2: not a whole number in decimal digits$/m],
  [['4x4', '--workers', '1e1'], /^gocount: --workers 1e1: not a whole number in decimal digits$/m],
  [['4x4', '--fan-in', ' 2'], /^gocount: --fan-in " 2": not a whole number in decimal digits$/m],
  [['4x4', '--workers', '2x'], /^gocount: --workers 2x: not a number$/m],
  [['states', '3.0'], /^gocount: height 3\.0: not a whole number$/m],
  [['hello'], /^gocount: "hello" is neither a command nor a board size/m],
  // A flag of several words, mistyped: named as typed, not as yargs's camelCase copy of it.
  [['4x4', '--all-column'], /^gocount: unknown option "--all-column": did you mean "--all-columns"\?$/m],
  [['4x4', '--table-memry', '1G'], /^gocount: unknown option "--table-memry": did you mean "--table-memory"\?$/m],
  // A command without its positional says what it needs, in the words of its --help.
  [
    ['verify'],
    /^gocount: verify needs <path>: a \.run file, a step folder, a folder holding counts \(such as scratch\/\), or a gocount solve --db file$/m,
  ],
  [['inspect', '--first', '3'], /^gocount: inspect needs <file>: a \.run file$/m],
  [['report'], /^gocount: report needs <path>: a count folder, /m],
  [['states'], /^gocount: states needs <height>: M, the board height \(1 to 19\)$/m],
  [['estimate'], /^gocount: estimate needs <size>: board size as MxN or M N$/m],
]);

const injected = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'inject-internal-error.js');

test('an unexpected internal error prints one line and exit code 1', (t) => {
  const plain = runCli(['3x3'], { env: { NODE_OPTIONS: `--import=${injected}` } });
  t.is(plain.status, 1);
  t.is(plain.stderr, 'gocount: internal error: injected failure (run again with --debug for details)\n');
});

test('an unexpected internal error prints its stack with --debug', (t) => {
  const debug = runCli(['3x3', '--debug'], { env: { NODE_OPTIONS: `--import=${injected}` } });
  t.is(debug.status, 1);
  t.true(debug.stderr.startsWith('gocount: internal error: injected failure'));
  t.regex(debug.stderr, /\n\s+at .*count\/options/);
});

test('every hostile case above answers with no stack frame anywhere in its output', (t) => {
  for (const args of [
    ['verify', '/proc'],
    ['4x4', '--scratch', '/proc/gocount-x'],
    ['inspect', '/dev/null'],
  ]) {
    const run = runCli(args);
    t.is(run.status, 2, args.join(' '));
    t.notRegex(run.stdout + run.stderr, /^\s+at /m);
  }
});
