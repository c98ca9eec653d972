import test, { type ExecutionContext } from 'ava';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boardOf, sweepOf } from '../../lib/board/shape.js';
import { countInMemory, countInMemoryByColumn } from '../../lib/count/in-memory.js';
import { normalizeCountOptions } from '../../lib/count/options.js';
import { InvalidOptionError } from '../../lib/shared/errors.js';
import { unitsOf } from '../../lib/cluster/task-layout.js';
import { countWithEngine } from '../../lib/count/with-engine.js';
import type { EngineOptions } from '../../lib/count/engine-types.js';
import { ignoreProgress } from '../../lib/observe/progress.js';
import { COUNT_FILE, RESULT_FILE, RUN_SUFFIX, stepFolderName, taskMarkerName } from '../../lib/format/folder-names.js';
import { filesUnder } from '../support/fixture-runs.js';
import { below, replayableRandom } from '../support/random.js';
import { runCliAsync as runCli, runCliLines } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';
import { verifyPath } from '../../lib/verify/verify.js';

/** What several tests below share, each made once. */
const shared = sharedScratch();

const partitioned = (t: ExecutionContext, m: number, n: number, options: Partial<EngineOptions> = {}) =>
  countWithEngine({
    sweep: sweepOf(boardOf(m, n), false),
    memory: 16 << 20,
    scratchDir: tempScratch(t),
    fanIn: 64,
    keep: false,
    workers: 1,
    partitioned: { partitions: 4, launcher: 'local', retries: 0 },
    onProgress: ignoreProgress,
    ...options,
  });

/** The only count folder under a scratch folder's board folder. */
function countFolder(scratch: string, board: string): string {
  return path.join(scratch, board, readdirSync(path.join(scratch, board))[0]);
}

test('4 partitions through the local launcher equal the oracle, column by column, and leave nothing behind', async (t) => {
  const scratchDir = tempScratch(t);
  const result = await partitioned(t, 3, 5, { scratchDir });
  const sweep = { width: 3, columns: 5 };
  t.is(result.legal, countInMemory(sweep));
  t.deepEqual(result.perColumn, countInMemoryByColumn(sweep));
  t.true(result.reports.every((report) => report.runsOut > 0));
  t.deepEqual(readdirSync(scratchDir), []);
});

test('512 workers, 4 tasks of 128 on 2 threads each: 5×5 exact, each step a split run per thread and round, not a file per pair of workers', async (t) => {
  const scratchDir = tempScratch(t);
  const result = await partitioned(t, 5, 5, {
    scratchDir,
    memory: 48 << 20,
    workers: 128,
    keep: true,
    partitioned: { partitions: 4, launcher: 'local', retries: 0, threads: 2 },
  });
  t.is(result.legal, 414295148741n);
  // Thread t of task J serves workers 128J + t, 128J + t + 2, …, and names its runs by the first:
  // one split run per thread and round (a round more where a thread's table fills: with 512 owners
  // 5×5's few states share out unevenly), where a file per pair of workers would be up to 512² = 262,144.
  const count = countFolder(scratchDir, '5x5');
  const writers = [0, 1, 128, 129, 256, 257, 384, 385];
  let files = 0;
  for (const report of result.reports) {
    const names = readdirSync(path.join(count, stepFolderName(report.step))).sort();
    t.deepEqual(
      names.filter((name) => !name.startsWith('split-')),
      [...[0, 1, 2, 3].map(taskMarkerName), 'manifest.json'],
      `step ${report.step}`,
    );
    const runs = names.filter((name) => name.startsWith('split-')).map((name) => /^split-w(\d+)-(\d{5})\.run$/.exec(name));
    t.true(runs.every((run) => run !== null));
    t.deepEqual(
      [...new Set(runs.map((run) => Number(run![1])))].sort((a, b) => a - b),
      writers,
      `step ${report.step}`,
    );
    t.is(runs.length, report.runsOut);
    t.true(report.runsOut <= 2 * writers.length, `step ${report.step}: ${report.runsOut} runs`);
    files += runs.length;
  }
  // verify decodes every section on its own and checks that each state belongs to the section's worker.
  const report = verifyPath(scratchDir);
  t.deepEqual(report.problems, []);
  t.is(report.files, 1 + files);
});

