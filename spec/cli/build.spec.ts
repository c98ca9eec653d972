// The checkout's build (`npm run build`, cli/build.mjs), run in a copy of the checkout's sources so as
// not to touch the dist/ these tests run from: the command it leaves is executable, a build of
// unchanged sources does nothing, and no build removes or replaces dist/ while gocount runs from it.
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/paths.js';
import { once, sharedScratch } from '../support/shared.js';

const dir = sharedScratch();

function build(checkout: string, ...flags: string[]) {
  const result = spawnSync(process.execPath, ['cli/build.mjs', ...flags], { cwd: checkout, encoding: 'utf8', timeout: 300_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A checkout of lib/, cli/ and the build's settings (its node_modules the repository's), built once. */
const checkout = once(() => {
  const copy = path.join(dir, 'checkout');
  for (const name of ['lib', 'cli', 'package.json', 'tsconfig.json'])
    cpSync(path.join(repoRoot, name), path.join(copy, name), { recursive: true });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'));
  const built = build(copy);
  if (built.status !== 0) throw new Error(`the build failed: ${built.stderr}`);
  return copy;
});

const bin = (copy: string) => path.join(copy, 'dist', 'cli', 'main.js');

/** The files of the build in dist/, leaving out the marks of running processes. */
const builtFiles = (copy: string) =>
  readdirSync(path.join(copy, 'dist'), { recursive: true, encoding: 'utf8' }).filter((name) => !name.startsWith('.in-use'));

/** Runs `args` from the checkout's dist/ until `marked` resolves: once the process has marked itself there. */
function runningFrom(copy: string, args: string[]) {
  const child = spawn(process.execPath, args, { cwd: copy, stdio: 'ignore' });
  const mark = path.join(copy, 'dist', '.in-use', String(child.pid));
  const marked = new Promise<void>((resolve, reject) => {
    const started = Date.now();
    const look = setInterval(() => {
      if (existsSync(mark)) resolve();
      else if (Date.now() - started > 60_000) reject(new Error(`no mark ${mark} after a minute`));
      else return;
      clearInterval(look);
    }, 50);
  });
  return { child, marked, stop: () => child.kill('SIGKILL') };
}

test.serial('the build leaves the command executable, as npm link needs it', (t) => {
  const copy = checkout();
  t.is(statSync(bin(copy)).mode & 0o777, 0o755);
  const version = spawnSync(bin(copy), ['--version'], { encoding: 'utf8' });
  t.is(version.stdout, `${JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version}\n`);
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
  ['a count', ['dist/cli/main.js', '13x13', '--workers', '1', '--quiet', '--scratch', 'count-scratch']],
  [
    'a program that imported the library',
    ['--input-type=module', '-e', "await import('./dist/lib/index.js'); setTimeout(() => {}, 120_000);"],
  ],
] as const) {
  test.serial(
    `while ${what} runs from dist/, a build of changed sources and a clean refuse in one line and leave dist/ as it was`,
    async (t) => {
      const copy = checkout();
      const running = runningFrom(copy, [...args]);
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
