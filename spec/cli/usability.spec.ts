import test from 'ava';
import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { availableMemory } from '../../lib/shared/available-memory.js';
import { planCount } from '../../lib/count/plan.js';
import { formatPlan } from '../../cli/plan-text.js';
import { STEP_LOG_FILE, parseStepLog } from '../../lib/format/step-log.js';
import { cliPath, repoRoot } from '../support/paths.js';
import { runCli, runCliAsync } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';

const L9 = '103919148791293834318983090438798793469';

/** What the tests below share, each made once. */
const shared = sharedScratch();

/** A --plan of 13×13 with a scratch folder not yet made, once for the tests below. */
const plan13 = once(() => {
  const scratch = path.join(shared, 'not-yet');
  return { scratch, run: runCli(['13x13', '--memory', '512M', '--residues-per-pass', '3', '--plan', '-T', scratch]) };
});

test('--plan prints the memory plan, moduli, passes, states per column, disk and time, and exits 0', (t) => {
  const { run } = plan13();
  t.is(run.status, 0);
  t.is(run.stderr, '');
  for (const line of [
    /^board {5}13x13, swept 13 points wide over 13 columns: 169 steps a pass$/m,
    /^memory {4}512 MiB for (1 worker|\d+ workers) \(/m,
    /^moduli {4}9: 4294967291 /m,
    /^passes {4}3: 3 \+ 3 \+ 3 moduli$/m,
    /^disk {6}up to .* GiB, first at its peak after step \d+ \(.* free in \/.*\)$/m,
    /^time {6}about /m,
    /^ {2}column 13 +50\.3M {2}on disk$/m,
  ])
    t.regex(run.stdout, line);
});

test('--plan writes nothing, not even its scratch folder', (t) => {
  const { scratch } = plan13();
  t.false(existsSync(scratch));
});

test('--plan --json gives the plan as JSON', (t) => {
  const json = JSON.parse(runCli(['9x9', '--plan', '--json', '--memory', '64M']).stdout);
  t.like(json, { steps: 81, memory: 64 * 2 ** 20, moduli: { length: 5 }, passes: { length: 1 }, columns: { length: 9 } });
  t.true(json.columns.every((column: { inMemory: boolean }) => column.inMemory));
  t.is(json.disk.bytes, 0);
  t.deepEqual(json.warnings, []);
});

test('--plan for 14×14 at 20G with two workers keeps whole in memory the steps whose residues fit, columns 1 to 10, and not at 4G', (t) => {
  const scratch = tempScratch(t);
  const plan = (memory: string) => planCount({ m: 14, n: 14, memory, workers: 2, scratch });
  const large = plan('20G');
  t.deepEqual(
    large.columns.map((column) => column.inMemory),
    [...Array(10).fill(true), ...Array(4).fill(false)],
  );
  t.is(large.perWorker.tableShardBytes, 3.5 * 2 ** 30);
  t.regex(
    formatPlan(large),
    /^ {10}each worker: a state table of 118\.5M slots in 2 WebAssembly memories, steps of up to 82\.9M states kept in memory,/m,
  );
  const small = plan('4G');
  t.deepEqual(
    small.columns.map((column) => column.inMemory),
    [true, ...Array(13).fill(false)],
  );
  // Steps on disk cost about 1.6 times those in memory (plan.ts).
  t.true(large.seconds < small.seconds * 0.8, `${large.seconds} s at 20G, ${small.seconds} s at 4G`);
});

test('sizes as GNU sort takes them: 50% of the available memory, -S/--buffer-size and -T/--temporary-directory', (t) => {
  const plan = (args: string[]) => JSON.parse(runCli(['9x9', '--plan', '--json', ...args]).stdout);
  t.is(plan(['--memory', '50%']).memory, Math.floor(availableMemory().bytes / 2));
  t.is(plan(['-S', '1.5%']).memory, Math.floor((availableMemory().bytes * 1.5) / 100));
  t.is(plan(['--buffer-size', '3M']).memory, 3 * 2 ** 20);
  const scratch = tempScratch(t);
  const run = runCli(['3x4', '-S', '2M', '--temporary-directory', scratch, '--keep', '--quiet']);
  t.is(run.stdout, '321689\n'); // L(3,4)
  t.deepEqual(readdirSync(scratch), ['3x4']);
});

/** A count with a budget over the available memory, once for the two tests below. */
const overBudget = once(() => runCli(['3x3', '--memory', '900T', '--scratch', mkdtempSync(path.join(shared, 'over-budget-'))]));

test('a budget over the available memory is counted, with a warning naming both', (t) => {
  const run = overBudget();
  t.is(run.status, 0);
  t.is(run.stdout, '12675\n');
  t.regex(
    run.stderr,
    /^gocount: the memory budget, 900 TiB, is more than the .* of (physical memory|the cgroup limit in .*): the count may swap or be killed\n$/,
  );
});

test('--plan gives the warning of a budget over the available memory that the count gives', (t) => {
  const run = overBudget();
  const plan = runCli(['3x3', '--memory', '900T', '--scratch', tempScratch(t), '--plan', '--json']);
  t.is(plan.status, 0);
  t.is(plan.stderr, run.stderr);
  t.deepEqual(JSON.parse(plan.stdout).warnings, [run.stderr.slice('gocount: '.length, -1)]);
});

test('the cgroup limit is the available memory when it is below physical memory', (t) => {
  const scratch = tempScratch(t);
  const limit = path.join(scratch, 'memory.max');
  writeFileSync(limit, '1073741824\n');
  t.deepEqual(availableMemory([path.join(scratch, 'none'), limit]), { bytes: 2 ** 30, source: `the cgroup limit in ${limit}` });
  writeFileSync(limit, 'max\n');
  t.is(availableMemory([limit]).source, 'physical memory');
});

test('--disk prints its estimate before counting, not only when it refuses', (t) => {
  const run = runCli(['9x9', '--memory', '8M', '--workers', '1', '--disk', '1G', '--scratch', tempScratch(t)]);
  t.is(run.status, 0);
  t.regex(run.stderr, /^gocount: disk for this count: up to \d+ MiB, first at its peak after step \d+$/m);
  const refused = runCli(['9x9', '--memory', '8M', '--workers', '1', '--disk', '1K', '--scratch', tempScratch(t)]);
  t.is(refused.status, 2);
  t.regex(refused.stderr, /--disk 1\.0 KiB: less than the \d+ MiB of disk this count may need\n$/);
});

test('a count leaves behind no empty scratch folder that it created, and keeps one it did not', (t) => {
  const base = tempScratch(t);
  const run = runCli(['3x3', '--scratch', path.join(base, 'new', 'deeper')]);
  t.is(run.stdout, '12675\n');
  t.deepEqual(readdirSync(base), []);
});

test('--stats-json: one line per step of every pass, rewritten as the count goes, outliving the count folder', (t) => {
  const scratch = tempScratch(t);
  const file = path.join(tempScratch(t), 'steps.jsonl');
  const run = runCli(['5x5', '--residues-per-pass', '1', '--memory', '2M', '--stats-json', file, '--scratch', scratch, '--quiet']);
  t.is(run.status, 0);
  t.deepEqual(readdirSync(scratch), []);
  const log = parseStepLog(readFileSync(file, 'utf8'));
  const passes = log[0].passes;
  t.true(passes > 1);
  t.is(log.length, 25 * passes);
  t.deepEqual(
    log.map((entry) => `${entry.pass}:${entry.step}`),
    Array.from({ length: 25 * passes }, (_, i) => `${Math.floor(i / 25) + 1}:${(i % 25) + 1}`),
  );
  t.like(log[24], { width: 5, columns: 5, steps: 25, states: log[49].states }); // every pass goes through the same states
  t.true(log.every((entry) => entry.seconds >= 0 && typeof entry.nsPerState.expand === 'number'));
});

test('--json --stats has the per-step log', (t) => {
  const out = JSON.parse(runCli(['3x3', '--json', '--stats', '--quiet', '--scratch', tempScratch(t)]).stdout);
  t.is(out.legal, '12675');
  t.deepEqual(
    out.steps.map((entry: { step: number }) => entry.step),
    [1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
});

test('--json without --stats has no per-step log', (t) => {
  t.is(JSON.parse(runCli(['3x3', '--json', '--quiet', '--scratch', tempScratch(t)]).stdout).steps, undefined);
});

/**
 * Starts a 9×9 count (`args` beside the board and the scratch folder), sends `signal` once its step
 * log has `after` lines, and collects its output.
 */
function stopCount(scratch: string, signal: NodeJS.Signals, after: number, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliPath, '9x9', ...args, '--scratch', scratch], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const poll = setInterval(() => {
      const logs = findLogs(scratch);
      if (logs.length > 0 && readFileSync(logs[0], 'utf8').split('\n').length > after) {
        clearInterval(poll);
        child.kill(signal);
      }
    }, 20);
    child.on('close', (status) => {
      clearInterval(poll);
      resolve({ status, stderr });
    });
  });
}

