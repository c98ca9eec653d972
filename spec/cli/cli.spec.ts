import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import yargs, { type Argv, type CommandModule } from 'yargs';
import { countCommand } from '../../cli/count-command.js';
import { estimateCommand } from '../../cli/estimate-command.js';
import { gamesCommand } from '../../cli/games-command.js';
import { PLACEHOLDERS } from '../../cli/help-text.js';
import { inspectCommand } from '../../cli/inspect-command.js';
import { recurrenceCommand } from '../../cli/recurrence-command.js';
import { reportCommand } from '../../cli/report-command.js';
import { sampleCommand } from '../../cli/sample-command.js';
import { solveCommand } from '../../cli/solve-command.js';
import { statesCommand } from '../../cli/states-command.js';
import { taskCommand } from '../../cli/task-command.js';
import { verifyCommand } from '../../cli/verify-command.js';
import { formatPlan } from '../../cli/plan-text.js';
import { formatSummary } from '../../cli/stats-tables.js';
import { planCount } from '../../lib/count/plan.js';
import { counted } from '../../lib/shared/plural.js';
import { once } from '../support/shared.js';
import { verifyPath } from '../../lib/verify/verify.js';
import { runCli, runCliLines } from '../support/run-cli.js';
import { testRefusals } from '../support/refusals.js';
import { tempScratch } from '../support/scratch.js';

/** Every command of gocount, for checks of their options. */
const COMMANDS = [
  countCommand,
  verifyCommand,
  inspectCommand,
  statesCommand,
  recurrenceCommand,
  estimateCommand,
  sampleCommand,
  gamesCommand,
  solveCommand,
  reportCommand,
  taskCommand,
] as unknown as CommandModule[];

/** What yargs's getOptions() gives, in part (it is missing from yargs's types). */
interface ParsedOptions {
  key: Record<string, unknown>;
  boolean: string[];
  alias: Record<string, string[]>;
}

test('gocount 3x3 prints the exact count and exits 0', (t) => {
  const run = runCli(['3x3', '--scratch', tempScratch(t)]);
  t.is(run.status, 0);
  t.is(run.stdout, '12675\n');
  // Nothing but progress, which a count prints only once it has run for 2 s (a loaded machine).
  t.regex(run.stderr, /^(step \d+\/\d+: .*\n)*$/);
});

test('gocount 4 5 takes the size as two numbers', (t) => {
  const run = runCli(['4', '5', '--scratch', tempScratch(t)]);
  t.is(run.status, 0);
  t.is(run.stdout, '1840058693\n'); // L(4,5), Table 5
});

test('--json prints m, n as given and the count as a string', (t) => {
  const run = runCli(['5x2', '--json', '--scratch', tempScratch(t)]);
  t.is(run.status, 0);
  t.deepEqual(JSON.parse(run.stdout), { m: 5, n: 2, legal: '35117' }); // L(2,5)
});

test('--keep-orientation sweeps 19 wide and gives the same count', (t) => {
  const wide = runCli(['19x1', '--keep-orientation', '--scratch', tempScratch(t)]);
  t.is(wide.status, 0);
  t.is(wide.stdout, '176377839\n');
});

test('--help describes every option', (t) => {
  const run = runCli(['--help']);
  t.is(run.status, 0);
  for (const option of ['--json', '--keep-orientation', '--help', '--version', 'MxN']) t.true(run.stdout.includes(option), option);
});

/** Every command's --help (the count's under ''), printed in one process (runCliLines). */
const HELP_COMMANDS = ['', 'verify', 'inspect', 'states', 'recurrence', 'estimate', 'sample', 'games', 'solve', 'report', 'task'];
const helps = once(() => {
  const runs = runCliLines(HELP_COMMANDS.map((command) => [...(command ? [command] : []), '--help']));
  return new Map(HELP_COMMANDS.map((command, i) => [command, runs[i].stdout]));
});
const help = () => helps().get('')!;

test('--help shows placeholders, not types', (t) => {
  for (const flag of ['-S, --memory, --buffer-size SIZE', '-T, --scratch, --temporary-directory DIR', '--stats-json FILE', '--workers N'])
    t.true(help().includes(flag), flag);
  t.false(/\[(string|number|boolean)\]/.test(help().split('Positionals:')[1].split('Examples:')[0]));
});

test('--help wraps at word boundaries to the width: 80 columns when not a terminal', (t) => {
  // Only an unbreakable word may be longer.
  for (const line of help().split('\n')) t.true(line.length <= 80 || !line.trim().includes(' '), line);
});

