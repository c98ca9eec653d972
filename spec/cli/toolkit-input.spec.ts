// Every function the library exports checks its arguments as the command does: typed errors with
// their codes, naming the library's argument (never a flag), and options objects without unknown keys.
import test, { type ExecutionContext } from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import * as gocount from '../../lib/index.js';
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
import { fixturesDir, repoRoot } from '../support/paths.js';
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
  await refuses(t, () => estimate('5' as never, 5), invalid('m', /^m "5": not a number$/), 'string side');
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
    invalid('colour', /^colour "red": not an option of planCount$/),
    'x',
  );
  await refuses(t, () => countLegal({ m: '3', n: 3 } as never), invalid('m', /^m "3": not a number$/), 'string side');
  await refuses(t, () => countLegal({ m: 3 } as never), invalid('n', /^n undefined: missing: a board is m by n points$/), 'no n');
});

/** A parameter of an exported function, by the package's declarations; for an options object, also its keys. */
interface Parameter {
  readonly name: string;
  readonly options?: readonly string[];
}

/**
 * Every function lib/index.ts exports, with its parameters (of every overload), as the compiler reads
 * them from the package's declarations (dist/lib/index.d.ts): a parameter whose type is an object
 * (not a function) is an options object, and its keys are its options.
 */
function exportedFunctions(): Map<string, Parameter[]> {
  const index = path.join(repoRoot, 'dist', 'lib', 'index.d.ts');
  const program = ts.createProgram([index], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const functions = new Map<string, Parameter[]>();
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(index)!)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.Function)) continue;
    const parameters: Parameter[] = [];
    for (const signature of checker.getTypeOfSymbol(symbol).getCallSignatures()) {
      for (const parameter of signature.parameters) {
        if (parameters.some(({ name }) => name === parameter.name)) continue;
        const type = checker.getNonNullableType(checker.getTypeOfSymbol(parameter));
        const isOptions = (type.flags & ts.TypeFlags.Object || type.isIntersection()) && type.getCallSignatures().length === 0;
        const options = isOptions ? checker.getPropertiesOfType(type).map(({ name }) => name) : undefined;
        parameters.push({ name: parameter.name, options });
      }
    }
    functions.set(exported.name, parameters);
  }
  return functions;
}

/** The names a function's checks must name: its parameters, an options object's keys in its place. */
const checkedNames = (parameters: readonly Parameter[]) => parameters.flatMap(({ name, options }) => options ?? [name]);

/** `args` with `value` put for the parameter or option `name`. */
function withValue(parameters: readonly Parameter[], args: readonly unknown[], name: string, value: unknown): unknown[] {
  const changed = [...args];
  const at = parameters.findIndex((parameter) => (parameter.options ?? [parameter.name]).includes(name));
  changed[at] = parameters[at].options ? { ...(args[at] as object), [name]: value } : value;
  return changed;
}

/**
 * Each exported function: arguments it takes, and for each of its parameters and options a value of
 * the wrong type. A function or option exported later without a row here fails the first test below.
 */
function wrongTypes(
  scratch: string,
): Record<string, { readonly args: readonly unknown[]; readonly wrong: Readonly<Record<string, unknown>> }> {
  const count = {
    m: '3',
    n: '3',
    memory: true,
    scratch: 5,
    disk: true,
    workers: '2',
    windowRows: '2',
    residuesPerPass: '2',
    fanIn: '8',
    keep: 'yes',
    keepOrientation: 'yes',
    allColumns: 'yes',
    partitions: '2',
    launcher: 5,
    retries: '1',
    threads: '1',
    taskTimeout: '60',
    signal: 'stop',
    onProgress: 'yes',
    statsJson: 5,
    tableMemory: true,
  };
  const board = { m: 3, n: 3, scratch };
  const stepLog = path.join(fixturesDir, 'steps-9x9.jsonl');
  const run = path.join(fixturesDir, 'runs', '3x3', 'moduli-1-08a5248018', 'step-00002', 'run-w0-00001.run');
  return {
    countLegal: { args: [board], wrong: count },
    planCount: { args: [board], wrong: { ...count, cores: '4' } },
    countLegalInMemory: { args: [{ m: 3, n: 3 }], wrong: { m: '3', n: '3', keepOrientation: 'yes' } },
    parseStepLog: { args: [''], wrong: { text: 5 } },
    readStepLog: { args: [stepLog], wrong: { file: 5 } },
    verifyPath: { args: [run, () => {}], wrong: { path: 5, onProgress: 'yes' } },
    inspectRun: { args: [run, 0, 10], wrong: { file: 5, skip: '0', limit: '10' } },
    validStates: { args: [5, 1], wrong: { height: '5', y: '1' } },
    recurrence: { args: [2, 20], wrong: { height: '2', digits: '20' } },
    estimate: { args: [5, 5, 18], wrong: { m: '5', n: '5', from: '18' } },
    sample: {
      args: [{ m: 2, n: 2, runs: 2, seed: 1 }],
      wrong: { m: '2', n: '2', runs: '2', seed: '1', signal: 'stop', onProgress: 'yes' },
    },
    games: { args: [{ m: 1, n: 1 }], wrong: { m: '1', n: '1', signal: 'stop', onProgress: 'yes' } },
    solve: {
      args: [{ m: 1, n: 2, scratch }],
      wrong: {
        m: '1',
        n: '2',
        rule: 5,
        scoring: 5,
        memory: true,
        scratch: 5,
        symmetry: 'yes',
        emptyBoardOnly: 'yes',
        checkpointSeconds: '60',
        nodesPerReport: '100',
        db: 5,
        onResume: 'yes',
        onProgress: 'yes',
      },
    },
    lookUp: { args: ['x.db', { position: 'X.' }], wrong: { file: 5, position: 5, toMove: 5, afterPass: 'yes', ko: 5 } },
  };
}