function findLogs(scratch: string): string[] {
  const board = path.join(scratch, '9x9');
  if (!existsSync(board)) return [];
  return readdirSync(board)
    .map((name) => path.join(board, name, STEP_LOG_FILE))
    .filter(existsSync);
}

/** What a count stopped between steps says, last: the one step it resumes at, and its folder. */
const stoppedAt = (stderr: string) => /^gocount: stopped; the same command resumes at step (\d+) of 81, from (.*)\n$/m.exec(stderr);

for (const [signal, code, workers] of [
  ['SIGINT', 130, '1'],
  ['SIGTERM', 143, '2'],
] as const) {
  // 6M: step 20 is on disk (at 8M the steps of fewer residues stay in memory up to step 21).
  const args = ['--workers', workers, '--memory', '6M'];
  /** A 9×9 count stopped by `signal`, once for the two tests below: what it said, and its step log as it left it. */
  const stopped = once(async () => {
    const scratch = mkdtempSync(path.join(shared, `${signal}-`));
    const run = await stopCount(scratch, signal, 20, args);
    const folder = stoppedAt(run.stderr)?.[2];
    const log = folder === undefined ? '' : readFileSync(path.join(folder, STEP_LOG_FILE), 'utf8');
    return { scratch, ...run, log };
  });

  test(`${signal} stops the count between steps, says where its files are, and exits ${code}`, async (t) => {
    const { status, stderr, log } = await stopped();
    t.is(status, code);
    const said = stoppedAt(stderr);
    t.truthy(said, stderr);
    const [, resumeAt, folder] = said!;
    t.true(existsSync(folder));
    t.regex(stderr, new RegExp(`^gocount: ${signal}: stopping after the step under way`, 'm'));
    t.is(parseStepLog(log).at(-1)!.step, Number(resumeAt) - 1);
  });

  test(`after ${signal}, the same command resumes the count, keeping its step log`, async (t) => {
    const { scratch, stderr } = await stopped();
    const said = stoppedAt(stderr);
    if (!said) return t.fail(stderr);
    const [, resumeAt, folder] = said;
    const resumed = await runCliAsync(['9x9', ...args, '--scratch', scratch, '--keep']);
    t.is(resumed.stdout, `${L9}\n`);
    t.regex(resumed.stderr, new RegExp(`steps 1–${Number(resumeAt) - 1} of 81 are complete in .*: resuming at step ${resumeAt}$`, 'm'));
    // The step log is kept across the resume: every step once, in order.
    const kept = parseStepLog(readFileSync(path.join(folder, STEP_LOG_FILE), 'utf8'));
    t.deepEqual(
      kept.map((entry) => entry.step),
      Array.from({ length: 81 }, (_, i) => i + 1),
    );
  });
}

