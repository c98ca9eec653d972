/**
 * A task process of a partitioned count, in this process: it needs a driver, waits for the next
 * step's manifest showing that it waits (a status it keeps fresh), and stops when its driver's
 * lock is gone or goes stale.
 */
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boardOf, sweepOf } from '../../lib/board/shape.js';
import { beatWhileRunning } from '../../lib/cluster/driver-presence.js';
import { serveTask, type ServeOutcome } from '../../lib/cluster/task-loop.js';
import { readTaskStatus, taskStatusPath } from '../../lib/cluster/task-status.js';
import { countWithEngine } from '../../lib/count/with-engine.js';
import { CountLock } from '../../lib/folder/lock.js';
import { ignoreProgress } from '../../lib/observe/progress.js';
import { GocountError } from '../../lib/shared/errors.js';
import { LOCK_FILE, MANIFEST_FILE, RESULT_FILE, stepFolderName } from '../../lib/format/folder-names.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';

const shared = sharedScratch();

/** A 3x3 count in 2 partitions, kept, in the shared folder: counted once, copied by each test. */
const keptCount = once(() =>
  countWithEngine({
    sweep: sweepOf(boardOf(3, 3), false),
    memory: 8 << 20,
    scratchDir: shared,
    fanIn: 64,
    keep: true,
    workers: 1,
    partitioned: { partitions: 2, launcher: 'local', retries: 0 },
    onProgress: ignoreProgress,
  }),
);

/**
 * A copy of the kept count, the test's own; with its steps 8 and 9 uncommitted unless `finished`,
 * so that a task finds its part of step 7 done and waits for step 8.
 */
async function countFolder(t: ExecutionContext, finished = false): Promise<string> {
  await keptCount();
  const scratchDir = tempScratch(t);
  cpSync(shared, scratchDir, { recursive: true });
  const board = path.join(scratchDir, '3x3');
  const count = path.join(board, readdirSync(board)[0]);
  if (!finished) {
    rmSync(path.join(count, RESULT_FILE));
    for (const step of [8, 9]) rmSync(path.join(count, stepFolderName(step), MANIFEST_FILE));
  }
  return count;
}

const taskOf = (count: string) => ({ countDir: count, parts: [1], memory: 8 << 20, fanIn: 64 });

/** The status file of task 1 of a count, once it says the task waits for step 8 (or after 10 s). */
async function waitingForStep8(count: string): Promise<string> {
  const status = taskStatusPath(path.join(count, 'logs'), [1]);
  for (let waited = 0; readTaskStatus(status)?.step !== 8 && waited < 10_000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return status;
}

test('a task process needs its driver: without the lock it is refused', async (t) => {
  const task = taskOf(await countFolder(t, true));
  const refused = await t.throwsAsync(serveTask(task), { instanceOf: GocountError });
  t.is(refused.code, 'GOCOUNT_INVALID_INPUT');
  t.is(refused.exitCode, 2);
  t.regex(
    refused.message,
    /: no driver is running this count \(it has no lock\); a task serves its driver, or runs one step by hand with --step$/,
  );
});

test('a task process waits for the next step, its status saying so and rewritten once a second', async (t) => {
  const count = await countFolder(t);
  const lock = CountLock.take(count, () => {});
  const serving = serveTask(taskOf(count));
  const status = await waitingForStep8(count);
  const waiting = readTaskStatus(status)!;
  t.like(waiting, { parts: [1], pid: process.pid, step: 8, part: undefined, states: 0 });
  // It shows it is alive while it waits: the status is rewritten once a second.
  for (let waited = 0; readTaskStatus(status)?.at === waiting.at && waited < 3000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  t.like(readTaskStatus(status), { step: 8, part: undefined });
  t.true(readTaskStatus(status)!.at > waiting.at);
  lock.release();
  await within(serving);
});

/** Task 1 of a copy of the kept count served until it waits for step 8, then its driver's lock released: how it stops, and its lines. */
async function servedUntilTheLockIsGone(t: ExecutionContext): Promise<{ outcome: ServeOutcome; lines: string[] }> {
  const count = await countFolder(t);
  const lock = CountLock.take(count, () => {});
  const lines: string[] = [];
  const serving = serveTask({ ...taskOf(count), onLine: (line) => lines.push(line) });
  await waitingForStep8(count);
  lock.release();
  return { outcome: await within(serving), lines };
}

test("a task process stops when its driver's lock is gone", async (t) => {
  const { outcome } = await servedUntilTheLockIsGone(t);
  t.deepEqual(outcome, { stepsRun: 1, reason: 'the driver is gone: its lock is gone' });
});

test('a task process says when its part of a step was done already', async (t) => {
  const { lines } = await servedUntilTheLockIsGone(t);
  t.deepEqual(lines, ['task 1 of step 7 was done already']);
});

test("a task process stops when its driver's lock is not refreshed: the driver stopped on another node", async (t) => {
  const count = await countFolder(t);
  const stale = CountLock.take(count, () => {});
  const hourAgo = new Date(Date.now() - 3600_000);
  utimesSync(path.join(count, LOCK_FILE), hourAgo, hourAgo);
  const outcome = await within(serveTask({ ...taskOf(count), driverSilenceMs: 60_000 }));
  t.regex(outcome.reason, /^the driver is gone: it has not refreshed its lock for 36\d\d s$/);
  stale.release();
});

test("a task process stops when its driver's process on this host has stopped", async (t) => {
  const count = await countFolder(t);
  const dead = spawnSync('true').pid;
  writeFileSync(path.join(count, LOCK_FILE), JSON.stringify({ pid: dead, host: os.hostname(), started: new Date().toISOString() }));
  t.is((await within(serveTask(taskOf(count)))).reason, `the driver is gone: its process ${dead} on this host has stopped`);
});

test('a driver that runs refreshes its lock', async (t) => {
  const count = await countFolder(t);
  const beating = CountLock.take(count, () => {});
  const stopBeating = beatWhileRunning(count);
  stopBeating();
  t.true(Date.now() - statSync(path.join(count, LOCK_FILE)).mtimeMs < 60_000);
  beating.release();
});

/** `promise`, or a rejection after 10 s: a task that never stops fails the test rather than hangs it. */
function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the task did not stop within 10 s')), 10_000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