test('2 partitions of 2 workers each, merging in rounds (--fan-in 2): exact', async (t) => {
  const result = await partitioned(t, 3, 3, {
    partitioned: { partitions: 2, launcher: 'local', retries: 0 },
    workers: 2,
    memory: 4 << 20,
    fanIn: 2,
  });
  t.is(result.legal, countInMemory({ width: 3, columns: 3 }));
  // Each of the 4 workers reads its section of the split run of every worker that made states it owns: more than --fan-in.
  t.true(result.reports.some((report) => report.runsIn > 2));
});

test('2 partitions, one modulus per pass: exact', async (t) => {
  // 3×7 is the smallest board whose count needs two moduli: two passes.
  const result = await partitioned(t, 3, 7, {
    partitioned: { partitions: 2, launcher: 'local', retries: 0 },
    memory: 4 << 20,
    fanIn: 2,
    residuesPerPass: 1,
  });
  t.is(result.legal, countInMemory({ width: 3, columns: 7 }));
  t.is(result.passes, 2);
});

test('2 partitions whose tasks fill their tables and spill runs mid-step: exact', async (t) => {
  const sweep = { width: 6, columns: 4 };
  const result = await countWithEngine({
    sweep,
    memory: 150 << 10,
    scratchDir: tempScratch(t),
    fanIn: 4,
    keep: false,
    workers: 1,
    partitioned: { partitions: 2, launcher: 'local', retries: 0 },
    onProgress: ignoreProgress,
  });
  t.is(result.legal, countInMemory(sweep));
  // Without spilling, 2 workers write at most 2 × 2 files a step.
  t.true(result.reports.some((report) => report.runsOut > 4));
});

test('a task killed after writing part of its runs is launched again, and the count stays exact', async (t) => {
  const scratch = tempScratch(t);
  const flag = path.join(scratch, 'killed');
  const run = await runCli(['3x3', '--partitions', '4', '--scratch', path.join(scratch, 's'), '--memory', '8M', '--retries', '1'], {
    env: { GOCOUNT_KILL_TASK: `6:2:${flag}` },
  });
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '12675\n');
  t.true(existsSync(flag), 'the task was killed');
  t.regex(run.stderr, /step 7: task 2 did not finish; launching again \(retry 1 of 1\)/);
});

/** The arguments of a 3x3 count in 4 partitions without retries, in `scratch`. */
function withoutRetries(scratch: string): string[] {
  return ['3x3', '--partitions', '4', '--scratch', scratch, '--memory', '8M', '--retries', '0', '--quiet'];
}

/** A count without retries whose task 3 is killed (GOCOUNT_KILL_TASK 5:3), once for the two tests below; and the markers of step 6 it left. */
const stoppedByAKilledTask = once(async () => {
  const scratch = mkdtempSync(path.join(shared, 'killed-'));
  const flag = path.join(scratch, 'killed');
  // Task 3 is last in its process also where fewer cores make parts 1 and 3 share one.
  const failed = await runCli(withoutRetries(path.join(scratch, 's')), { env: { GOCOUNT_KILL_TASK: `5:3:${flag}` } });
  const count = countFolder(path.join(scratch, 's'), '3x3');
  const markers = readdirSync(path.join(count, stepFolderName(6))).filter((name) => name.startsWith('done-'));
  return { scratch: path.join(scratch, 's'), failed, markers };
});

test("without retries a killed task stops the count with one line, the other tasks' markers kept", async (t) => {
  const { failed, markers } = await stoppedByAKilledTask();
  t.is(failed.status, 1);
  t.regex(
    failed.stderr,
    /^gocount: step 6: task 3 did not finish after 0 retries; their output is in .*logs, and the same command resumes with the tasks still missing\n$/,
  );
  // The other tasks of step 5 finished: their markers stay, and only task 3 runs again.
  t.deepEqual(markers, [0, 1, 2].map(taskMarkerName));
});