/**
 * A 9×9 count with every step in memory (the default budget), stopped by SIGINT once its step log
 * has 30 steps, once for the tests below: what it said, its step log as it left it, and a copy of
 * its scratch folder for the tests that resume it elsewhere.
 */
const stoppedInMemory = once(async () => {
  const scratch = mkdtempSync(path.join(shared, 'in-memory-'));
  const run = await stopCount(scratch, 'SIGINT', 30, ['--workers', '1']);
  const folder = stoppedAt(run.stderr)?.[2];
  const log = folder === undefined ? [] : parseStepLog(readFileSync(path.join(folder, STEP_LOG_FILE), 'utf8'));
  const copy = mkdtempSync(path.join(shared, 'in-memory-copy-'));
  cpSync(scratch, copy, { recursive: true });
  return { scratch, copy, ...run, log };
});

test('SIGINT while the steps are in memory: the command writes the last one to disk and names the one step it resumes at', async (t) => {
  const { status, stderr, log } = await stoppedInMemory();
  t.is(status, 130);
  const said = stoppedAt(stderr);
  t.truthy(said, stderr);
  t.true(log.length >= 30, `${log.length} steps logged`);
  t.deepEqual(
    log.map((entry) => entry.runsOut),
    new Array(log.length).fill(0),
    'every step was in memory',
  );
  t.is(Number(said![1]), log.at(-1)!.step + 1);
});

