#!/usr/bin/env node
/**
 * `npm run bench`: counts 9×9 and 11×11 (and 13×13 at --memory 512M with --with-13, 14×14 at
 * --memory 20G with two workers with --with-14) with the built command, each in a child process,
 * once per worker count (1, 2 and 16 by default) (--rounds times, the runs taking turns), and prints wall, user and system
 * time, CPU time per expanded state, states expanded per second, the cost model (ns per state in
 * each phase), peak RSS, redundancy, bytes written, the load average, and whether the count matches
 * the paper's Table 3; with several worker counts, each one's median CPU time per state against the
 * first's. Without --boards it also counts 11×11 in one process of 2 workers at --memory 256M and in
 * 2 partitions at --memory 128M each, and prints their ratios, and 13×13's first 60 steps at
 * --memory 512M (row 13x13:60, stopped through the library: bench-steps.ts). With --before DIR, each
 * count runs with that checkout's build and with this one, in turn, and the summary compares them.
 * A benchmark, not a test: it exits non-zero only when a count is wrong or fails.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { LEGAL_SQUARE } from '../lib/paper/published-counts.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { PHASES } from '../lib/format/step-log.js';
import type { CountStats } from '../lib/observe/stats.js';
import { formatBytes, formatCount, formatDuration } from '../lib/shared/units.js';

/** Table 3's L(n,n) for a board "nxn" (lib/paper/published-counts.ts, which a test checks against the paper's file). */
function table3(board: string): string | undefined {
  const square = /^(\d+)x\1$/.exec(board);
  return square ? LEGAL_SQUARE[Number(square[1]) - 1] : undefined;
}

const args = yargs(hideBin(process.argv))
  .scriptName('npm run bench --')
  .option('with-13', {
    type: 'boolean',
    default: false,
    describe: 'also count 13×13 with --memory 512M (about an hour: see docs/performance.md)',
  })
  .option('with-14', {
    type: 'boolean',
    default: false,
    describe: 'also count 14×14 with --memory 20G and two workers (over an hour, with the machine to itself: see docs/performance.md)',
  })
  .option('boards', { type: 'string', describe: 'comma-separated boards instead, like 7x7,9x9' })
  .option('memory', { type: 'string', describe: 'passed to gocount --memory' })
  .option('residues-per-pass', { type: 'number', describe: 'passed to gocount --residues-per-pass' })
  .option('workers', {
    type: 'string',
    default: '1,2,16',
    describe: 'comma-separated worker counts, each run in turn',
  })
  .option('rounds', {
    type: 'number',
    default: 1,
    describe: 'runs of each count, all the counts taking turns',
  })
  .option('scratch', { type: 'string', describe: 'folder for run files (default: a temporary folder)' })
  .option('before', {
    type: 'string',
    describe: 'a built checkout of the version before a change: each count runs with it and with this build, the two taking turns',
    conflicts: 'solve',
  })
  .option('solve', {
    type: 'string',
    describe:
      'instead of counting: solve these boards (like 4x4) under both rules (cycle-draw with both scorings) and check the pinned values',
  })
  .option('empty-board-only', {
    type: 'boolean',
    default: false,
    describe: 'with --solve: pass --empty-board-only, so that no-cycle values the empty board alone (1x12, 1x13)',
  })
  .strict()
  .help()
  .parseSync();

/** Times each count runs (with each build). */
const rounds = Math.max(1, args.rounds);

/** The kernel's clock ticks per second (getconf CLK_TCK), for /proc's times. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, 'main.js');

/** A build to count with: this one, or --before's (its dist/cli/main.js and bench-steps.js). */
interface Build {
  readonly name: 'before' | 'after' | 'this';
  readonly main: string;
  readonly firstSteps: string;
}
const thisBuild: Build = { name: args.before === undefined ? 'this' : 'after', main: cli, firstSteps: path.join(here, 'bench-steps.js') };
const builds: Build[] = [thisBuild];
if (args.before !== undefined) {
  // npm runs scripts in the package's folder: a relative path is the user's, from where npm was run.
  const dist = path.join(path.resolve(process.env.INIT_CWD ?? process.cwd(), args.before), 'dist', 'cli');
  builds.unshift({ name: 'before', main: path.join(dist, 'main.js'), firstSteps: path.join(dist, 'bench-steps.js') });
}

