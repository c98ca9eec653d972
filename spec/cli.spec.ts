import test from 'ava';
import { runCli } from './support/run-cli.js';

test('gocount 3x3 prints the exact count and exits 0', (t) => {
  const run = runCli(['3x3']);
  t.is(run.status, 0);
  t.is(run.stdout, '12675\n');
  t.is(run.stderr, '');
});

test('gocount 4 5 takes the size as two numbers', (t) => {
  const run = runCli(['4', '5']);
  t.is(run.status, 0);
  t.is(run.stdout, '1840058693\n'); // L(4,5), Table 5
});

test('--json prints m, n as given and the count as a string', (t) => {
  const run = runCli(['5x2', '--json']);
  t.is(run.status, 0);
  t.deepEqual(JSON.parse(run.stdout), { m: 5, n: 2, legal: '35117' }); // L(2,5)
});

test('--keep-orientation sweeps 19 wide and gives the same count', (t) => {
  const wide = runCli(['19x1', '--keep-orientation']);
  t.is(wide.status, 0);
  t.is(wide.stdout, '176377839\n');
});

test('--help describes every option', (t) => {
  const run = runCli(['--help']);
  t.is(run.status, 0);
  for (const option of ['--json', '--keep-orientation', '--help', '--version', 'MxN']) t.true(run.stdout.includes(option), option);
});

const badSizes: Array<[string[], RegExp]> = [
  [['0x3'], /board size "0x3": m = "0" is not a positive integer/],
  [['3x-2'], /n = "-2" is not a positive integer/],
  [['2.5x3'], /m = "2.5" is not a positive integer/],
  [['abc'], /board size "abc" is not of the form MxN/],
  [['3x3x3'], /board size "3x3x3" is not of the form MxN/],
  [['3', '3', '3'], /board size "3 3 3" is not of the form MxN/],
  [['--', '-1', '5'], /m = "-1" is not a positive integer/],
  [['20x20'], /the narrower side is 20, above the widest state gocount handles \(19\)/],
  [['20x1', '--keep-orientation'], /the height m is 20, above the widest state gocount handles \(19\)/],
  [['3x3', '--frobnicate'], /Unknown argument: frobnicate/],
];

for (const [args, message] of badSizes) {
  test(`bad input ${JSON.stringify(args)}: one clear line, exit code 2`, (t) => {
    const run = runCli(args);
    t.is(run.status, 2);
    t.is(run.stdout, '');
    t.regex(run.stderr, message);
    t.regex(run.stderr, /^gocount: [^\n]+\n$/);
  });
}