test('after SIGINT while the steps are in memory, the same command resumes at the step it named, to the exact number', async (t) => {
  const { scratch, stderr } = await stoppedInMemory();
  const said = stoppedAt(stderr);
  if (!said) return t.fail(stderr);
  const resumed = await runCliAsync(['9x9', '--workers', '1', '--scratch', scratch]);
  t.is(resumed.stdout, `${L9}\n`);
  t.regex(resumed.stderr, new RegExp(`: resuming at step ${said[1]}$`, 'm'));
});

/**
 * The in-memory count stopped above, resumed from its step on disk where no run file can be written
 * (as on a full disk) and stopped by SIGINT again 10 steps on, once for the two tests below.
 */
const stoppedOnAFullDisk = once(async () => {
  const { copy, stderr } = await stoppedInMemory();
  const resumeAt = Number(stoppedAt(stderr)?.[1]);
  const run = await stopCount(copy, 'SIGINT', resumeAt + 10, ['--workers', '1'], { GOCOUNT_DISK_FULL_AFTER: '0' });
  return { resumeAt, ...run };
});

test('SIGINT on a full disk while the steps are in memory: one line says so, and the step on disk before stays the one to resume at', async (t) => {
  const { resumeAt, status, stderr } = await stoppedOnAFullDisk();
  t.is(status, 130);
  const lines = stderr
    .split('\n')
    .filter((line) => line !== '' && !/^(step \d+\/\d+: |gocount: SIGINT: stopping|gocount: steps 1–)/.test(line));
  t.is(lines.length, 1, stderr);
  const said =
    /^gocount: stopped, but the disk is full: step (\d+) could not be written to .*, and the same command resumes at step (\d+) of 81$/.exec(
      lines[0],
    );
  t.truthy(said, lines[0]);
  t.true(Number(said![1]) >= resumeAt + 10);
  t.is(Number(said![2]), resumeAt);
});

test('after a full disk at the stop, the same command resumes at the step that line named, to the exact number', async (t) => {
  const { copy } = await stoppedInMemory();
  const { resumeAt } = await stoppedOnAFullDisk();
  const resumed = await runCliAsync(['9x9', '--workers', '1', '--scratch', copy]);
  t.is(resumed.stdout, `${L9}\n`);
  t.regex(resumed.stderr, new RegExp(`: resuming at step ${resumeAt}$`, 'm'));
});

/** A 9×9 count stopped by a second SIGINT while a step is under way, once for the tests below; and the locks it left. */
const ARGS_STOPPED_TWICE = ['9x9', '--workers', '2', '--memory', '8M', '--quiet'];
const stoppedTwice = once(async () => {
  const scratch = mkdtempSync(path.join(shared, 'twice-'));
  const stopped = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...ARGS_STOPPED_TWICE, '--scratch', scratch], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const poll = setInterval(() => {
      const board = path.join(scratch, '9x9');
      const logs = existsSync(board) ? readdirSync(board).map((name) => path.join(board, name, STEP_LOG_FILE)) : [];
      // Once the steps take a while: the second signal comes while one is under way.
      if (logs.some((log) => existsSync(log) && readFileSync(log, 'utf8').split('\n').length > 35)) {
        clearInterval(poll);
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 5);
      }
    }, 20);
    child.on('close', (status) => {
      clearInterval(poll);
      resolve({ status, stderr });
    });
  });
  // Stopped before its first step on disk, the count removes the folders it made: then no lock is left either.
  const board = path.join(scratch, '9x9');
  const locks = existsSync(board) ? readdirSync(board).filter((name) => existsSync(path.join(board, name, 'lock.json'))) : [];
  return { scratch, ...stopped, locks };
});

