/**
 * Partition tasks killed at random moments. In a file of its own: the other partition specs block
 * their process while a count runs (spawnSync), which would hold up this test's timers.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { countInMemory } from '../../lib/count/in-memory.js';
import { cliPath } from '../support/paths.js';
import { below, replayableRandom } from '../support/random.js';
import { tempScratch } from '../support/scratch.js';

test('tasks killed with SIGKILL at random moments, over and over: the driver relaunches them and the count is exact', async (t) => {
  const scratch = tempScratch(t);
  const random = replayableRandom(t, 'kill times and tasks');
  const args = [cliPath, '3x5', '--partitions', '4', '--scratch', scratch, '--memory', '8M', '--retries', '30', '--quiet'];
  const driver = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  driver.stdout.on('data', (chunk) => (stdout += chunk));
  driver.stderr.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise<number | null>((resolve) => driver.on('close', (code) => resolve(code)));
  let running = true;
  void ended.then(() => (running = false));
  let killed = 0;
  // Until 6 tasks are killed or the count ends: on a busy machine the driver may take a while to start.
  while (running && killed < 6) {
    await new Promise((resolve) => setTimeout(resolve, 100 + below(random, 500)));
    const tasks = childrenOf(driver.pid!);
    if (tasks.length === 0) continue;
    try {
      process.kill(tasks[below(random, tasks.length)], 'SIGKILL');
      killed++;
    } catch {
      // it had just finished
    }
  }
  const code = await ended;
  t.log(`${killed} tasks killed`);
  t.is(code, 0, stderr);
  t.true(killed > 0);
  t.is(stdout, `${countInMemory({ width: 3, columns: 5 })}\n`);
});

/** The pids of a process's children, from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fourth field, after the parenthesised command name, is the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}
