/**
 * Counts through a real Slurm cluster (npm run test:slurm starts one on localhost): the job arrays,
 * a task killed by SIGKILL after writing part of its outputs and launched again, and the exact
 * number, equal to the single-process engine's.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

test('5×5 in 4 partitions through Slurm, one task killed and relaunched, equals the single-process count', (t) => {
  t.truthy(process.env.SLURM_CONF, 'run by npm run test:slurm, which sets SLURM_CONF');
  const scratch = tempScratch(t);
  const flag = path.join(scratch, 'killed');
  const sliced = runCli(
    ['5x5', '--partitions', '4', '--launcher', 'slurm', '--memory', '64M', '--retries', '2', '--scratch', path.join(scratch, 's')],
    {
      env: { GOCOUNT_KILL_TASK: `13:2:${flag}` },
      timeout: 600_000,
    },
  );
  t.is(sliced.status, 0, sliced.stderr);
  t.true(existsSync(flag), 'task 2 of step 13 was killed');
  // The task that expands step 13's states makes step 14, as the user numbers steps.
  t.regex(sliced.stderr, /step 14: task\(s\) 2 did not finish; launching again \(retry 1 of 2\)/);
  const single = runCli(['5x5', '--scratch', path.join(scratch, 'one'), '--quiet']);
  t.is(single.status, 0, single.stderr);
  t.is(sliced.stdout, single.stdout);
  t.is(sliced.stdout, '414295148741\n');
});
