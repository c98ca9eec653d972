/**
 * `--plan`'s time and bytes against counts measured on this project's machine (2 cores) and on a
 * 16-core machine (docs/performance.md): within 1.5 times either way.
 */
import test from 'ava';
import path from 'node:path';
import { planCount, PlanOptions } from '../../lib/count/plan.js';
import { formatDuration } from '../../lib/shared/units.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';
import { canMount, smallFileSystem } from '../support/small-file-system.js';

/** Measured wall seconds (lowest and highest of the runs) of counts by today's kernels, with the cores they had; the highest of 13x13 and 14x14 without huge pages. */
const MEASURED: ReadonlyArray<[string, PlanOptions, number, number]> = [
  ['11x11 in memory, 2 workers, group steps (2026-12-05)', { m: 11, n: 11, workers: 2, cores: 2 }, 8.7, 9.48],
  ['11x11 at 256M, 2 workers (2026-12-05, 2026-12-07)', { m: 11, n: 11, workers: 2, memory: '256M', cores: 2 }, 12.96, 15.28],
  ['11x11 in 2 partitions of 128M (2026-12-05)', { m: 11, n: 11, partitions: 2, memory: '128M', cores: 2 }, 17.75, 20],
  ['13x13 at 512M, 2 workers (2026-12-07)', { m: 13, n: 13, workers: 2, memory: '512M', cores: 2 }, 538.9, 586.9],
  ['14x14 at 20G, 2 workers (2026-12-07)', { m: 14, n: 14, workers: 2, memory: '20G', cores: 2 }, 2252.1, 2776.4],
];

/**
 * Counts last measured before the expansion was inlined (2026-12-05), which made every count's
 * states cheaper: until they are measured again, the plan must not exceed 1.5 times their time.
 */
const MEASURED_BEFORE: ReadonlyArray<[string, PlanOptions, number]> = [
  ['13x13 in memory, 16 workers on 16 cores, group steps (2026-12-04)', { m: 13, n: 13, workers: 16, memory: '64G', cores: 16 }, 148.8],
  ['12x12 at 256M, 16 workers on 16 cores (2026-11-26)', { m: 12, n: 12, workers: 16, memory: '256M', cores: 16 }, 71],
];

for (const [name, options, fastest, slowest] of MEASURED) {
  test(`--plan's time is within 1.5 times the measured wall time: ${name}`, (t) => {
    const { seconds } = planCount({ scratch: tempScratch(t), ...options });
    t.true(seconds <= 1.5 * fastest && seconds >= slowest / 1.5, `planned ${formatDuration(seconds)}, measured ${fastest}–${slowest} s`);
  });
}

for (const [name, options, measured] of MEASURED_BEFORE) {
  test(`--plan's time is at most 1.5 times the wall time measured before the expansion was inlined: ${name}`, (t) => {
    const { seconds } = planCount({ scratch: tempScratch(t), ...options });
    t.true(seconds <= 1.5 * measured, `planned ${formatDuration(seconds)}, measured ${measured} s`);
  });
}

test("--plan's bytes written: 11x11 at 128M wrote 2.6 GiB, in 2 partitions of 128M 713 MiB (2026-12-07), 14x14 at 20G 271 GiB; a count in memory none", (t) => {
  const scratch = tempScratch(t);
  const within = (planned: number, measured: number) => planned <= 1.5 * measured && planned >= measured / 1.5;
  t.true(within(planCount({ m: 11, n: 11, workers: 2, memory: '128M', scratch }).bytesWritten, 2.6 * 2 ** 30));
  t.true(within(planCount({ m: 11, n: 11, partitions: 2, memory: '128M', scratch, cores: 2 }).bytesWritten, 713 * 2 ** 20));
  // Measured (2026-12-01) when every state carried residues for 3^step (growth.ts): about a tenth more than now.
  t.true(within(planCount({ m: 14, n: 14, workers: 2, memory: '20G', scratch }).bytesWritten, 271 * 2 ** 30));
  t.is(planCount({ m: 9, n: 9, workers: 2, scratch }).bytesWritten, 0);
});

test("--plan of a partitioned count gives its bytes as the scratch folder's and the steps its tasks keep in memory: 11x11 in 2 partitions of 128M kept 98 of 121 (2026-12-07)", (t) => {
  const plan = runCli(['11x11', '--partitions', '2', '--memory', '128M', '--plan', '--cores', '2', '--scratch', tempScratch(t)]);
  t.is(plan.status, 0, plan.stderr);
  t.regex(
    plan.stdout,
    /^written {3}about [\d.]+ [MG]iB of runs in all, all through the scratch folder: the tasks keep 98 of the 121 steps in memory$/m,
  );
  // String keys, with more than 16 owners, change owner inside a window: every step is written.
  const many = runCli([
    '11x11',
    '--partitions',
    '2',
    '--workers',
    '16',
    '--memory',
    '1G',
    '--plan',
    '--cores',
    '2',
    '--scratch',
    tempScratch(t),
  ]);
  t.regex(many.stdout, /the tasks keep 0 of the 121 steps in memory$/m);
});