/** The rules each board is solved under: both cycle rules, and cycle-draw also as the paper scores. */
const SOLVE_RULES = [
  { rule: 'no-cycle', scoring: 'tromp-taylor' },
  { rule: 'cycle-draw', scoring: 'tromp-taylor' },
  { rule: 'cycle-draw', scoring: 'split-shared' },
] as const;

/**
 * The empty-board values the solver must reproduce, by rule and scoring: the literature's (issue
 * 13), and under cycle-draw with Tromp–Taylor scoring on 4x4 the value found here, +1, where the
 * paper's draw comes from splitting the points shared by both colours (docs/solve.md). 1x12 and
 * 1x13 under no-cycle are the values `--empty-board-only` found (docs/solve.md, Values): 1x12's
 * is T. Drange's, 1x13's is not (his table gives +2).
 */
const PINNED: Record<string, Record<string, number>> = {
  '2x2': { 'no-cycle tromp-taylor': 1, 'cycle-draw tromp-taylor': 0, 'cycle-draw split-shared': 0 },
  '3x3': { 'no-cycle tromp-taylor': 9, 'cycle-draw tromp-taylor': 9, 'cycle-draw split-shared': 9 },
  '4x4': { 'no-cycle tromp-taylor': 2, 'cycle-draw tromp-taylor': 1, 'cycle-draw split-shared': 0 },
  '1x12': { 'no-cycle tromp-taylor': 1, 'cycle-draw tromp-taylor': 0, 'cycle-draw split-shared': 0 },
  '1x13': { 'no-cycle tromp-taylor': 0, 'cycle-draw tromp-taylor': 0, 'cycle-draw split-shared': 0 },
};

if (args.solve !== undefined) {
  benchSolve(args.solve.split(','), args['empty-board-only']);
  process.exit();
}

const boards = args.boards ? args.boards.split(',') : ['9x9', '11x11'];
const workerCounts = [...new Set(args.workers.split(',').map(Number))];
interface BenchRun {
  readonly board: string;
  readonly memory?: string;
  readonly workers: number;
  /** A partitioned count through the local launcher, with --memory per task. */
  readonly partitions?: number;
  /** Only the count's first steps, stopped by the library's abort signal (bench-steps.ts). */
  readonly steps?: number;
}
/** The workers a run was counted with, where the count took fewer than asked. */
const workersCounted = new Map<BenchRun, number>();
const runs: BenchRun[] = boards.flatMap((board) => workerCounts.map((workers) => ({ board, memory: args.memory, workers })));
if (args['with-13']) runs.push(...workerCounts.map((workers) => ({ board: '13x13', memory: args.memory ?? '512M', workers })));
// 14×14 is the count the budget of a large machine is for: two workers, 10 GiB each, several WebAssembly memories each.
if (args['with-14']) runs.push({ board: '14x14', memory: args.memory ?? '20G', workers: 2 });
/** Issue 53's goal: 2 partitions within 1.25× the phase ns per state and 1.5× the wall time of one process, at the same memory per worker. */
const ONE_PROCESS: BenchRun = { board: '11x11', memory: '256M', workers: 2 };
const PARTITIONED: BenchRun = { board: '11x11', memory: '128M', workers: 1, partitions: 2 };
/** Out of memory in a few minutes: 13×13's first 60 steps, whose late steps spill to files. */
const FIRST_STEPS: BenchRun = { board: '13x13', memory: '512M', workers: 2, steps: 60 };
if (!args.boards) runs.push(ONE_PROCESS, PARTITIONED, FIRST_STEPS);
// This build runs from its own dist/cli, built whole; only --before's may be missing.
for (const build of builds.filter((candidate) => candidate.name === 'before')) {
  const missing = [build.main, ...(runs.some((run) => run.steps) ? [build.firstSteps] : [])].find((file) => !existsSync(file));
  if (missing) {
    console.error(`npm run bench: --before ${args.before} has no build (${missing}): run npm install there first`);
    process.exit(2);
  }
}