/** What the second signal's line says is lost, and the step the same command resumes at; or, when the stop was done before it came, the stop's line. */
const LOST =
  /^gocount: (stopped at once by a second SIGINT: (nothing is lost|steps? \d+(–\d+)? (is|are) lost), and the same command (?:resumes|starts again) at step (\d+)|stopped; the same command (?:resumes|starts again) at step (\d+) of 81.*)$/m;

/** The count stopped twice, run again by the same command, once for the tests below. */
const resumedAfterTwice = once(async () => runCliAsync([...ARGS_STOPPED_TWICE, '--scratch', (await stoppedTwice()).scratch]));

test('a second SIGINT stops the count at once, gives back its lock, and exits 130', async (t) => {
  const { status, stderr, locks } = await stoppedTwice();
  t.is(status, 130);
  t.regex(stderr, LOST);
  t.deepEqual(locks, []);
});

test('after a second SIGINT, the same command resumes the count, with no lock to take over', async (t) => {
  const resumed = await resumedAfterTwice();
  t.is(resumed.stdout, `${L9}\n`);
  t.notRegex(resumed.stderr, /took over the lock/);
});

test('a second SIGINT says what is lost: the same command resumes at the first step it named lost', async (t) => {
  const { stderr } = await stoppedTwice();
  const said = LOST.exec(stderr);
  if (!said) return t.fail(stderr);
  const resumeAt = said[5] ?? said[6];
  const firstLost = /^steps? (\d+)/.exec(said[2] ?? '')?.[1];
  if (firstLost !== undefined) t.is(firstLost, resumeAt);
  // Where nothing was on disk, the count starts again without a word of resuming.
  const resumed = (await resumedAfterTwice()).stderr;
  if (resumeAt === '1') t.notRegex(resumed, /resuming at step/);
  else t.regex(resumed, new RegExp(`: resuming at step ${resumeAt}$`, 'm'));
});

test('flags: one without its value is refused', async (t) => {
  const scratch = tempScratch(t);
  for (const [args, line] of [
    [['3x3', '--scratch'], 'gocount: --scratch needs a value\n'],
    [['report', scratch, '-o'], 'gocount: -o needs a value\n'],
  ] as const) {
    const run = await runCliAsync([...args]);
    t.is(run.status, 2, args.join(' '));
    t.is(run.stderr, line);
  }
});

test('flags: a choice outside the list names the list', async (t) => {
  const run = await runCliAsync(['solve', '2x2', '--rule', 'foo']);
  t.is(run.status, 2, 'solve 2x2 --rule foo');
  t.is(run.stderr, 'gocount: --rule foo: must be no-cycle or cycle-draw (see gocount --help)\n');
});

test('flags: one that takes no value is refused one', async (t) => {
  const run = await runCliAsync(['3x3', '--json=maybe']);
  t.is(run.status, 2, '3x3 --json=maybe');
  t.is(run.stderr, 'gocount: --json=maybe: --json takes no value (or true or false)\n');
});

test('flags: one given twice takes its last value', async (t) => {
  const scratch = tempScratch(t);
  // 1K is below what any count needs: refused when it is the value that counts, the last one.
  t.is((await runCliAsync(['3x3', '--memory', '1K', '--memory', '300M', '--scratch', scratch])).stdout, '12675\n');
  const last = await runCliAsync(['3x3', '--memory', '300M', '--memory', '1K', '--scratch', scratch]);
  t.regex(last.stderr, /^gocount: --memory 1.0 KiB: too small/);
  t.is((await runCliAsync(['solve', '2x2', '--rule', 'foo', '--rule', 'cycle-draw', '--json'])).status, 0);
});

test('flags: -S4M is taken as GNU sort takes it', async (t) => {
  t.is((await runCliAsync(['3x3', '-S4M', '--scratch', tempScratch(t)])).stdout, '12675\n');
});