test('--cores plans for another machine, in days past a day', (t) => {
  const args = ['19x19', '--partitions', '16', '--workers', '64', '--threads', '16', '--memory', '60G', '--launcher', 'slurm'];
  const plan = runCli([...args, '--plan', '--cores', '256', '--scratch', tempScratch(t)]);
  t.is(plan.status, 0, plan.stderr);
  t.regex(plan.stdout, /^time {6}about \dd\d\dh on 256 cores like the reference machine's/m);
  t.regex(
    plan.stdout,
    /^written {3}about \d+ TiB of runs in all, all through the scratch folder: the tasks keep 0 of the 361 steps in memory$/m,
  );
});

test('twice the cores plan about half the time, the tasks then each getting cores of their own', (t) => {
  const scratch = tempScratch(t);
  // Twice the cores, about half the time: the 16 tasks then each get cores of their own.
  const seconds = (cores: number) =>
    planCount({ m: 19, n: 19, partitions: 16, workers: 64, threads: 16, memory: '60G', launcher: 'slurm', cores, scratch }).seconds;
  t.true(seconds(128) > 1.9 * seconds(256));
});

test('--cores is refused without --plan', (t) => {
  const refused = runCli(['9x9', '--cores', '4', '--scratch', tempScratch(t)]);
  t.is(refused.status, 2);
  t.is(refused.stderr, 'gocount: --cores: only with --plan, which plans for a machine of that many cores\n');
});

test('planCount refuses cores 0', (t) => {
  t.throws(() => planCount({ m: 9, n: 9, cores: 0, scratch: tempScratch(t) }), { message: /cores 0: must be an integer from 1 to 65536/ });
});

test('--cores N plans one worker per core of that machine, and its time for them', (t) => {
  const plan = runCli(['15x15', '--memory', '20G', '--cores', '16', '--plan', '--scratch', tempScratch(t)]);
  t.is(plan.status, 0, plan.stderr);
  t.regex(plan.stdout, /^memory {4}20 GiB for 16 workers \(/m);
  t.is(planCount({ m: 15, n: 15, memory: '20G', cores: 16, scratch: tempScratch(t) }).workers, 16);
  // The time is 16 workers' time, as --workers 16 plans it.
  const asked = runCli(['15x15', '--memory', '20G', '--cores', '16', '--workers', '16', '--plan', '--scratch', tempScratch(t)]);
  t.is(/^time .*$/m.exec(plan.stdout)![0], /^time .*$/m.exec(asked.stdout)![0]);
});

test('--cores N --workers N gives no warning that the workers take turns on this machine', (t) => {
  const plan = runCli(['15x15', '--memory', '20G', '--cores', '16', '--workers', '16', '--plan', '--scratch', tempScratch(t)]);
  t.is(plan.status, 0, plan.stderr);
  t.notRegex(plan.stderr, /take turns/);
});

test('--cores N plans a partitioned count run locally with the tasks filling the cores; through Slurm, one worker a task', (t) => {
  const scratch = tempScratch(t);
  const local = planCount({ m: 15, n: 15, memory: '20G', partitions: 2, cores: 16, scratch });
  t.deepEqual([local.partitions, local.workers], [2, 8]);
  const slurm = planCount({ m: 15, n: 15, memory: '20G', partitions: 2, launcher: 'slurm', cores: 16, scratch });
  t.deepEqual([slurm.partitions, slurm.workers], [2, 1]);
  // On this project's 2 cores, two local tasks have a core each.
  t.is(planCount({ m: 11, n: 11, memory: '128M', partitions: 2, cores: 2, scratch }).workers, 1);
});

// With two workers the leading one may write its share of a step more, one step ahead (with-engine.ts, estimateDisk).
const diskWarning = (scratch: string, peak = '18 MiB') =>
  `gocount: the count may need up to ${peak} of disk, more than the 4.0 MiB free on the file system of ${scratch}: it may stop on a full disk (and resume once there is room)\n`;

(canMount ? test : test.skip)('--plan on a file system smaller than the peak disk says both figures in one line', (t) => {
  const scratch = path.join(smallFileSystem(t, '4m'), 'scratch');
  const plan = runCli(['9x9', '--memory', '8M', '--plan', '--scratch', scratch]);
  t.is(plan.status, 0, plan.stderr);
  t.is(plan.stderr, diskWarning(scratch));
  t.regex(plan.stdout, /^disk {6}up to 18 MiB, first at its peak after step \d+ \(4\.0 MiB free in \//m);
});

(canMount ? test : test.skip)('a count on a file system smaller than its peak disk warns before its first step, and goes on', (t) => {
  const scratch = path.join(smallFileSystem(t, '4m'), 'scratch');
  const count = runCli(['9x9', '--memory', '8M', '--workers', '1', '--scratch', scratch]);
  t.is(count.status, 1);
  const lines = count.stderr.split('\n');
  t.is(`${lines[0]}\n`, diskWarning(scratch, '16 MiB'));
  // It goes on past its first step (a progress line comes only if a second passes first).
  const full =
    /\ngocount: disk full while writing .*step-(\d{5})\/.*\.run; finished steps are kept: free some space and run the same count again to resume\n$/.exec(
      count.stderr,
    );
  t.truthy(full, count.stderr);
  t.true(Number(full![1]) > 1, count.stderr);
});

(canMount ? test : test.skip)('--disk below the peak disk refuses as before; above it, the plan still warns of the free space', (t) => {
  const scratch = path.join(smallFileSystem(t, '4m'), 'scratch');
  const refused = runCli(['9x9', '--memory', '8M', '--disk', '8M', '--scratch', scratch]);
  t.is(refused.status, 2);
  t.is(refused.stderr, 'gocount: --disk 8.0 MiB: less than the 18 MiB of disk this count may need\n');
  const plan = runCli(['9x9', '--memory', '8M', '--disk', '1G', '--plan', '--scratch', scratch]);
  t.is(plan.stderr, diskWarning(scratch));
});

test('no disk warning where the scratch folder has room for the peak', (t) => {
  const plan = runCli(['9x9', '--memory', '8M', '--plan', '--scratch', tempScratch(t)]);
  t.is(plan.status, 0, plan.stderr);
  t.is(plan.stderr, '');
});
