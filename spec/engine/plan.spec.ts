/**
 * `--plan`'s time and bytes against counts measured on this project's machine (2 cores) and on a
 * 16-core machine (docs/performance.md): within 1.5 times either way.
 */
import test from 'ava';
import { planCount, PlanOptions } from '../../lib/count/plan.js';
import { formatDuration } from '../../lib/shared/units.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

/** Measured wall seconds (lowest and highest of the runs) of counts, with the cores they had. */
const MEASURED: ReadonlyArray<[string, PlanOptions, number, number]> = [
  ['11x11 in memory, 2 workers (2026-11-27)', { m: 11, n: 11, workers: 2, cores: 2 }, 22.1, 26.4],
  ['11x11 at 256M, 2 workers (2026-11-27)', { m: 11, n: 11, workers: 2, memory: '256M', cores: 2 }, 22.1, 26.4],
  ['11x11 in 2 partitions of 128M (2026-11-27)', { m: 11, n: 11, partitions: 2, memory: '128M', cores: 2 }, 40.0, 40.4],
  ['13x13 at 512M, 2 workers (2026-11-24)', { m: 13, n: 13, workers: 2, memory: '512M', cores: 2 }, 1286, 1286],
  ['14x14 at 20G, 2 workers (2026-11-27)', { m: 14, n: 14, workers: 2, memory: '20G', cores: 2 }, 4417, 4417],
  ['13x13 in memory, 16 workers on 16 cores (2026-11-26)', { m: 13, n: 13, workers: 16, memory: '64G', cores: 16 }, 137, 137],
  ['12x12 at 256M, 16 workers on 16 cores (2026-11-26)', { m: 12, n: 12, workers: 16, memory: '256M', cores: 16 }, 71, 71],
];

for (const [name, options, fastest, slowest] of MEASURED) {
  test(`--plan's time is within 1.5 times the measured wall time: ${name}`, (t) => {
    const { seconds } = planCount({ scratch: tempScratch(t), ...options });
    t.true(seconds <= 1.5 * fastest && seconds >= slowest / 1.5, `planned ${formatDuration(seconds)}, measured ${fastest}–${slowest} s`);
  });
}

test("--plan's bytes written: 11x11 at 256M wrote 642 MiB, 14x14 at 20G 271 GiB; a count in memory none", (t) => {
  const scratch = tempScratch(t);
  const within = (planned: number, measured: number) => planned <= 1.5 * measured && planned >= measured / 1.5;
  t.true(within(planCount({ m: 11, n: 11, workers: 2, memory: '256M', scratch }).bytesWritten, 642 * 2 ** 20));
  t.true(within(planCount({ m: 14, n: 14, workers: 2, memory: '20G', scratch }).bytesWritten, 271 * 2 ** 30));
  t.is(planCount({ m: 9, n: 9, workers: 2, scratch }).bytesWritten, 0);
});

test('--cores plans for another machine, in days past a day', (t) => {
  const args = ['19x19', '--partitions', '16', '--workers', '64', '--threads', '16', '--memory', '60G', '--launcher', 'slurm'];
  const plan = runCli([...args, '--plan', '--cores', '256', '--scratch', tempScratch(t)]);
  t.is(plan.status, 0, plan.stderr);
  t.regex(plan.stdout, /^time {6}about \dd\d\dh on 256 cores like the reference machine's/m);
  t.regex(plan.stdout, /^written {3}about \d+ TiB of runs in all$/m);
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
  t.is(refused.stderr, 'gocount: --cores: only with --plan, which plans the time for that many cores\n');
});

test('planCount refuses cores 0', (t) => {
  t.throws(() => planCount({ m: 9, n: 9, cores: 0, scratch: tempScratch(t) }), { message: /cores 0: must be an integer from 1 to 65536/ });
});
