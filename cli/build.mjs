// `npm run build` (and `npm run clean`): compiles the kernels and the TypeScript into dist/. Plain
// JavaScript, since it runs before anything is compiled. It refuses while a gocount process runs from
// this dist/ (lib/shared/in-use.ts marks each), because emptying dist/ under a count would pull out
// the files it loads as it goes; and it does nothing when dist/ was built from the same sources by
// the same compilers, so that `npm test` or a first `npx gocount` does not rebuild for nothing.
//
//   node cli/build.mjs            build, unless dist/ is up to date
//   node cli/build.mjs --force    build even so
//   node cli/build.mjs --clean    remove dist/ only

import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import fse from 'fs-extra';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(root, 'dist');
/** lib/shared/in-use.ts's folder of marks. */
const inUse = path.join(dist, '.in-use');
/** The fingerprint of what dist/ was built from, written last: a build cut short leaves none. */
const stamp = path.join(dist, '.build-stamp');
/** The command's entry point: package.json's bin, which a build must leave executable (npm link points at it). */
const bin = path.join(dist, 'cli', 'main.js');

function fail(message) {
  process.stderr.write(`build: ${message}\n`);
  process.exit(1);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM'; // alive, but another user's
  }
}

/** The pids of live processes marked in dist/; the marks of processes gone (killed, say) are removed. */
function processesRunningFromDist() {
  if (!existsSync(inUse)) return [];
  const running = [];
  for (const name of readdirSync(inUse)) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) running.push(pid);
    else rmSync(path.join(inUse, name), { force: true });
  }
  return running;
}

function refuseWhileInUse(what) {
  const running = processesRunningFromDist();
  if (running.length > 0)
    fail(
      `refused to ${what} dist/: gocount is running from it (pid ${running.join(', ')}); ` +
        `let it finish or stop it (a stopped count resumes), then build again`,
    );
}

/** Every file under `dir`, relative to the root, sorted. */
function filesUnder(dir) {
  if (!existsSync(path.join(root, dir))) return [];
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** A hash of the sources, the build's settings and the compilers' versions. */
function fingerprint() {
  const hash = createHash('sha256');
  const compilers = ['typescript', 'assemblyscript'].map((name) => path.join('node_modules', name, 'package.json'));
  for (const file of [...filesUnder('lib'), ...filesUnder('cli'), ...filesUnder('spec'), 'tsconfig.json', 'package.json', ...compilers]) {
    hash.update(`${file}\0`);
    hash.update(existsSync(path.join(root, file)) ? readFileSync(path.join(root, file)) : 'absent');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Compiles lib/shared/huge-pages.c into dist/ (lib/shared/huge-pages.ts says why), on Linux, with
 * the C compiler ($CC or cc) and the headers of the Node that runs the build. Optional: without it
 * counts are the same, and slower only where their tables take gigabytes, so a missing compiler or
 * header is one line, not a failed build.
 */
function buildHugePages() {
  if (process.platform !== 'linux') return;
  const headers = [path.join(path.dirname(process.execPath), '..', 'include', 'node'), '/usr/include/node', '/usr/local/include/node'];
  const include = headers.find((dir) => existsSync(path.join(dir, 'node_api.h')));
  const output = path.join(dist, 'lib', 'shared', 'huge-pages.node');
  const compiler = process.env.CC || 'cc';
  const result =
    include === undefined
      ? { error: new Error(`no node_api.h in ${headers.join(', ')}`) }
      : spawnSync(
          compiler,
          ['-O2', '-shared', '-fPIC', '-Wall', `-I${include}`, '-o', output, path.join(root, 'lib', 'shared', 'huge-pages.c')],
          {
            cwd: root,
            encoding: 'utf8',
          },
        );
  const reason =
    result.error?.message ??
    (result.status !== 0 ? result.stderr.trim().split('\n')[0] || `${compiler} exited with ${result.status}` : undefined);
  if (reason !== undefined)
    process.stdout.write(
      `build: counts will not ask for huge pages (${reason}); they are the same, slower only where tables take gigabytes\n`,
    );
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.error) fail(`cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const flags = process.argv.slice(2);
const unknown = flags.find((flag) => !['--force', '--clean'].includes(flag));
if (unknown !== undefined) fail(`unknown option ${unknown}: use --force or --clean`);

if (flags.includes('--clean')) {
  refuseWhileInUse('remove');
  fse.removeSync(dist);
  process.exit(0);
}

const sources = fingerprint();
if (!flags.includes('--force') && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sources && existsSync(bin)) {
  process.stdout.write('build: dist/ is up to date with the sources (npm run build -- --force rebuilds it)\n');
  process.exit(0);
}
refuseWhileInUse('rebuild');
// Emptied first, so that the JavaScript of a source file removed or renamed is not left for ava to run.
fse.removeSync(dist);
run('npm', ['run', '--silent', 'build:wasm']);
run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
chmodSync(bin, 0o755);
buildHugePages();
writeFileSync(`${stamp}.tmp`, `${sources}\n`);
renameSync(`${stamp}.tmp`, stamp);