console.log(
  `gocount bench on ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} cores, ${formatBytes(os.totalmem())}, node ${process.version}`,
);
const compared = builds.length > 1;
/** With --before, a row's first cell: the build it ran with (buildColumn in the table, buildCell in a line). */
const buildColumn = (name: string) => (compared ? [name] : []);
const buildCell = (name: string) => (compared ? `${name.padEnd(6)} ` : '');
const head = [
  ...buildColumn('build'),
  'board',
  'memory',
  'workers',
  'wall',
  'user',
  'system',
  'cpu/state',
  'states/s',
  'expanded',
  'peak RSS',
  'redundancy',
  'written',
  'load',
  'exact',
];
const widths = [...(compared ? [6] : []), 7, 7, 7, 8, 8, 7, 9, 9, 9, 9, 10, 10, 14, 6];
const textColumns = compared ? 2 : 1;
const line = (cells: string[]) => cells.map((cell, i) => (i < textColumns ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' ');
const costLines: string[] = [];
console.log(line(head));
/** Each build's figures of each run, one per round; cpu is user + system seconds, perState its nanoseconds per expanded state. */
const measured = new Map<Build, Map<BenchRun, Array<{ wall: number; cpu: number; ns: number; perState: number }>>>(
  builds.map((build) => [build, new Map()]),
);
// With --before, each count runs with both builds one after the other, the first of the two
// changing from round to round, so that neither always meets the other's after-load.
const order = Array.from({ length: rounds }, (_, round) =>
  runs.flatMap((run) => (round % 2 ? [...builds].reverse() : builds).map((build) => ({ run, build }))),
).flat();
for (const { run, build } of order) {
  const { board, memory, workers, partitions, steps } = run;
  const scratch = args.scratch ?? mkdtempSync(path.join(os.tmpdir(), 'gocount-bench-'));
  const flags = [board, '--stats', '--json', '--quiet', '--scratch', scratch, '--workers', String(workers)];
  if (memory) flags.push('--memory', memory);
  if (partitions) flags.push('--partitions', String(partitions), '--launcher', 'local');
  if (args['residues-per-pass']) flags.push('--residues-per-pass', String(args['residues-per-pass']));
  const loadBefore = os.loadavg()[0];
  const childrenBefore = childrenCpu();
  const started = performance.now();
  const command = steps ? [build.firstSteps, board, String(steps), memory ?? '512M', scratch, String(workers)] : [build.main, ...flags];
  const child = spawnSync(process.execPath, command, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = (performance.now() - started) / 1000;
  const childrenAfter = childrenCpu();
  const load = `${loadBefore.toFixed(2)}→${os.loadavg()[0].toFixed(2)}`;
  if (!args.scratch) rmSync(scratch, { recursive: true, force: true });
  const shown = boardLabel(run);
  if (child.status !== 0) {
    console.log(`${buildCell(build.name)}${shown.padEnd(7)} failed (exit ${child.status}): ${child.stderr.trim().split('\n').pop()}`);
    process.exitCode = 1;
    continue;
  }
  const out = JSON.parse(child.stdout) as { legal?: string; stats: CountStats; steps?: Array<{ workers?: number }> };
  const { stats } = out;
  // A board too small for the workers asked is counted with fewer (the count says how many).
  const counted = out.steps?.[0]?.workers;
  if (!partitions && counted !== undefined && counted !== workers) workersCounted.set(run, counted);
  const label = workersLabel(run);
  const exact = steps || table3(board) === undefined ? 'n/a' : table3(board) === out.legal ? 'yes' : 'NO';
  if (exact === 'NO') process.exitCode = 1;
  // A partitioned count's tasks are the driver's children: their time is in /proc's children's
  // times, which the count's own figures (the driver's) leave out.
  const user = childrenAfter && childrenBefore ? childrenAfter.user - childrenBefore.user : stats.userSeconds;
  const system = childrenAfter && childrenBefore ? childrenAfter.system - childrenBefore.system : stats.systemSeconds;
  const perState = (1e9 * (user + system)) / Math.max(stats.statesExpanded, 1);
  const ns = PHASES.reduce((sum, phase) => sum + (stats.nsPerState[phase] ?? 0), 0);
  const figures = measured.get(build)!;
  figures.set(run, [...(figures.get(run) ?? []), { wall, cpu: user + system, ns, perState }]);
  console.log(
    line([
      ...buildColumn(build.name),
      shown,
      memory ?? 'default',
      label,
      formatDuration(wall),
      formatDuration(user),
      formatDuration(system),
      `${perState.toFixed(0)} ns`,
      formatCount(stats.statesPerSecond),
      formatCount(stats.statesExpanded),
      formatBytes(stats.peakRss),
      stats.redundancy.toFixed(3),
      formatBytes(stats.bytesWritten),
      load,
      exact,
    ]),
  );
  costLines.push(
    `${buildCell(build.name)}${shown.padEnd(7)} ${label.padStart(7)} ${PHASES.map((phase) => String(stats.nsPerState[phase] ?? '-').padStart(9)).join(' ')}`,
  );
}
console.log(
  '\ncost model, thread ns per expanded state (summed over workers)\n' +
    `${buildCell('build')}${'board'.padEnd(7)} ${'workers'.padStart(7)} ${PHASES.map((phase) => phase.padStart(9)).join(' ')}`,
);
for (const cost of costLines) console.log(cost);
if (runs.some((run) => run.partitions))
  console.log("\nworkers P×W: P partitions of W workers; user and system include the tasks, peak RSS is the driver's");
const one = medians(ONE_PROCESS);
const split = medians(PARTITIONED);
if (one && split)
  console.log(
    `\n11x11 in 2 partitions of 128M against one process of 2 workers at 256M${compared ? ' (this build)' : ''}: phase ns per state ${(split.ns / one.ns).toFixed(2)}× ` +
      `(goal 1.25×), wall ${(split.wall / one.wall).toFixed(2)}× (goal 1.5×), CPU ${(split.cpu / one.cpu).toFixed(2)}×`,
  );

if (workerCounts.length > 1) {
  console.log(`\nCPU time per expanded state, median of ${rounds}, against ${workerCounts[0]} workers${compared ? ' (this build)' : ''}`);
  for (const board of new Set(runs.map((run) => run.board))) {
    const runOf = (workers: number) => runs.find((run) => run.board === board && run.workers === workers && !run.partitions && !run.steps)!;
    const first = medians(runOf(workerCounts[0]))?.perState;
    for (const workers of workerCounts) {
      const run = runOf(workers);
      const ns = medians(run)?.perState;
      if (ns === undefined || first === undefined) continue;
      console.log(
        `${board.padEnd(7)} ${workersLabel(run).padStart(7)} ${`${ns.toFixed(0)} ns`.padStart(9)} ${`${(ns / first).toFixed(2)}×`.padStart(7)}`,
      );
    }
  }
}

if (compared) {
  console.log(
    `\nbefore (${args.before}) and after (this build), median of ${rounds}${rounds > 1 ? ' [least, most]' : ''}: ` +
      "CPU time per expanded state, and the phases' thread ns per state",
  );
  for (const run of runs) {
    const row = `${boardLabel(run).padEnd(8)} ${(run.memory ?? 'default').padStart(7)} ${workersLabel(run).padStart(7)}`;
    const [before, after] = builds.map((build) => measured.get(build)!.get(run) ?? []);
    if (before.length === 0 || after.length === 0) {
      console.log(`${row}  failed with the build ${before.length === 0 ? 'before' : 'after'}`);
      continue;
    }
    const compare = (figure: 'perState' | 'ns') => {
      const [was, now] = [before, after].map((figures) => figures.map((round) => round[figure]));
      // A side some of whose rounds failed says how many it has.
      const shown = (values: number[]) =>
        `${median(values).toFixed(0)}${values.length > 1 ? ` [${Math.min(...values).toFixed(0)}, ${Math.max(...values).toFixed(0)}]` : ''}` +
        `${values.length < rounds ? ` (${values.length} of ${rounds})` : ''}`;
      return `${shown(was)} → ${shown(now)} ns (${(median(now) / median(was)).toFixed(3)}×)`;
    };
    console.log(`${row}  cpu ${compare('perState')}  phases ${compare('ns')}`);
  }
}

/** A run's board as its rows name it: 13x13:60 for a count's first steps. */
function boardLabel(run: BenchRun): string {
  return run.steps ? `${run.board}:${run.steps}` : run.board;
}

/** A run's workers as its rows name them: P×W for P partitions of W workers, 16→10 for 16 asked and 10 counted with. */
function workersLabel(run: BenchRun): string {
  if (run.partitions) return `${run.partitions}×${run.workers}`;
  const counted = workersCounted.get(run);
  return counted === undefined ? String(run.workers) : `${run.workers}→${counted}`;
}

/** The median of each of a run's figures over its rounds with this build; undefined when it never succeeded. */
function medians(run: BenchRun): { wall: number; cpu: number; ns: number; perState: number } | undefined {
  const figures = measured.get(thisBuild)!.get(run);
  if (!figures) return undefined;
  return {
    wall: median(figures.map((round) => round.wall)),
    cpu: median(figures.map((round) => round.cpu)),
    ns: median(figures.map((round) => round.ns)),
    perState: median(figures.map((round) => round.perState)),
  };
}

/** The middle value, or the mean of the middle two. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * User and system seconds of this process's ended and waited-for children and theirs, from
 * /proc/self/stat (Linux), or undefined elsewhere.
 */
function childrenCpu(): { user: number; system: number } | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After the parenthesised command name: cutime and cstime are fields 16 and 17, in clock ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[13]) / CLOCK_TICKS, system: Number(fields[14]) / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}

