import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readLockHolder } from '../../lib/folder/lock.js';
import { LOCK_FILE } from '../../lib/format/folder-names.js';
import { paper } from '../support/paper.js';
import { runCliAsync as runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';

const L88 = paper.legalSquare.values['8'];
/** 8×8 through files at 2M takes a few seconds: long enough for a second count to meet the first. */
const slow = ['8x8', '--memory', '2M', '--workers', '2', '--quiet'];

/** The count folder a count of 8×8 in `scratch` uses, once it exists. */
async function countFolderOf(scratch: string): Promise<string> {
  const board = path.join(scratch, '8x8');
  for (let wait = 0; wait < 200 && !(existsSync(board) && readdirSync(board).length > 0); wait++)
    await new Promise((r) => setTimeout(r, 50));
  return path.join(board, readdirSync(board)[0]);
}

test('a second count in the same folder is refused with one line naming the holder; the first finishes exact', async (t) => {
  const scratch = tempScratch(t);
  const first = runCli([...slow, '--scratch', scratch]);
  const count = await countFolderOf(scratch);
  for (let wait = 0; wait < 200 && !existsSync(path.join(count, LOCK_FILE)); wait++) await new Promise((r) => setTimeout(r, 50));
  // The first count is stopped while the others look, so that it cannot finish first on a fast machine.
  const holder = readLockHolder(count)!.pid;
  process.kill(holder, 'SIGSTOP');
  const second = await runCli([...slow, '--scratch', scratch]);
  t.is(second.status, 2);
  t.regex(
    second.stderr,
    new RegExp(
      `^gocount: .*8x8/moduli-[^ ]+ is being counted by process \\d+ on ${os.hostname()} since \\S+; if that count is gone for good, remove .*lock\\.json and run again\\n$`,
    ),
  );
  const verify = await runCli(['verify', scratch]);
  t.is(verify.status, 3, 'a running count is not damage');
  t.regex(verify.stdout, /lock\.json: locked by process \d+ on .*: a count is running here, so its steps were not checked/);
  process.kill(holder, 'SIGCONT');
  const done = await first;
  t.is(done.status, 0, done.stderr);
  t.is(done.stdout, `${L88}\n`);
  t.deepEqual(readdirSync(scratch), [], 'the lock went with the finished count');
});

/** A 3×3 count, kept: counted once for the tests below, which copy it. */
const SCRATCH_3X3 = path.join(sharedScratch(), '3x3-kept');
const kept3x3 = once(async () => {
  mkdirSync(SCRATCH_3X3);
  return runCli(['3x3', '--scratch', SCRATCH_3X3, '--keep', '--quiet']);
});

/** A copy of the kept count, the test's own: its scratch folder, and the lock file's path in its count folder. */
async function copyOfKept3x3(t: ExecutionContext): Promise<{ scratch: string; count: string; lock: string }> {
  await kept3x3();
  const scratch = tempScratch(t);
  cpSync(SCRATCH_3X3, scratch, { recursive: true });
  const count = path.join(scratch, '3x3', readdirSync(path.join(scratch, '3x3'))[0]);
  return { scratch, count, lock: path.join(count, LOCK_FILE) };
}

/** The pid of a process that has exited: free. */
async function pidOfAGoneProcess(): Promise<number> {
  const gone = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => gone.on('exit', resolve));
  return gone.pid!;
}

test('verify checks the steps of a count whose lock was left by a dead process of this host: not a count running', async (t) => {
  t.is((await kept3x3()).status, 0);
  const { count, lock } = await copyOfKept3x3(t);
  writeFileSync(lock, JSON.stringify({ pid: await pidOfAGoneProcess(), host: os.hostname(), started: '2026-01-01T00:00:00.000Z' }));
  const verify = await runCli(['verify', count]);
  t.is(verify.status, 0, verify.stdout);
  t.regex(verify.stdout, /checked 1 count, 10 steps, .*: no problems\n$/);
});

test('a lock left by a dead process of this host is taken over with a note, and released at the end', async (t) => {
  const { scratch, lock } = await copyOfKept3x3(t);
  const gone = await pidOfAGoneProcess();
  writeFileSync(lock, JSON.stringify({ pid: gone, host: os.hostname(), started: '2026-01-01T00:00:00.000Z' }));
  const taken = await runCli(['3x3', '--scratch', scratch, '--keep']);
  t.is(taken.status, 0, taken.stderr);
  t.is(taken.stdout, '12675\n');
  t.regex(taken.stderr, new RegExp(`took over the lock of .* from process ${gone}, which is no longer running`));
  t.false(existsSync(lock), 'released at the end');
});

test("another host's lock is never taken", async (t) => {
  const { scratch, lock } = await copyOfKept3x3(t);
  writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'elsewhere.example', started: '2026-01-01T00:00:00.000Z' }));
  const refused = await runCli(['3x3', '--scratch', scratch]);
  t.is(refused.status, 2);
  t.regex(
    refused.stderr,
    /^gocount: .* is being counted by process \d+ on elsewhere\.example since 2026-01-01T00:00:00\.000Z; if that count is gone for good, remove .*lock\.json and run again\n$/,
  );
  t.true(existsSync(lock), 'never taken from another host');
});