test('a count stopped by a killed task resumes with the same command, and finishes exact', async (t) => {
  const { scratch } = await stoppedByAKilledTask();
  const resumed = await runCli(withoutRetries(scratch).filter((arg) => arg !== '--quiet'));
  t.is(resumed.status, 0, resumed.stderr);
  t.is(resumed.stdout, '12675\n');
  t.regex(resumed.stderr, /steps 1–5 of 9 are complete in .*: resuming at step 6/);
});

/** A copy of a kept count's scratch folder, the test's own to change, and the count folder in it. */
function copyOf(t: ExecutionContext, scratch: string): { scratch: string; count: string } {
  const copy = tempScratch(t);
  cpSync(scratch, copy, { recursive: true });
  return { scratch: copy, count: countFolder(copy, '3x3') };
}

/** A 3x3 count in 2 partitions of 2 workers each, kept: counted once by the command for the tests below. */
const twoByTwoWorkers = once(async () => {
  const scratch = mkdtempSync(path.join(shared, 'two-by-two-'));
  const run = await runCli(['3x3', '--partitions', '2', '--workers', '2', '--keep', '--quiet', '--scratch', scratch, '--memory', '8M']);
  return { run, scratch };
});

test('a partitioned count of 2 tasks of 2 workers each, kept, counts 3x3 exactly', async (t) => {
  const { run } = await twoByTwoWorkers();
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '12675\n');
});

test('each task process of a partitioned count serves its parts for all 9 steps, in one log per process', async (t) => {
  const count = countFolder((await twoByTwoWorkers()).scratch, '3x3');
  // One log per process, not per step and part.
  const units = unitsOf(2, Math.floor(os.availableParallelism() / 2));
  t.deepEqual(
    readdirSync(path.join(count, 'logs'))
      .filter((name) => name.endsWith('.log'))
      .sort(),
    units.map((parts) => `task-${parts.join(',')}.log`).sort(),
  );
  for (const parts of units) {
    const log = readFileSync(path.join(count, 'logs', `task-${parts.join(',')}.log`), 'utf8');
    const done = [...log.matchAll(/^task (\d+) of step (\d+) done: /gm)].map(([, part, step]) => `${step}:${part}`);
    t.deepEqual(done, Array.from({ length: 9 }, (_, step) => parts.map((part) => `${step}:${part}`)).flat(), log);
  }
});

test('the runs of a partitioned count of several workers a task are split runs', async (t) => {
  const count = countFolder((await twoByTwoWorkers()).scratch, '3x3');
  const runFiles = Array.from({ length: 9 }, (_, i) => filesUnder(path.join(count, stepFolderName(i + 1))))
    .flat()
    .filter((file) => file.endsWith(RUN_SUFFIX));
  t.true(runFiles.every((file) => /\/step-\d{5}\/split-w\d+-\d{5}\.run$/.test(file)));
});

test('verify checks a partitioned count folder', async (t) => {
  const clean = await runCli(['verify', (await twoByTwoWorkers()).scratch]);
  t.is(clean.status, 0, clean.stdout);
  t.regex(clean.stdout, /^checked 1 count, 10 steps, \d+ run files, \d+ records: no problems\n$/);
});