const functions = exportedFunctions();
const library = gocount as unknown as Record<string, (...args: unknown[]) => unknown>;

test("a table of wrong types covers every exported function's every parameter and option, by the package's declarations", (t) => {
  const table = wrongTypes('scratch');
  t.true(functions.size >= 14, `${functions.size} functions`);
  t.deepEqual(Object.keys(table).sort(), [...functions.keys()].sort());
  for (const [name, parameters] of functions)
    t.deepEqual(Object.keys(table[name]?.wrong ?? {}).sort(), checkedNames(parameters).sort(), name);
});

/** What is wrong with `error` as the refusal `expected`: undefined when it is that refusal. */
function refusalProblem(error: unknown, expected: Refusal): string | undefined {
  if (!(error instanceof UsageError)) return error === undefined ? 'not refused' : `${String(error)}`;
  const named = error instanceof InvalidOptionError ? `${error.code} naming ${error.option}` : error.code;
  const wanted = expected.option === undefined ? expected.code : `${expected.code} naming ${expected.option}`;
  if (named !== wanted || error.exitCode !== 2 || !expected.message.test(error.message)) return `${named}: ${error.message}`;
  return undefined;
}

test('every exported function refuses a wrong type of each parameter and option with an InvalidOptionError naming it', async (t) => {
  const scratch = tempScratch(t);
  const problems: string[] = [];
  for (const [name, { args, wrong }] of Object.entries(wrongTypes(scratch))) {
    const parameters = functions.get(name) ?? [];
    for (const [option, value] of Object.entries(wrong)) {
      const error = await thrownBy(() => library[name](...withValue(parameters, args, option, value)));
      const problem = refusalProblem(error, invalid(option, new RegExp(`^${option} `)));
      if (problem !== undefined) problems.push(`${name} ${option} ${JSON.stringify(value)}: ${problem}`);
    }
  }
  t.deepEqual(problems, []);
});

test('every exported function that takes an options object refuses anything else there, or nothing, as not an options object', async (t) => {
  const table = wrongTypes(tempScratch(t));
  const problems: string[] = [];
  for (const [name, parameters] of functions) {
    const at = parameters.findIndex(({ options }) => options);
    if (at < 0) continue;
    for (const value of [undefined, 3]) {
      const args = [...table[name].args];
      args[at] = value;
      const problem = refusalProblem(await thrownBy(() => library[name](...args)), input(/ takes an options object, \{ /));
      if (problem !== undefined) problems.push(`${name} with ${String(value)}: ${problem}`);
    }
  }
  t.deepEqual(problems, []);
});

test('validStates(height) without y: the states at every y, as gocount states lists them', (t) => {
  t.deepEqual(validStates(5), [887, 1251, 1257, 1233, 1283]);
});

test("recurrence(height) without digits: the command's 20 digits", (t) => {
  t.is(recurrence(3).lambda, '25.44501470555814081494');
});

test("inspectRun(file) without skip and limit: the command's first 10 records", (t) => {
  const run = path.join(fixturesDir, 'runs', '3x3', 'moduli-1-08a5248018', 'step-00005', 'run-w1-00001.run');
  t.deepEqual(
    inspectRun(run).records.map(({ record }) => record),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
});

test("sample without runs and seed: the command's 1000 probes, and a seed from the clock that the result gives", async (t) => {
  const sampled = await sample({ m: 2, n: 3 });
  t.is(sampled.runs, 1000);
  t.true(Number.isSafeInteger(sampled.seed) && sampled.seed >= 0 && sampled.seed < 2 ** 32, String(sampled.seed));
  t.deepEqual(await sample({ m: 2, n: 3, seed: sampled.seed }), sampled);
});

test('a size is also a bigint of bytes: memory, disk and tableMemory of a count, memory of a solve', async (t) => {
  const scratch = tempScratch(t);
  const plan = planCount({ m: 3, n: 3, scratch, memory: 10n ** 9n, disk: 2n ** 40n, tableMemory: 2n ** 20n });
  t.is(plan.memory, 10 ** 9);
  t.is(plan.diskBudget, 2 ** 40);
  t.is(plan.perWorker.tableShardBytes, 2 ** 20);
  t.is(solve({ m: 1, n: 2, scratch, memory: 64n * 2n ** 20n }).value, 0);
  const tooMany = invalid('memory', /^memory 9007199254740993: more bytes than a number holds exactly$/);
  await refuses(t, () => planCount({ m: 3, n: 3, scratch, memory: 2n ** 53n + 1n }), tooMany, '2^53 + 1');
  const none = invalid('memory', /^memory 0: not a positive whole number of bytes$/);
  await refuses(t, () => planCount({ m: 3, n: 3, scratch, memory: 0n }), none, '0n');
});
