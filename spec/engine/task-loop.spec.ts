/**
 * A task process of a partitioned count, in this process: it needs a driver, waits for the next
 * step's manifest showing that it waits (a status it keeps fresh), and stops when its driver's
 * lock is gone or goes stale.
 */
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boardOf, sweepOf } from '../../lib/board/shape.js';
import { beatWhileRunning } from '../../lib/cluster/driver-presence.js';
import { serveTask } from '../../lib/cluster/task-loop.js';
import { readTaskStatus, taskStatusPath } from '../../lib/cluster/task-status.js';
import { countWithEngine } from '../../lib/count/with-engine.js';
import { CountLock } from '../../lib/folder/lock.js';
import { ignoreProgress } from '../../lib/observe/progress.js';
import { GocountError } from '../../lib/shared/errors.js';
import { LOCK_FILE, MANIFEST_FILE, RESULT_FILE, stepFolderName } from '../../lib/format/folder-names.js';
import { tempScratch } from '../support/scratch.js';

test('a task process needs its driver, waits for the next step, and stops when the lock is gone, not refreshed, or its process dead', async (t) => {
  const scratchDir = tempScratch(t);
  await countWithEngine({
    sweep: sweepOf(boardOf(3, 3), false),
    memory: 8 << 20,
    scratchDir,
    fanIn: 64,
    keep: true,
    workers: 1,
    partitioned: { partitions: 2, launcher: 'local', retries: 0 },
    onProgress: ignoreProgress,
  });
  const board = path.join(scratchDir, '3x3');
  const count = path.join(board, readdirSync(board)[0]);
  const task = { countDir: count, parts: [1], memory: 8 << 20, fanIn: 64 };

  const refused = await t.throwsAsync(serveTask(task), { instanceOf: GocountError });
  t.is(refused.code, 'GOCOUNT_INVALID_INPUT');
  t.is(refused.exitCode, 2);
  t.regex(
    refused.message,
    /: no driver is running this count \(it has no lock\); a task serves its driver, or runs one step by hand with --step$/,
  );

  // Steps 8 and 9 uncommitted: the task finds its part of step 7 done and waits for step 8.
  rmSync(path.join(count, RESULT_FILE));
  for (const step of [8, 9]) rmSync(path.join(count, stepFolderName(step), MANIFEST_FILE));
  const lock = CountLock.take(count, () => {});
  const lines: string[] = [];
  const serving = serveTask({ ...task, onLine: (line) => lines.push(line) });
  const status = taskStatusPath(path.join(count, 'logs'), [1]);
  for (let waited = 0; readTaskStatus(status)?.step !== 8 && waited < 10_000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  const waiting = readTaskStatus(status)!;
  t.like(waiting, { parts: [1], pid: process.pid, step: 8, part: undefined, states: 0 });
  // It shows it is alive while it waits: the status is rewritten once a second.
  for (let waited = 0; readTaskStatus(status)?.at === waiting.at && waited < 3000; waited += 10)
    await new Promise((resolve) => setTimeout(resolve, 10));
  t.like(readTaskStatus(status), { step: 8, part: undefined });
  t.true(readTaskStatus(status)!.at > waiting.at);
  lock.release();
  t.deepEqual(await within(serving), { stepsRun: 1, reason: 'the driver is gone: its lock is gone' });
  t.deepEqual(lines, ['task 1 of step 7 was done already']);

  // A lock left by a driver that stopped on another node: its time is not refreshed.
  const stale = CountLock.take(count, () => {});
  const hourAgo = new Date(Date.now() - 3600_000);
  utimesSync(path.join(count, LOCK_FILE), hourAgo, hourAgo);
  const outcome = await within(serveTask({ ...task, driverSilenceMs: 60_000 }));
  t.regex(outcome.reason, /^the driver is gone: it has not refreshed its lock for 36\d\d s$/);
  stale.release();
  // The lock of a driver of this host that has stopped.
  const dead = spawnSync('true').pid;
  writeFileSync(path.join(count, LOCK_FILE), JSON.stringify({ pid: dead, host: os.hostname(), started: new Date().toISOString() }));
  t.is((await within(serveTask(task))).reason, `the driver is gone: its process ${dead} on this host has stopped`);
  rmSync(path.join(count, LOCK_FILE));
  // A driver that runs refreshes it.
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
