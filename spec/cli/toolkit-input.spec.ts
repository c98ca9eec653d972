// Every function the library exports checks its arguments as the command does: typed errors with
// their codes, naming the library's argument (never a flag), and options objects without unknown keys.
import test, { type ExecutionContext } from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  countLegal,
  countLegalInMemory,
  estimate,
  games,
  GocountError,
  type GocountErrorCode,
  inspectRun,
  InvalidOptionError,
  lookUp,
  parseStepLog,
  planCount,
  readStepLog,
  recurrence,
  sample,
  solve,
  UsageError,
  validStates,
  verifyPath,
} from '../../lib/index.js';
import { flagOf } from '../../cli/errors.js';
import { fixturesDir } from '../support/paths.js';
import { tempScratch } from '../support/scratch.js';

interface Refusal {
  readonly code: GocountErrorCode;
  /** The library's argument an InvalidOptionError names; absent for another UsageError. */
  readonly option?: string;
  readonly message: RegExp;
}

/** Whatever `call` throws or rejects with; undefined when it returns. */
async function thrownBy(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function refuses(t: ExecutionContext, call: () => unknown, expected: Refusal, label: string): Promise<void> {
  const error = await thrownBy(call);
  t.true(error instanceof UsageError, `${label}: ${String(error)}`);
  const e = error as GocountError;
  t.is(e.code, expected.code, label);
  t.is(e.exitCode, 2, label);
  if (expected.option === undefined) t.false(e instanceof InvalidOptionError, label);
  else t.is((e as InvalidOptionError).option, expected.option, label);
  t.regex(e.message, expected.message, label);
  t.notRegex(e.message, /--/, label);
}

const invalid = (option: string, message: RegExp): Refusal => ({ code: 'GOCOUNT_INVALID_OPTION', option, message });
const size = (message: RegExp): Refusal => ({ code: 'GOCOUNT_INVALID_SIZE', message });
const input = (message: RegExp): Refusal => ({ code: 'GOCOUNT_INVALID_INPUT', message });

test("issue 52's cases: refused as the command refuses them, and solve takes the sizes countLegal takes", async (t) => {
  await refuses(t, () => validStates(25, 3), invalid('height', /^height 25: states handles heights 1 to 19$/), 'validStates(25, 3)');
  await refuses(t, () => validStates(0, 0), invalid('height', /^height 0: states handles heights 1 to 19$/), 'validStates(0, 0)');
  await refuses(t, () => estimate(-3, 5), size(/^board size "-3 5": m = "-3" is not a positive integer$/), 'estimate(-3, 5)');
  await refuses(
    t,
    () => parseStepLog('garbage'),
    input(/^the text: not a gocount step log \(no line of format gocount-step\)$/),
    'garbage',
  );
  const misspelt = invalid('memmory', /^memmory "1G": not an option of solve \(did you mean memory\?\)$/);
  await refuses(t, () => solve({ m: 1, n: 2, memmory: '1G' } as never), misspelt, 'memmory');
  t.is(solve({ m: 1, n: 2, memory: '64M' }).value, 0);
});

test('validStates: a height of 1 to 19 and a y within it, whole numbers', async (t) => {
  t.is(validStates(2, 1), 25);
  await refuses(t, () => validStates(3, 3), invalid('y', /^y 3: must be a whole number from 0 to 2$/), 'y = height');
  await refuses(t, () => validStates(2.5, 0), invalid('height', /^height 2.5: states handles/), 'fraction');
  await refuses(t, () => validStates('3' as never, 0), invalid('height', /^height "3": states handles/), 'string');
});

test('recurrence: heights 1 to 6 and 1 to 1000 digits, as gocount recurrence', async (t) => {
  await refuses(t, () => recurrence(7, 10), invalid('height', /^height 7: recurrence handles heights 1 to 6/), 'height 7');
  await refuses(t, () => recurrence(2, 0), invalid('digits', /^digits 0: must be a whole number from 1 to 1000$/), 'digits 0');
  await refuses(t, () => recurrence(2, 1001), invalid('digits', /^digits 1001: must be a whole number from 1 to 1000$/), 'digits 1001');
});

test('estimate: a board of up to 10^7 points, and A, B, L from 1 to 18', async (t) => {
  t.is(estimate(5, 5, 18).exact, 414295148741n);
  await refuses(t, () => estimate(5, 5, 19), invalid('from', /^from 19: must be a whole number from 1 to 18$/), 'from 19');
  await refuses(t, () => estimate(5000, 5000), size(/^board 5000x5000: estimate handles boards of up to 10000000 points$/), '5000²');
  await refuses(t, () => estimate('5' as never, 5), size(/^board size "5" 5: m is not a number$/), 'string side');
});

test('sample: an options object of known keys, runs of at least 2, a 32-bit seed, a signal', async (t) => {
  const board = { m: 3, n: 3, seed: 1 };
  await refuses(t, () => sample({ ...board, runs: 1 }), invalid('runs', /^runs 1: must be a whole number of at least 2$/), 'runs 1');
  await refuses(t, () => sample({ ...board, runs: 10, seed: -1 }), invalid('seed', /^seed -1: must be a whole number from 0/), 'seed');
  const typo = invalid('run', /^run 10: not an option of sample \(did you mean runs\?\)$/);
  await refuses(t, () => sample({ ...board, run: 10 } as never), typo, 'run');
  await refuses(t, () => sample({ ...board, runs: 10, signal: 'stop' as never }), invalid('signal', /not an AbortSignal$/), 'signal');
  await refuses(
    t,
    () => sample(3 as never),
    input(/^sample takes an options object, \{ m, n, runs, seed, signal, onProgress \}, not 3$/),
    'number',
  );
});

test('games: an options object of known keys, a board of up to 12 points, a callback', async (t) => {
  await refuses(t, () => games({ m: 4, n: 4 }), size(/^board 4x4: games handles boards of up to 12 points$/), '4×4');
  const typo = invalid('onProgres', /^onProgres a function: not an option of games \(did you mean onProgress\?\)$/);
  await refuses(t, () => games({ m: 1, n: 2, onProgres: () => {} } as never), typo, 'onProgres');
  await refuses(
    t,
    () => games({ m: 1, n: 2, onProgress: 5 as never }),
    invalid('onProgress', /^onProgress 5: not a function$/),
    'callback',
  );
  await refuses(
    t,
    () => (games as unknown as (m: number, n: number) => unknown)(2, 3),
    input(/^games takes an options object/),
    'games(2, 3)',
  );
});

test('solve: unknown options, switches and sizes refused by the option', async (t) => {
  await refuses(t, () => solve({ m: 1, n: 2, memory: 'lots' }), invalid('memory', /^memory lots: not a size/), 'memory lots');
  await refuses(t, () => solve({ m: 1, n: 2, memory: -5 }), invalid('memory', /^memory -5: not a positive whole number of bytes$/), '-5');
  await refuses(
    t,
    () => solve({ m: 1, n: 2, symmetry: 'no' as never }),
    invalid('symmetry', /^symmetry "no": must be true or false$/),
    'switch',
  );
  await refuses(t, () => solve({ m: 0, n: 2 }), size(/m = "0" is not a positive integer/), '0×2');
});

test('solve refuses a database it cannot write, or one with only the empty board valued, before it starts', async (t) => {
  const missing = path.join(tempScratch(t), 'no-folder', 'x.db');
  await refuses(t, () => solve({ m: 1, n: 2, db: missing }), invalid('db', /: its folder .* does not exist$/), 'no folder');
  const only = path.join(tempScratch(t), 'x.db');
  await refuses(
    t,
    () => solve({ m: 1, n: 2, emptyBoardOnly: true, db: only }),
    invalid('db', /needs every state valued/),
    'emptyBoardOnly',
  );
  await refuses(t, () => solve({ m: 1, n: 2, onResume: 3 as never }), invalid('onResume', /^onResume 3: not a function$/), 'onResume');
});

test('lookUp and countLegalInMemory: a file, a position, known options', async (t) => {
  await refuses(t, () => lookUp(7 as never, { position: 'X.' }), invalid('file', /^file 7: not a string$/), 'file');
  const misspelt = invalid('toMov', /^toMov "white": not an option of lookUp \(did you mean toMove\?\)$/);
  await refuses(t, () => lookUp('x.db', { position: 'X.', toMov: 'white' } as never), misspelt, 'toMov');
  await refuses(
    t,
    () => lookUp('x.db', { position: 'X.', toMove: 'red' as never }),
    invalid('toMove', /^toMove "red": must be black or white$/),
    'red',
  );
  const orientation = invalid('keepOrientaton', /not an option of countLegalInMemory \(did you mean keepOrientation\?\)$/);
  await refuses(t, () => countLegalInMemory({ m: 3, n: 3, keepOrientaton: true } as never), orientation, 'keepOrientaton');
  await refuses(t, () => countLegalInMemory({ m: 0, n: 3 }), size(/m = "0" is not a positive integer/), '0×3');
  t.is(countLegalInMemory({ m: 3, n: 3 }), 12675n);
});

test('parseStepLog and readStepLog: an empty text is an empty log, a first line cut short is skipped, other text is refused', async (t) => {
  const log = readStepLog(path.join(fixturesDir, 'steps-9x9.jsonl'));
  t.is(log.length, 81);
  t.deepEqual(parseStepLog(''), []);
  t.deepEqual(parseStepLog('{"format":"gocount-step","version":1,"wid'), []);
  const text = `${JSON.stringify(log[0])}\n${JSON.stringify(log[1]).slice(0, 30)}`;
  t.deepEqual(parseStepLog(text), [log[0]]);
  await refuses(t, () => parseStepLog('{"a":1}\n'), input(/^the text: not a gocount step log/), 'other JSON');
  await refuses(t, () => parseStepLog(42 as never), invalid('text', /^text 42: not a string$/), 'number');
  const dir = tempScratch(t);
  const file = path.join(dir, 'notes.txt');
  writeFileSync(file, 'garbage\n');
  await refuses(t, () => readStepLog(file), input(new RegExp(`^${file}: not a gocount step log`)), 'file');
  await refuses(t, () => readStepLog(path.join(dir, 'none')), input(/none: cannot be read: no such file or directory \(ENOENT\)$/), 'none');
});

test('verifyPath and inspectRun: a path, a callback, whole numbers of records', async (t) => {
  const run = path.join(fixturesDir, 'runs');
  await refuses(t, () => verifyPath(7 as never), invalid('path', /^path 7: not a string$/), 'path');
  await refuses(t, () => verifyPath(run, 'x' as never), invalid('onProgress', /^onProgress "x": not a function$/), 'onProgress');
  await refuses(t, () => inspectRun('x.run', -1, 2), invalid('skip', /^skip -1: must be a whole number$/), 'skip');
  await refuses(t, () => inspectRun('x.run', 0, 1.5), invalid('limit', /^limit 1.5: must be a whole number$/), 'limit');
  // The command names them by its flags and positionals.
  t.deepEqual(['limit', 'skip', 'height', 'fanIn'].map(flagOf), ['--first', '--skip', 'height', '--fan-in']);
});

test('countLegal and planCount refuse an unknown option by name, with the one meant', async (t) => {
  const scratch = tempScratch(t);
  const typo = invalid('fanin', /^fanin 4: not an option of a count \(did you mean fanIn\?\)$/);
  await refuses(t, () => countLegal({ m: 3, n: 3, scratch, fanin: 4 } as never), typo, 'countLegal');
  await refuses(t, () => planCount({ m: 3, n: 3, scratch, memmory: '1G' } as never), invalid('memmory', /did you mean memory\?/), 'plan');
  await refuses(
    t,
    () => planCount({ m: 3, n: 3, scratch, colour: 'red' } as never),
    invalid('colour', /^colour "red": not an option of a count$/),
    'x',
  );
  await refuses(t, () => countLegal({ m: '3', n: 3 } as never), size(/m is not a number$/), 'string side');
});