test('verify catches a flipped byte in a run file and in a done-marker of a partitioned count folder, and checks it once it is put back', async (t) => {
  const { scratch, count } = copyOf(t, (await twoByTwoWorkers()).scratch);
  const random = replayableRandom(t, 'file and byte');
  const step = path.join(count, stepFolderName(1 + below(random, 9)));
  const runFiles = filesUnder(step).filter((file) => file.endsWith(RUN_SUFFIX));
  for (const file of [runFiles[below(random, runFiles.length)], path.join(step, taskMarkerName(below(random, 2)))]) {
    const bytes = readFileSync(file);
    const original = Buffer.from(bytes);
    // A marker's CRC covers its values: a digit past a double's precision may change none of them.
    let at: number;
    do {
      bytes.set(original);
      at = below(random, bytes.length);
      bytes[at] ^= 0x04;
    } while (sameJson(bytes, original));
    writeFileSync(file, bytes);
    const damaged = await runCli(['verify', scratch]);
    t.is(damaged.status, 1, `${file} byte ${at}`);
    t.true(damaged.stdout.includes(path.relative(process.cwd(), file)) || damaged.stdout.includes(file), damaged.stdout);
    bytes[at] ^= 0x04;
    writeFileSync(file, bytes);
  }
  t.is((await runCli(['verify', scratch])).status, 0);
});

/** A 3x3 count in 2 partitions, kept: counted once by the command for the tests below, which copy it to change it. */
const resumable = once(async () => {
  const scratch = mkdtempSync(path.join(shared, 'resumable-'));
  const run = await runCli(['3x3', '--scratch', scratch, '--memory', '8M', '--quiet', '--partitions', '2', '--keep']);
  return { run, scratch };
});

/** The arguments that count 3x3 in `scratch` as `resumable` did, less --partitions and --keep. */
const resumeArgs = (scratch: string) => ['3x3', '--scratch', scratch, '--memory', '8M', '--quiet'];

/** A copy of the resumable count whose result is not one: the next command resumes at its last step. */
async function unfinishedCopy(t: ExecutionContext): Promise<{ scratch: string; count: string }> {
  const copy = copyOf(t, (await resumable()).scratch);
  writeFileSync(path.join(copy.count, RESULT_FILE), '{}');
  return copy;
}

test('a partitioned count records its partitions and workers', async (t) => {
  const { run, scratch } = await resumable();
  t.is(run.status, 0);
  const recorded = JSON.parse(readFileSync(path.join(countFolder(scratch, '3x3'), COUNT_FILE), 'utf8'));
  t.like(recorded, { partitions: 2, workers: 1 });
});

test('a task of a step whose part is done says it was done already', async (t) => {
  const { count } = copyOf(t, (await resumable()).scratch);
  const again = await runCli(['task', count, '--step', '3', '--part', '1']);
  t.is(again.status, 0, again.stderr);
  t.is(again.stdout, 'task 1 of step 3 was done already\n');
});

test('the task of a committed step whose marker is gone is refused, and the step is left as it was', async (t) => {
  const { count } = copyOf(t, (await resumable()).scratch);
  const marker = path.join(count, stepFolderName(4), taskMarkerName(1));
  const kept = readFileSync(marker);
  rmSync(marker);
  const late = await runCli(['task', count, '--step', '3', '--part', '1']);
  t.is(late.status, 2);
  t.regex(late.stderr, /^gocount: step 4 is complete in .*: the tasks of step 3 have nothing left to do\n$/);
  writeFileSync(marker, kept);
  t.is((await runCli(['verify', count])).status, 0);
});

test('a task in a folder that is not a count folder is refused in one line', async (t) => {
  const { scratch } = copyOf(t, (await resumable()).scratch);
  const notThere = await runCli(['task', scratch, '--step', '3', '--part', '1']);
  t.is(notThere.status, 2);
  t.regex(notThere.stderr, /^gocount: .* is not a count folder: it has no readable count\.json\n$/);
});

test('a task of a part the count does not have is refused in one line', async (t) => {
  const { count } = copyOf(t, (await resumable()).scratch);
  t.regex((await runCli(['task', count, '--step', '3', '--part', '2'])).stderr, /^gocount: part 2: this count has partitions 0 to 1\n$/);
});

test('a task given a --part that is not partition numbers is refused in one line', async (t) => {
  const { count } = copyOf(t, (await resumable()).scratch);
  const notParts = await runCli(['task', count, '--part', '1,x']);
  t.is(notParts.status, 2);
  t.is(notParts.stderr, 'gocount: --part 1,x: not a partition number, nor numbers separated by commas\n');
});