test('an output file in a folder that does not exist is refused before the work', async (t) => {
  const missing = path.join(tempScratch(t), 'no-such-folder');
  const solve = await runCliAsync(['solve', '2x3', '--db', path.join(missing, 'x.db')]);
  t.is(solve.status, 2);
  t.is(solve.stderr, `gocount: --db ${path.join(missing, 'x.db')}: its folder ${missing} does not exist\n`, 'before any progress');
  const recurrence = await runCliAsync(['recurrence', '3', '--coefficients', path.join(missing, 'c.txt')]);
  t.is(recurrence.status, 2);
  t.is(recurrence.stderr, `gocount: --coefficients ${path.join(missing, 'c.txt')}: its folder ${missing} does not exist\n`);
});

test('a scratch folder under /proc is refused in one line', async (t) => {
  // Node's recursive mkdir spins for ever under /proc.
  const spill = await runCliAsync(
    ['solve', '2x3', '--rule', 'cycle-draw', '--no-symmetry', '--memory', '32K', '--quiet', '--scratch', '/proc/gocount-x'],
    {
      timeout: 20_000,
    },
  );
  t.is(spill.status, 2);
  t.is(spill.stderr, 'gocount: scratch folder /proc/gocount-x: cannot create /proc/gocount-x: the file system does not allow it\n');
});

test('a full output device stops the command in one line, exit code 1', async (t) => {
  const device = openSync('/dev/full', 'w');
  const full = await runCliAsync(['3x3', '--quiet', '--scratch', tempScratch(t)], { stdout: device });
  closeSync(device);
  t.is(full.status, 1);
  t.is(full.stderr, 'gocount: cannot write the output: no space left on device (ENOSPC)\n');
});

/** `npm run bench` with its arguments, as its own process, the event loop free meanwhile. */
function runBench(args: string[], env?: Record<string, string>) {
  return runCliAsync(args, { script: path.join(repoRoot, 'dist', 'cli', 'bench.js'), env });
}

test('npm run bench -- --before DIR counts each board with both builds in turn and sets their medians side by side', async (t) => {
  // This checkout as its own "before": the same build twice, 7×7 with one worker, two rounds. (So a
  // swap of the two builds' paths would pass: what is checked is the turns and the summary.)
  const bench = await runBench(['--boards', '7x7', '--workers', '1', '--rounds', '2', '--before', repoRoot]);
  t.is(bench.status, 0, bench.stderr);
  const rows = bench.stdout.split('\n').filter((row) => /^(before|after) +7x7 +default /.test(row));
  t.deepEqual(
    rows.map((row) => row.split(/ +/)[0]),
    ['before', 'after', 'after', 'before'],
    'the first of the two changes from round to round',
  );
  for (const row of rows) t.regex(row, / yes$/, 'each count is Table 3’s');
  t.regex(bench.stdout, /^before \(.+\) and after \(this build\), median of 2 \[least, most\]: /m);
  t.regex(bench.stdout, /^7x7 +default +1 {2}cpu \d+ \[\d+, \d+\] → \d+ \[\d+, \d+\] ns \(\d\.\d{3}×\) {2}phases /m);
});

test('npm run bench names the workers a count took where the board is too small for those asked: 16→1 on 5×5', async (t) => {
  // The suite starts every worker a count names (GOCOUNT_FORCE_WORKERS); this count takes what a user's would.
  const bench = await runBench(['--boards', '5x5', '--workers', '1,16'], { GOCOUNT_FORCE_WORKERS: '' });
  t.is(bench.status, 0, bench.stderr);
  const rows = bench.stdout.split('\n').filter((row) => row.startsWith('5x5 '));
  const counts = rows.filter((row) => / default /.test(row));
  t.deepEqual(
    counts.map((row) => row.split(/ +/)[2]),
    ['1', '16→1'],
  );
  // The cost model's rows and the comparison with one worker name them so too.
  const others = rows.filter((row) => !/ default /.test(row));
  t.deepEqual(
    others.map((row) => row.split(/ +/)[1]),
    ['1', '16→1', '1', '16→1'],
  );
});

test('npm run bench -- --before a folder without a build: one line, exit code 2, nothing counted', async (t) => {
  const empty = tempScratch(t);
  const bench = await runBench(['--boards', '7x7', '--before', empty]);
  t.is(bench.status, 2);
  t.is(bench.stdout, '');
  t.is(
    bench.stderr,
    `npm run bench: --before ${empty} has no build (${path.join(empty, 'dist', 'cli', 'main.js')}): run npm install there first\n`,
  );
});