/** `--solve`: each board under both rules in a child process; exits non-zero on a value that differs or a failure. */
function benchSolve(boards: string[], emptyBoardOnly: boolean): void {
  const cells = (row: string[]) => row.map((cell, i) => (i < 3 ? cell.padEnd(i === 2 ? 13 : 11) : cell.padStart(12))).join(' ');
  const only = emptyBoardOnly ? ['--empty-board-only'] : [];
  console.log(
    `gocount bench --solve${emptyBoardOnly ? ' --empty-board-only' : ''} on ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} cores, node ${process.version}`,
  );
  console.log(cells(['board', 'rule', 'scoring', 'value', 'pinned', 'wall', 'peak RSS', 'positions', 'kept', 'states', 'moves', 'load']));
  for (const board of boards) {
    for (const { rule, scoring } of SOLVE_RULES) {
      const loadBefore = os.loadavg()[0];
      const started = performance.now();
      const child = spawnSync(process.execPath, [cli, 'solve', board, '--rule', rule, '--scoring', scoring, ...only, '--json'], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      const wall = formatDuration((performance.now() - started) / 1000);
      const load = `${loadBefore.toFixed(2)}→${os.loadavg()[0].toFixed(2)}`;
      const pinned = PINNED[board]?.[`${rule} ${scoring}`];
      if (child.status !== 0) {
        console.log(
          `${cells([board, rule, scoring, 'failed', pinned === undefined ? 'n/a' : String(pinned), wall])}  ${child.stderr.trim().split('\n').pop()}`,
        );
        process.exitCode = 1;
        continue;
      }
      const out = JSON.parse(child.stdout) as {
        value: number;
        legalPositions: number;
        positions: number;
        states: number;
        edges: number;
        peakRss: number;
      };
      if (pinned !== undefined && out.value !== pinned) process.exitCode = 1;
      const shown = pinned === undefined ? 'n/a' : out.value === pinned ? String(pinned) : `${pinned} (NO)`;
      console.log(
        cells([
          board,
          rule,
          scoring,
          String(out.value),
          shown,
          wall,
          formatBytes(out.peakRss),
          String(out.legalPositions),
          String(out.positions),
          String(out.states),
          String(out.edges),
          load,
        ]),
      );
    }
  }
}
