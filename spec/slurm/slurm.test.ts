/**
 * Counts through a real Slurm cluster (npm run test:slurm starts one on localhost): one job array
 * a pass whose elements serve every step, a task killed by SIGKILL after writing part of its
 * outputs and submitted again, a stopped (hung) task cancelled and submitted again, and the exact
 * number, equal to the single-process engine's.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

// Two partitions: each element serves its part for the whole pass, so all must run at once, and
// the one-node cluster may have only two cores: the tests take turns.
test.serial('5×5 in 2 partitions through Slurm, one task killed and relaunched, equals the single-process count', (t) => {
  t.truthy(process.env.SLURM_CONF, 'run by npm run test:slurm, which sets SLURM_CONF');
  const scratch = tempScratch(t);
  const flag = path.join(scratch, 'killed');
  const sliced = runCli(
    [
      '5x5',
      '--partitions',
      '2',
      '--launcher',
      'slurm',
      '--memory',
      '64M',
      '--retries',
      '2',
      '--keep',
      '--scratch',
      path.join(scratch, 's'),
    ],
    {
      env: { GOCOUNT_KILL_TASK: `13:1:${flag}` },
      timeout: 600_000,
    },
  );
  t.is(sliced.status, 0, sliced.stderr);
  t.true(existsSync(flag), 'task 1 of step 13 was killed');
  // The task that expands step 13's states makes step 14, as the user numbers steps.
  t.regex(sliced.stderr, /step 14: task 1 did not finish; launching again \(retry 1 of 2\)/);
  // One array for the pass: each element's log lists every step of its part, task 1's in two runs.
  const board = path.join(scratch, 's', '5x5');
  const logs = path.join(board, readdirSync(board)[0], 'logs');
  t.deepEqual(
    readdirSync(logs)
      .filter((name) => name.endsWith('.log'))
      .sort(),
    ['task-0.log', 'task-1.log'],
  );
  for (const part of [0, 1]) {
    const log = readFileSync(path.join(logs, `task-${part}.log`), 'utf8');
    const steps = [...log.matchAll(new RegExp(`^task ${part} of step (\\d+) done: `, 'gm'))].map(([, step]) => Number(step));
    t.deepEqual(
      steps,
      Array.from({ length: 25 }, (_, step) => step),
      log,
    );
  }
  const single = runCli(['5x5', '--scratch', path.join(scratch, 'one'), '--quiet']);
  t.is(single.status, 0, single.stderr);
  t.is(sliced.stdout, single.stdout);
  t.is(sliced.stdout, '414295148741\n');
});

test.serial(
  'a task stopped with SIGSTOP under Slurm is cancelled after --task-timeout and submitted again, and the count is exact',
  (t) => {
    t.truthy(process.env.SLURM_CONF, 'run by npm run test:slurm, which sets SLURM_CONF');
    const scratch = tempScratch(t);
    const flag = path.join(scratch, 'stopped');
    const args = ['4x4', '--partitions', '2', '--launcher', 'slurm', '--memory', '64M', '--task-timeout', '3'];
    const run = runCli([...args, '--scratch', path.join(scratch, 's')], { env: { GOCOUNT_STOP_TASK: `6:1:${flag}` }, timeout: 600_000 });
    t.is(run.status, 0, run.stderr);
    t.true(existsSync(flag), 'task 1 of step 6 was stopped');
    // The line has come at step 7 and at step 8 here: scancel's SIGCONT before its SIGTERM may let
    // the stopped task finish step 7 on its way out. The count is exact either way.
    t.regex(run.stderr, /step \d+: task 1 showed no sign of life for \d+ s; cancelled; launching again \(retry 1 of 3\)/);
    t.is(run.stdout, '24318165\n'); // L(4,4)
  },
);