test('--help lists the exit codes', (t) => {
  t.regex(
    help().replace(/\n\s*/g, ' '),
    /Exit codes: 0 done \(verify: clean\); 1 a count failed, or verify found damage; 2 input that cannot be used .*; 3 verify found no damage, only a count running or stopped before its end/,
  );
});

test("--help says --all-columns prints every column prefix of the board's narrower side", (t) => {
  t.regex(help().replace(/\n\s*/g, ' '), /--all-columns also print L\(w,1\) … L\(w,c\).* w is the board's narrower side/);
});

test("--help's Slurm example says what --launcher slurm does: one job array per pass", (t) => {
  const text = help().replace(/\n\s*/g, ' ');
  t.regex(text, /gocount 15x15 --partitions 8 --launcher slurm --scratch \/shared\/gocount count through Slurm, one job array per pass/);
  t.regex(text, /or slurm \(one job array per pass\)/);
  t.notRegex(text, /job arrays? per step/);
});

test('every command\'s --help gives a default in one form, "(default: …)" in its description', (t) => {
  const others: string[] = [];
  for (const command of HELP_COMMANDS) {
    const text = helps().get(command)!.replace(/\n\s*/g, ' ');
    for (const { index } of text.matchAll(/default/gi))
      if (!/^\(default: \S/.test(text.slice(index - 1))) others.push(`${command || 'count'}: …${text.slice(index - 12, index + 20)}…`);
  }
  t.deepEqual(others, []);
});

test("a command's --help has yargs' -h line", (t) => {
  t.regex(helps().get('verify')!, /^ {2}-h, --help +Show help$/m);
});

test('every option that takes a value has a placeholder naming what it takes', (t) => {
  const missing: string[] = [];
  for (const command of COMMANDS) {
    const built = (command.builder as (y: Argv) => Argv)(yargs());
    const { key, boolean, alias } = (built as unknown as { getOptions(): ParsedOptions }).getOptions();
    const aliases = new Set(Object.values(alias).flat());
    const positionals = new Set([...String(command.command).matchAll(/[<[]([\w-]+)/g)].map((match) => match[1]));
    for (const name of Object.keys(key)) {
      const takesValue = !boolean.includes(name) && !aliases.has(name) && !positionals.has(name) && !['help', 'version'].includes(name);
      if (takesValue && !(name in PLACEHOLDERS)) missing.push(`${String(command.command).split(' ')[0]} --${name}`);
    }
  }
  t.deepEqual(missing, []);
});

test("the toolkit's help: placeholders in one column of descriptions, positionals without tags", (t) => {
  /** The column where each option's description starts. */
  const columns = (help: string) =>
    new Set(help.split('\n').flatMap((line) => (/^ {2}(?:-\w, | {4})--/.test(line) ? [/^.*?\S {2,}(?=\S)/.exec(line)![0].length] : [])));
  const solve = helps().get('solve')!;
  for (const flag of [
    '--rule RULE',
    '--scoring SCORING',
    '--db FILE',
    '--position POSITION',
    '--to-move COLOUR',
    '--memory SIZE',
    '--scratch DIR',
    '--ko POINT',
  ])
    t.regex(solve, new RegExp(`^ {6}${flag} {2,}\\S`, 'm'), flag);
  t.regex(solve, /^ {2}size {2}board size as MxN or M N$/m);
  t.deepEqual([...columns(solve)], [27]);
  const estimate = helps().get('estimate')!;
  t.regex(estimate, /^Positionals:\n {2}size {2}board size as MxN or M N\n\nOptions:\n/m);
  t.regex(estimate, /^ {6}--digits N {2}significant digits of the estimate \(default: 14\)$/m);
  t.deepEqual([...columns(estimate)], [18]);
  const recurrence = helps().get('recurrence')!;
  t.regex(recurrence, /^ {6}--coefficients FILE {2}write the coefficients to FILE/m);
  t.deepEqual([...columns(recurrence)], [27]);
  t.notRegex(`${solve}${estimate}${recurrence}`, /VALUE|\[(array|string|required)\]|\[default: \[\]\]/);
});

test('--all-columns --residues --json: every column prefix and the residues, exact', (t) => {
  const run = runCli([
    '3x4',
    '--all-columns',
    '--residues',
    '--json',
    '--quiet',
    '--memory',
    '300K',
    '--fan-in',
    '2',
    '--workers',
    '2',
    '--scratch',
    tempScratch(t),
  ]);
  t.is(run.status, 0);
  const out = JSON.parse(run.stdout);
  t.deepEqual(
    out.columns.map((c: { legal: string }) => c.legal),
    ['15', '489', '12675', '321689'],
  );
  t.is(out.legal, '321689');
  t.is(out.residues.length, 1);
  t.is(out.residues[0].residue, 321689);
});

test('plain --all-columns and --residues lines', (t) => {
  const run = runCli(['2x3', '--all-columns', '--residues', '--scratch', tempScratch(t)]);
  t.is(run.status, 0);
  t.is(run.stdout, '2x1 5\n2x2 57\n2x3 489\nmod 4294967291: 489\n');
});

test('--stats prints per-step figures and totals on stderr', (t) => {
  const run = runCli(['4x4', '--stats', '--scratch', tempScratch(t)]);
  t.is(run.status, 0);
  t.is(run.stdout, '24318165\n');
  t.regex(run.stderr, /pass +step +col +y +states/);
  t.regex(run.stderr, /states expanded .* redundancy .* peak RSS/);
});

test('a count of 1 takes the singular: 1 point, 1 column, 1 step, 1 worker, 1 state, 1 run, 1 node, 1 game, 1 byte', (t) => {
  t.deepEqual(
    [
      counted(1, 'point'),
      counted(0, 'point'),
      counted(2n, 'game'),
      counted(1n, 'game'),
      counted(1, 'modulus', 'moduli'),
      counted(5, 'modulus', 'moduli'),
    ],
    ['1 point', '0 points', '2 games', '1 game', '1 modulus', '5 moduli'],
  );
  const one = formatPlan(planCount({ m: 1, n: 1, workers: 1, memory: '64M' }));
  t.regex(one, /^board {5}1x1, swept 1 point wide over 1 column: 1 step a pass\nmemory {4}64 MiB for 1 worker \(/);
  const more = formatPlan(planCount({ m: 2, n: 3, workers: 2, memory: '64M' }));
  t.regex(more, /^board {5}2x3, swept 2 points wide over 3 columns: 6 steps a pass\nmemory {4}64 MiB for 2 workers \(/);
  const stats = {
    seconds: 0.1,
    statesExpanded: 1,
    statesPerSecond: 10,
    maxStates: 1,
    runsWritten: 1,
    bytesWritten: 100,
    redundancy: 1,
    peakRss: 2 ** 26,
    userSeconds: 0.1,
    systemSeconds: 0,
    nsPerState: { read: 0, expand: 1, aggregate: 0, sort: 0, write: 0, drain: 0 },
    probesPerSuccessor: 0,
  };
  t.regex(formatSummary(stats), / · 1 state expanded \(10\/s\) · largest step 1 state · 1 run, 100 B written · /);
  const games = runCli(['games', '1x1']);
  t.is(
    games.stdout.replace(/\n[\d.]+ s\n$/, ''),
    'G(1,1): 1 node (the legal positions), 0 edges (moves of either colour, captures and multi-stone suicides included)\n' +
      'average outdegree 0.000\n' +
      '1 game: simple paths from the empty position under positional superko (0 of 0 first moves searched, the rest by symmetry)',
  );
  const file = path.join(tempScratch(t), 'run-00001.run');
  writeFileSync(file, 'G');
  t.deepEqual(
    verifyPath(file).problems.map((problem) => problem.problem),
    ['too short for a run file header (1 byte)'],
  );
});

test("--oracle refuses the engine's flags instead of ignoring them", (t) => {
  const run = runCli(['3x3', '--oracle', '--stats', '--workers', '2', '--fan-in', '8']);
  t.is(run.status, 2);
  t.is(run.stderr, 'gocount: --oracle counts in memory without the engine: --fan-in, --workers, --stats do not apply to it\n');
  t.is(
    runCli(['3x3', '--oracle', '--memory', '1G']).stderr,
    'gocount: --oracle counts in memory without the engine: --memory does not apply to it\n',
  );
  const json = runCli(['3x3', '--oracle', '--json', '--quiet']);
  t.is(json.status, 0);
  t.is(json.stdout, '{"m":3,"n":3,"legal":"12675"}\n');
});

test("--oracle --plan is refused: the plan is the engine's, and --oracle has none", (t) => {
  const run = runCli(['13x13', '--oracle', '--plan']);
  t.is(run.status, 2);
  t.is(run.stdout, '');
  t.is(run.stderr, 'gocount: --oracle counts in memory without the engine: --plan does not apply to it\n');
  t.is(
    runCli(['3x3', '--oracle', '--plan', '--cores', '4', '--json']).stderr,
    'gocount: --oracle counts in memory without the engine: --plan, --cores do not apply to it\n',
  );
  // --disk is refused as the engine's too, before any disk plan is made for it.
  t.is(
    runCli(['3x3', '--oracle', '--disk', '1K']).stderr,
    'gocount: --oracle counts in memory without the engine: --disk does not apply to it\n',
  );
});

test('--oracle counts with the in-memory BigInt counter', (t) => {
  const run = runCli(['6x6', '--oracle']);
  t.is(run.status, 0);
  t.is(run.stdout, '62567386502084877\n');
});

test('--oracle refuses at once a board whose steps outgrow its Map (width 13 and more); a sweep 13 wide and 1 long is counted', (t) => {
  // runCli kills the command after 60 s: filling the Map first took minutes at 13x13.
  const run = runCli(['13x13', '--oracle']);
  t.is(run.status, 2); // a board the counter cannot take is input it cannot use
  t.is(run.stderr, 'gocount: width 13 needs more states than the in-memory counter can hold (about 16 million per step)\n');
  t.is(runCli(['13x1', '--oracle', '--keep-orientation']).stdout, '391049\n'); // L(1,13), as the engine counts 1x13
});

const badSizes: Array<[string[], RegExp]> = [
  [['0x3'], /board size "0x3": m = "0" is not a positive integer/],
  [['3x-2'], /n = "-2" is not a positive integer/],
  [['2.5x3'], /m = "2.5" is not a positive integer/],
  [['abc'], /"abc" is neither a command nor a board size/],
  [['3x3x3'], /board size "3x3x3" is not of the form MxN/],
  [['3', '3', '3'], /board size "3 3 3" is not of the form MxN/],
  [['--', '-1', '5'], /m = "-1" is not a positive integer/],
  [['20x20'], /the narrower side is 20, above the widest state gocount handles \(19\)/],
  [['20x1', '--keep-orientation'], /the height m is 20, above the widest state gocount handles \(19\)/],
  [['3x3', '--frobnicate'], /^gocount: unknown option "--frobnicate" \(see gocount --help\)$/m],
  [['3x3', '--memory', '12Q'], /--memory 12Q: not a size/],
  [['3x3', '--memory', '10K'], /--memory 10 KiB: too small,( split over \d+ workers,)? for .* give at least/],
  [['3x3', '--memory', '10K', '--workers', '1'], /--memory 10 KiB: too small, for 1 residue with a fan-in of 64: give at least/],
  [['3x3', '--workers', '0'], /--workers 0: must be an integer from 1 to 256/],
  [['3x3', '--workers', '1.5'], /^gocount: --workers 1\.5: not a whole number$/m],
  [['3x3', '--workers', '257'], /--workers 257: must be an integer from 1 to 256/],
  [['3x3', '--fan-in', '1'], /--fan-in 1: must be an integer of at least 2/],
  [['3x3', '--window-rows', '0'], /^gocount: --window-rows 0: must be an integer from 1 to 2, one less than the sweep's width$/m],
  [['9x9', '--window-rows', '9'], /^gocount: --window-rows 9: must be an integer from 1 to 8, one less than the sweep's width$/m],
  [['3x3', '--window-rows', 'two'], /^gocount: --window-rows two: not a number$/m],
  [['3x3', '--residues-per-pass', '0'], /--residues-per-pass 0: must be an integer from 1 to 64/],
  [['3x3', '--residues-per-pass', '65'], /--residues-per-pass 65: must be an integer from 1 to 64/],
  [['3x3', '--table-memory', '32K'], /^gocount: --table-memory 32K: must be from 64 KiB to 3\.5 GiB$/m],
  [['2x70000'], /board 2x70000: 70000 columns, above the most a run file records \(65535\)/],
  [['-3x3'], /^gocount: board size "-3x3": m = "-3" is not a positive integer$/m],
  [['99999999999999999999x3'], /m = 99999999999999999999 is too large/],
  [['9x9', '--memory', '4M', '--disk', '1K'], /--disk 1.0 KiB: less than the .* of disk this count may need/],
  [['3x3', '--scratch', '/etc/hostname/inside'], /scratch folder .*: \/etc\/hostname is a file, not a folder/],
];

testRefusals(badSizes);
