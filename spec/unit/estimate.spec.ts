import test, { type ExecutionContext } from 'ava';
import { countInMemory } from '../../lib/count/in-memory.js';
import { LEGAL_ALMOST_SQUARE, LEGAL_SQUARE } from '../../lib/paper/published-counts.js';
import { BigDecimal, toFixed, toScientific } from '../../lib/paper/estimate/big-decimal.js';
import { asymptoticConstants } from '../../lib/paper/estimate/constants.js';
import { estimateBoard } from '../../lib/paper/estimate/estimate-board.js';
import { paper } from '../support/paper.js';
import { runCli } from '../support/run-cli.js';
import { testRefusals } from '../support/refusals.js';

/** x rounded half up to `places` decimals, for values below 10. */
function rounded(x: BigDecimal, places: number): string {
  const digits = ((BigInt(toFixed(x, places + 1).replace('.', '')) + 5n) / 10n).toString().padStart(places + 1, '0');
  return `${digits[0]}.${digits.slice(1)}`;
}

test("the published counts built into the library are the paper's Tables 3 and 5", (t) => {
  t.deepEqual(LEGAL_SQUARE, Object.values(paper.legalSquare.values));
  t.deepEqual(LEGAL_ALMOST_SQUARE, Object.values(paper.legalAlmostSquare.values));
});

test("A, B and L computed from L(18,18), L(18,19), L(19,19) are the paper's, to every digit it gives (§5.11)", (t) => {
  const { A, B, L } = asymptoticConstants();
  for (const [name, value] of [
    ['A', A],
    ['B', B],
    ['L', L],
  ] as const) {
    const given = paper.asymptotic[name];
    t.is(rounded(value, given.length - 2), given, name);
  }
});

test('Table 6: L(n,n)·L(n+1,n+1)/L(n,n+1)² for n = 1 … 18, to every digit printed', (t) => {
  const table6 = [
    '2.28',
    '3.0',
    '2.979',
    '2.9756',
    '2.975732',
    '2.9757343',
    '2.9757341927',
    '2.9757341918',
    '2.975734192044',
    '2.975734192044',
    '2.975734192043350',
    '2.975734192043355',
    '2.97573419204335727',
    '2.975734192043357255',
    '2.97573419204335724932',
    // n = 16 lost a digit in print ("…249362"); the older draft of the paper has …2493662.
    '2.9757341920433572493662',
    '2.9757341920433572493811',
    '2.97573419204335724938097',
  ];
  table6.forEach((printed, i) => t.is(rounded(asymptoticConstants(i + 1).L, printed.length - 2), printed, `n = ${i + 1}`));
});

test("Table 4: the formula gives each estimate's power of ten, and its mantissa to within a unit of the last digit given", (t) => {
  // n, mantissa, exponent: the paper's Table 4 (Heuristic Sampling estimates of L(n,n)).
  const table4: [number, string, number][] = [
    [18, '6.6', 152],
    [19, '2.082', 170],
    [29, '2.2', 397],
    [39, '1.2', 719],
    [49, '3.5', 1135],
    [59, '5', 1646],
    [69, '4', 2252],
    [79, '2', 2953],
    [89, '4', 3748],
    [99, '4', 4638],
  ];
  for (const [n, mantissa, exponent] of table4) {
    const digits = mantissa.replace('.', '').length;
    const [ours, ourExponent] = toScientific(estimateBoard(n, n).estimate, digits).split('e');
    t.is(Number(ourExponent), exponent, `${n}×${n}`);
    const unit = 10 ** -(digits - 1);
    t.true(Math.abs(Number(ours) - Number(mantissa)) <= unit + 1e-9, `${n}×${n}: ${ours} against ${mantissa}`);
  }
  t.is(toScientific(estimateBoard(99, 99).estimate, 1), '4e4638');
  t.is(toScientific(estimateBoard(19, 19).estimate, 14), '2.0816819938198e170');
});

test('relative errors against exact counts: paper, computed for narrow boards, none for unknown ones', (t) => {
  const five = estimateBoard(5, 5);
  t.is(five.exactSource, 'paper');
  t.is(five.relativeError!.toPrecision(3), '-0.0000696');
  const narrow = estimateBoard(30, 4);
  t.is(narrow.exactSource, 'computed');
  t.is(narrow.exact, 175208364363052434126830638319325102684876429493285439633n);
  t.is(narrow.exact, countInMemory({ width: 4, columns: 30 })); // the in-memory counter agrees
  t.is(narrow.relativeError!.toPrecision(3), '-0.000919');
  t.is(estimateBoard(40, 40).exact, undefined);
});