test('a partitioned count resumed with other partitions is refused in one line', async (t) => {
  const { scratch } = await unfinishedCopy(t);
  const other = await runCli([...resumeArgs(scratch), '--partitions', '3']);
  t.is(other.status, 2);
  // The copy's result.json, made unreadable so that the count is unfinished, is said even under --quiet: a warning.
  t.regex(
    other.stderr,
    /^gocount: .*result\.json was damaged and is removed: the count's result is made again from its last step on disk\ngocount: --partitions 3: step 9 in .* was written by 2 partitions: resume it with 2\n$/,
  );
});

test('a partitioned count resumed without --partitions resumes with the partitions it recorded, as with its workers', async (t) => {
  const { scratch } = await unfinishedCopy(t);
  const unsaid = await runCli(resumeArgs(scratch));
  t.is(unsaid.status, 0, unsaid.stderr);
  t.is(unsaid.stdout, '12675\n');
});

test('a partitioned count resumes with its partitions given again', async (t) => {
  const { scratch } = await unfinishedCopy(t);
  const resumed = await runCli([...resumeArgs(scratch), '--partitions', '2']);
  t.is(resumed.status, 0, resumed.stderr);
  t.is(resumed.stdout, '12675\n');
});

test('the local launcher deals the parts out in turn to at most cores / workers processes', (t) => {
  t.deepEqual(unitsOf(5, 2), [
    [0, 2, 4],
    [1, 3],
  ]);
  t.deepEqual(unitsOf(2, 16), [[0], [1]]);
  t.deepEqual(unitsOf(3, 0), [[0, 1, 2]]);
});

test('the command checks partition options: range, launcher, retries, threads and task timeout only with partitions', (t) => {
  const cases = [
    [['--partitions', '0'], /--partitions 0: must be an integer from 1 to 4096/],
    [['--partitions', '4097'], /--partitions 4097: must be an integer from 1 to 4096/],
    [['--launcher', 'local'], /--launcher local: only for a count split into partitions/],
    [['--retries', '2'], /--retries 2: only for a count split into partitions/],
    [['--partitions', '2', '--retries', '-1'], /--retries -1: must be a whole number/],
    [['--partitions', '64', '--workers', '65'], /--workers 65: times 64 partitions is over 4096 workers in all/],
    [['--task-timeout', '60'], /--task-timeout 60: only for a count split into partitions/],
    [['--partitions', '2', '--task-timeout', '0'], /--task-timeout 0: must be a number of seconds above 0/],
  ] as const;
  const runs = runCliLines(cases.map(([args]) => ['3x3', ...args]));
  cases.forEach(([args, message], i) => {
    t.is(runs[i].status, 2, args.join(' '));
    t.regex(runs[i].stderr, message);
    t.is(runs[i].late, '', args.join(' '));
  });
});

test('the library checks partition options the same way, naming its options', (t) => {
  const scratch = tempScratch(t);
  for (const [given, message] of [
    [{ threads: 2 }, 'threads 2: only for a count split into partitions'],
    [{ workers: 300 }, 'workers 300: must be an integer from 1 to 256'],
    [{ partitions: 2, workers: 4, threads: 5 }, 'threads 5: must be an integer from 1 to 4, the workers of each task'],
    [{ taskTimeout: 60 }, 'taskTimeout 60: only for a count split into partitions'],
    [{ partitions: 2, taskTimeout: -1 }, 'taskTimeout -1: must be a number of seconds above 0'],
  ] as const) {
    const error = t.throws(() => normalizeCountOptions({ m: 3, n: 3, scratch, ...given }), { instanceOf: InvalidOptionError });
    t.is(`${error?.option} ${error?.value}: ${error?.problem}`, message);
  }
});

/** Whether two files parse to the same JSON values (a run file parses to none). */
function sameJson(a: Buffer, b: Buffer): boolean {
  try {
    return JSON.stringify(JSON.parse(a.toString())) === JSON.stringify(JSON.parse(b.toString()));
  } catch {
    return false;
  }
}
