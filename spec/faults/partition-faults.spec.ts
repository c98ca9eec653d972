/**
 * A partitioned count under the faults a cluster produces: runs damaged or lost before their step
 * is committed, a hung task, a full scratch disk. Each count runs as a command in a child process.
 */
import test from 'ava';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { countInMemory } from '../../lib/count/in-memory.js';
import { stepFolderName, taskMarkerName } from '../../lib/format/folder-names.js';
import { readTaskMarker } from '../../lib/format/task-marker.js';
import { runCliAsync as runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

/** The only count folder under a scratch folder's board folder. */
function countFolder(scratch: string, board: string): string {
  return path.join(scratch, board, readdirSync(path.join(scratch, board))[0]);
}

test('runs a done-marker names, damaged or deleted while the count was stopped, are found before the step is committed: their tasks run again and the count is exact', async (t) => {
  const scratch = tempScratch(t);
  const flag = path.join(scratch, 'killed');
  const dir = path.join(scratch, 's');
  const args = ['3x3', '--partitions', '4', '--scratch', dir, '--memory', '8M'];
  // Task 3 dies in step 6 and the count stops, the markers of tasks 0, 1 and 2 written.
  const stopped = await runCli([...args, '--retries', '0', '--quiet'], { env: { GOCOUNT_KILL_TASK: `5:3:${flag}` } });
  t.is(stopped.status, 1, stopped.stderr);
  const step6 = path.join(countFolder(dir, '3x3'), stepFolderName(6));
  const [damaged] = readTaskMarker(path.join(step6, taskMarkerName(0))).runs;
  const [lost] = readTaskMarker(path.join(step6, taskMarkerName(1))).runs;
  const bytes = readFileSync(path.join(step6, damaged.file));
  bytes[bytes.length >> 1] ^= 0x10;
  writeFileSync(path.join(step6, damaged.file), bytes);
  rmSync(path.join(step6, lost.file));

  const resumed = await runCli(args);
  t.is(resumed.status, 0, resumed.stderr);
  t.is(resumed.stdout, '12675\n');
  t.regex(resumed.stderr, /steps 1–5 of 9 are complete in .*: resuming at step 6/);
  t.true(
    resumed.stderr.includes(`step 6: task 0's run ${damaged.file} is damaged (run sum mismatch); launching again (retry 1 of 3)`),
    resumed.stderr,
  );
  t.true(resumed.stderr.includes(`step 6: task 1's run ${lost.file} is missing; launching again (retry 1 of 3)`), resumed.stderr);
});

test('a task that shows no sign of life for longer than --task-timeout is killed and launched again, with one line, and the count is exact', async (t) => {
  const scratch = tempScratch(t);
  const flag = path.join(scratch, 'stopped');
  const args = ['3x3', '--partitions', '2', '--scratch', path.join(scratch, 's'), '--memory', '8M', '--task-timeout', '3'];
  // Task 1 stops itself with SIGSTOP in step 5, its runs written and its marker not.
  const run = await runCli(args, { env: { GOCOUNT_STOP_TASK: `4:1:${flag}` }, timeout: 60_000 });
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '12675\n');
  t.regex(run.stderr, /^gocount: step 5: task 1 showed no sign of life for [3-9] s; killed; launching again \(retry 1 of 3\)$/m);
});

test('a task that stops on a full disk stops the count at once with one "disk full" line, spending no retries; the same command then resumes', async (t) => {
  const scratch = tempScratch(t);
  const args = ['4x4', '--partitions', '2', '--scratch', path.join(scratch, 's'), '--memory', '8M'];
  // Each task process fails its run writes after 40,000 bytes, as on a full disk (the driver's first step, 9 KB, fits).
  const full = await runCli(args, { env: { GOCOUNT_DISK_FULL_AFTER: '40000' } });
  t.is(full.status, 1);
  // Besides the progress lines a slow count prints without a terminal, one line: no relaunch notes.
  const lines = full.stderr.split('\n').filter((line) => line !== '' && !/^step \d+\/\d+: /.test(line));
  t.is(lines.length, 1, full.stderr);
  t.regex(
    lines[0],
    /^gocount: disk full while writing step \d+ in .*; finished steps are kept: free some space and run the same count again to resume$/,
  );
  const resumed = await runCli([...args, '--quiet']);
  t.is(resumed.status, 0, resumed.stderr);
  t.is(resumed.stdout, `${countInMemory({ width: 4, columns: 4 })}\n`);
});
