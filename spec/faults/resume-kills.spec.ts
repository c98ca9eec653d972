/**
 * Counts killed at random moments. In a file of their own, and with no spawnSync: a test that
 * blocks the process while a count runs would hold up these tests' kill timers.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { MANIFEST_FILE, stepFolderName } from '../../lib/format/folder-names.js';
import { killAfter, runCliAsync } from '../support/run-cli.js';
import { L77, spilling } from '../support/spilling.js';
import { tempScratch } from '../support/scratch.js';
import { below, replayableRandom } from '../support/random.js';

for (const workers of ['1', '2', '3', '4']) {
  test(`killed with SIGKILL at random moments, 7×7 with ${workers} worker(s) resumes to the exact count`, async (t) => {
    const scratch = tempScratch(t);
    // Each worker needs its share of the budget: 300K serves one or two.
    const budget = `${Math.max(300, 150 * Number(workers))}K`;
    const args = ['7x7', ...spilling.map((arg) => (arg === '300K' ? budget : arg)), '--scratch', scratch, '--workers', workers];
    const random = replayableRandom(t, 'kill times');
    const sweep = path.join(scratch, '7x7');
    // The folder is not there before the count makes it, and goes when the count ends: between a check and the read, say.
    const firstStepDone = () => {
      try {
        return readdirSync(sweep).some((count) => existsSync(path.join(sweep, count, stepFolderName(1), MANIFEST_FILE)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    };
    let killed = 0;
    for (let trial = 0; trial < 6; trial++) {
      // The first run is killed once its first step is complete, so one kill at least is mid-count.
      // Node starts in about 0.15 s; the whole count takes about 1 s.
      if (await killAfter(args, trial === 0 ? firstStepDone : 150 + below(random, 1000))) killed++;
    }
    t.log(`${killed} of 6 runs were killed mid-count`);
    t.true(killed > 0);
    const run = await runCliAsync(args);
    t.is(run.status, 0, run.stderr);
    t.is(run.stdout, `${L77}\n`);
    t.deepEqual(readdirSync(scratch), [], 'a finished count leaves nothing behind');
  });
}