test('a board the constants were fitted on has no relative error, but one from constants that do not use it', (t) => {
  // Fitted at n = 18, the formula is exact at 18×18, 18×19 and 19×19: an error there would be 0 but for rounding.
  t.like(estimateBoard(19, 19), { fitted: true, relativeError: undefined, holdout: { from: 17 } });
  t.is(estimateBoard(19, 19).holdout!.relativeError.toPrecision(3), '1.20e-16');
  t.like(estimateBoard(19, 18), { fitted: true, holdout: { from: 17 } });
  t.like(estimateBoard(18, 18), { fitted: true, holdout: { from: 16 } }); // n = 17 uses L(18,18) too
  t.is(estimateBoard(18, 18).holdout!.relativeError.toPrecision(3), '3.98e-16');
  t.like(estimateBoard(17, 18), { fitted: false, holdout: undefined });
  t.like(estimateBoard(5, 5, 5), { fitted: true, holdout: { from: 3 } });
  t.like(estimateBoard(2, 2, 2), { fitted: true, holdout: undefined }); // n = 1 uses L(2,2) as well
});

test('gocount estimate prints the estimate, the exact count and the error', (t) => {
  const run = runCli(['estimate', '5x5']);
  t.is(run.status, 0);
  t.deepEqual(run.stdout.split('\n').slice(0, 3), [
    'L(5,5) ≈ 4.1426631599967·10^11 ≈ 4.889·10^-1·3^25',
    "exact       414295148741 (the paper's Tables 3 and 5)",
    'relative error of the estimate -6.96e-5',
  ]);
});

/** What `gocount estimate BOARD` prints after the estimate and the exact count, and its --json. */
function estimateOutput(
  t: ExecutionContext,
  board: string,
): { lines: string[]; json: Record<string, unknown> & { relativeError?: number } } {
  const run = runCli(['estimate', board]);
  t.is(run.status, 0);
  return { lines: run.stdout.split('\n').slice(2), json: JSON.parse(runCli(['estimate', board, '--json']).stdout) };
}

test('gocount estimate on a board the constants were fitted on says so, and gives the error from constants that do not use it', (t) => {
  const { lines, json } = estimateOutput(t, '19x19');
  t.deepEqual(lines, [
    "fitted on L(18,18), L(18,19), L(19,19): this board's value is one of them, so the comparison shows nothing",
    'relative error with A, B, L from L(17,17), L(17,18), L(18,18) instead, which do not use it: 1.20e-16',
    'A = 0.8506399258457144551931  B = 0.9655350593383738726040  L = 2.9757341920433572493809  (from L(18,18), L(18,19), L(19,19))',
    '',
  ]);
  t.like(json, { fitted: true, holdout: { from: 17 } });
  t.is(json.relativeError, undefined);
});

test('gocount estimate on a board next to the fitted ones compares it with its exact count', (t) => {
  const { lines, json } = estimateOutput(t, '17x18');
  t.deepEqual(lines, [
    'relative error of the estimate 6.01e-17',
    'A = 0.8506399258457144551931  B = 0.9655350593383738726040  L = 2.9757341920433572493809  (from L(18,18), L(18,19), L(19,19))',
    '',
  ]);
  t.like(json, { fitted: false, holdout: undefined });
  t.is(json.relativeError?.toPrecision(3), '6.01e-17');
});

test('gocount estimate --json gives the estimate, and no exact count where none is known', (t) => {
  const json = JSON.parse(runCli(['estimate', '99', '99', '--json', '--digits', '3']).stdout);
  t.like(json, { m: 99, n: 99, estimate: '4.07e4638', constants: { from: 18 } });
  t.is(json.exact, undefined);
});

testRefusals([
  [['estimate', '0x5'], /m = "0" is not a positive integer/],
  [['estimate', '5x5', '--from', '19'], /--from 19: must be a whole number from 1 to 18/],
  [['estimate', '5000x5000'], /estimate handles boards of up to 10000000 points/],
]);
