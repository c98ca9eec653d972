// The checkout's build (`npm run build`, cli/build.mjs). The real dist/, which npm test's build made:
// its command is executable, and the command and the library mark the processes that run from it.
// The build script itself runs in a small checkout of its own (the marking module, and stand-ins
// for the library, the command and the kernels' compiler), so as not to touch the dist/ these tests
// run from: the command it leaves is executable, a build of unchanged sources does nothing, and no
// build removes or replaces dist/ while a process marked there runs.
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliPath, repoRoot } from '../support/paths.js';
import { once, sharedScratch } from '../support/shared.js';
import { tempScratch } from '../support/scratch.js';

const dir = sharedScratch();
const version = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;

function build(checkout: string, ...flags: string[]) {
  const result = spawnSync(process.execPath, ['cli/build.mjs', ...flags], { cwd: checkout, encoding: 'utf8', timeout: 300_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The marks of the processes running from a checkout's dist/ (lib/shared/in-use.ts). */
const marks = (root: string) => path.join(root, 'dist', '.in-use');

/** Runs `args` from `cwd` until `marked` resolves: once the process has marked itself in `root`'s dist/. */
function runningFrom(root: string, args: string[], cwd = root) {
  const child = spawn(process.execPath, args, { cwd, stdio: 'ignore' });
  const mark = path.join(marks(root), String(child.pid));
  const marked = new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const look = setInterval(() => {
      if (existsSync(mark)) resolve();
      else if (Date.now() - started > 60_000) reject(new Error(`no mark ${mark} after a minute`));
      else return;
      clearInterval(look);
    }, 50);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  // Stopped for good before the next test: a process still alive would keep its mark.
  const stop = () => (child.kill('SIGKILL'), exited);
  return { child, mark, marked, exited, stop };
}

/** A program that imports the library from `root`'s dist/, then waits `ms` and ends. */
const importer = (root: string, ms: number) => [
  '--input-type=module',
  '-e',
  `await import(${JSON.stringify(pathToFileURL(path.resolve(root, 'dist', 'lib', 'index.js')).href)}); setTimeout(() => {}, ${ms});`,
];

test("the checkout's command is executable, as npm link needs it", (t) => {
  t.is(statSync(cliPath).mode & 0o777, 0o755);
  t.is(spawnSync(cliPath, ['--version'], { encoding: 'utf8' }).stdout, `${version}\n`);
});

for (const [what, args] of [
  ['the command', [cliPath, '9x9', '--workers', '1', '--quiet', '--scratch', 'count-scratch']],
  ['a program that imported the library', importer(repoRoot, 2000)],
] as const) {
  test(`${what} marks itself in the checkout's dist/ while it runs, and removes its mark as it exits`, async (t) => {
    const running = runningFrom(repoRoot, [...args], tempScratch(t));
    t.teardown(running.stop);
    await running.marked;
    t.is(readFileSync(running.mark, 'utf8'), `${running.child.pid}\n`);
    await running.exited;
    t.false(existsSync(running.mark));
  });
}

/** What the stand-in for the kernels' compiler writes. */
const KERNEL_STAND_IN = "require('fs').mkdirSync('dist/lib', { recursive: true }); require('fs').writeFileSync('dist/lib/kernel.wasm', '')";

/**
 * A checkout of its own for the build script: package.json (with a stand-in for the kernels'
 * compiler), tsconfig.json, the build and the marking module as they are, and a stand-in library and command that mark themselves as
 * the real ones do; its node_modules the repository's. Built once.
 */
const checkout = once(() => {
  const copy = path.join(dir, 'checkout');
  for (const name of ['tsconfig.json', 'cli/build.mjs', 'lib/shared/in-use.ts']) cpSync(path.join(repoRoot, name), path.join(copy, name));
  // The kernels' compiler is left out (npm test's own build runs it): its script stands in, writing one kernel.
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  manifest.scripts['build:wasm'] = `node -e "${KERNEL_STAND_IN}"`;
  writeFileSync(path.join(copy, 'package.json'), JSON.stringify(manifest));
  const marking = "import { markInUse } from './shared/in-use.js';\nmarkInUse();\n";
  writeFileSync(path.join(copy, 'lib', 'index.ts'), marking);
  mkdirSync(path.join(copy, 'cli'), { recursive: true });
  writeFileSync(
    path.join(copy, 'cli', 'main.ts'),
    `#!/usr/bin/env node\nimport '../lib/index.js';\nconsole.log(${JSON.stringify(version)});\nif (process.argv[2] === 'wait') setTimeout(() => {}, 120_000);\n`,
  );
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'));
  const built = build(copy);
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  return copy;
});

const bin = (copy: string) => path.join(copy, 'dist', 'cli', 'main.js');

/** The files of the build in dist/, leaving out the marks of running processes. */
const builtFiles = (copy: string) =>
  readdirSync(path.join(copy, 'dist'), { recursive: true, encoding: 'utf8' }).filter((name) => !name.startsWith('.in-use'));

test.serial('the build leaves the command executable', (t) => {
  const copy = checkout();
  t.is(statSync(bin(copy)).mode & 0o777, 0o755);
  t.is(spawnSync(bin(copy), [], { encoding: 'utf8' }).stdout, `${version}\n`);
  t.true(builtFiles(copy).includes(path.join('lib', 'kernel.wasm')), builtFiles(copy).join(' '));
});

test.serial('a build of unchanged sources says dist/ is up to date and leaves it as it was', (t) => {
  const copy = checkout();
  const before = statSync(bin(copy)).mtimeMs;
  const again = build(copy);
  t.is(again.status, 0, again.stderr);
  t.is(again.stdout, 'build: dist/ is up to date with the sources (npm run build -- --force rebuilds it)\n');
  t.is(statSync(bin(copy)).mtimeMs, before);
});

for (const [what, args] of [
  ['the command', (copy: string) => [bin(copy), 'wait']],
  ['a program that imported the library', (copy: string) => importer(copy, 120_000)],
] as const) {
  test.serial(
    `while ${what} runs from dist/, a build of changed sources and a clean refuse in one line and leave dist/ as it was`,
    async (t) => {
      const copy = checkout();
      const running = runningFrom(copy, args(copy));
      t.teardown(running.stop);
      await running.marked;
      appendFileSync(path.join(copy, 'lib', 'index.ts'), '// changed\n');
      const files = builtFiles(copy);
      const before = statSync(bin(copy)).mtimeMs;
      const refusal = new RegExp(
        `^build: refused to (rebuild|remove) dist/: gocount is running from it \\(pid ${running.child.pid}\\); let it finish or stop it \\(a stopped count resumes\\), then build again\\n$`,
      );
      for (const flags of [[], ['--force'], ['--clean']]) {
        const refused = build(copy, ...flags);
        t.is(refused.status, 1, flags.join(' '));
        t.regex(refused.stderr, refusal);
      }
      t.deepEqual(builtFiles(copy), files);
      t.is(statSync(bin(copy)).mtimeMs, before);
    },
  );
}

test.serial('a build removes the marks of processes that are gone, and then builds', (t) => {
  const copy = checkout();
  mkdirSync(marks(copy), { recursive: true });
  writeFileSync(path.join(marks(copy), '999999999'), '999999999\n'); // no such process: killed, say
  const rebuilt = build(copy);
  t.is(rebuilt.status, 0, rebuilt.stderr);
  t.false(existsSync(path.join(marks(copy), '999999999')));
  t.is(spawnSync(bin(copy), [], { encoding: 'utf8' }).stdout, `${version}\n`);
});
