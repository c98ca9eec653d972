// What the command loads before it does anything: each command loads what it runs only when it
// runs, so help, the version and a command line refused by its options start without the engine,
// the solver or the checks.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../support/paths.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

const recorder = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'record-loaded-modules.js');

/** The modules of dist/ that `gocount args` loads, and its exit status. */
function loadedBy(t: Parameters<typeof tempScratch>[0], args: string[]): { status: number | null; loaded: string[] } {
  const list = path.join(tempScratch(t), 'loaded.txt');
  const run = runCli(args, { env: { NODE_OPTIONS: `--import=${recorder}`, GOCOUNT_TEST_LOADED: list } });
  return { status: run.status, loaded: readFileSync(list, 'utf8').trim().split('\n') };
}

/** Modules at the heart of what each command runs. */
const HEAVY = [
  'lib/count/count-legal.js',
  'lib/engine/pass.js',
  'lib/cluster/task.js',
  'lib/solve/solve.js',
  'lib/verify/verify.js',
  'lib/verify/inspect.js',
  'lib/report/html-report.js',
  'lib/paper/toolkit.js',
  'lib/paper/recurrence/recurrence-report.js',
  'lib/paper/estimate/estimate-board.js',
];

for (const [args, exitCode] of [
  [['--version'], 0],
  [['--help'], 0],
  [['solve', '--help'], 0],
  [['solve', '2x2', '--rule', 'foo'], 2],
  [['verfy', 'scratch'], 2],
  [['task', 'x'], 2],
] as const)
  test(`gocount ${args.join(' ')} loads none of the commands' work`, (t) => {
    const { status, loaded } = loadedBy(t, [...args]);
    t.is(status, exitCode);
    t.true(loaded.includes('cli/main.js'));
    t.deepEqual(
      loaded.filter((file) => HEAVY.includes(file)),
      [],
    );
  });

/** What a count in one process whose steps are group steps has no use for. */
const NOT_FOR_A_COUNT_IN_MEMORY = [
  'lib/solve/solve.js',
  'lib/verify/verify.js',
  'lib/report/html-report.js',
  'lib/paper/toolkit.js',
  'lib/cluster/driver.js',
  'lib/cluster/local-launcher.js',
  'lib/cluster/slurm-launcher.js',
  'lib/cluster/task.js',
  'lib/engine/expand-transform.js',
  'lib/engine/step-flow.js',
];

test("a count loads the engine, and not the solver, the checks, the cluster's driver, or the stream pipeline while its steps are group steps", (t) => {
  const { status, loaded } = loadedBy(t, ['2x2', '--scratch', tempScratch(t)]);
  t.is(status, 0);
  t.true(loaded.includes('lib/count/count-legal.js') && loaded.includes('lib/engine/pass.js'));
  t.deepEqual(
    NOT_FOR_A_COUNT_IN_MEMORY.filter((file) => loaded.includes(file)),
    [],
  );
});

test('a count whose steps go to files loads the stream pipeline', (t) => {
  const { status, loaded } = loadedBy(t, ['7x7', '--memory', '700K', '--workers', '1', '--quiet', '--scratch', tempScratch(t)]);
  t.is(status, 0);
  t.true(loaded.includes('lib/engine/expand-transform.js') && loaded.includes('lib/engine/step-flow.js'));
  t.false(loaded.includes('lib/cluster/driver.js'));
});

test("a partitioned count loads the cluster's driver and its launcher", (t) => {
  const { status, loaded } = loadedBy(t, ['3x3', '--partitions', '2', '--quiet', '--scratch', tempScratch(t)]);
  t.is(status, 0);
  t.true(loaded.includes('lib/cluster/driver.js') && loaded.includes('lib/cluster/local-launcher.js'));
  t.false(loaded.includes('lib/cluster/slurm-launcher.js'));
});

test("verify loads the checks, and the solver files' checks it registers, not the engine", (t) => {
  const { status, loaded } = loadedBy(t, ['verify', '/dev/null']);
  t.is(status, 2);
  t.true(loaded.includes('lib/solve/files/file-checks.js'));
  t.deepEqual(
    HEAVY.filter((file) => loaded.includes(file)),
    ['lib/verify/verify.js'],
  );
});

/**
 * The packages that the compiled module `file` and the modules it imports, statically, load: what a
 * thread that runs it loads before any import() in it runs.
 */
function packagesLoadedBy(file: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (module: string) => {
    if (seen.has(module)) return;
    seen.add(module);
    for (const [, named] of readFileSync(module, 'utf8').matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gm)) {
      if (named.startsWith('.')) visit(path.resolve(path.dirname(module), named));
      else if (!named.startsWith('node:')) packages.add(named);
    }
  };
  visit(file);
  return packages;
}

test('a worker thread starts without fs-extra or through2: each thread loads its modules anew, and group steps use neither', (t) => {
  const compiled = (...parts: string[]) => path.join(repoRoot, 'dist', ...parts);
  t.deepEqual([...packagesLoadedBy(compiled('lib', 'engine', 'worker-main.js'))], []);
  // What the check reads: the command's own modules, and the stream pipeline, do load them.
  t.true(packagesLoadedBy(compiled('cli', 'main.js')).has('yargs'));
  t.true(packagesLoadedBy(compiled('lib', 'count', 'count-legal.js')).has('fs-extra'));
  t.true(packagesLoadedBy(compiled('lib', 'engine', 'expand-transform.js')).has('through2'));
});
