import test from 'ava';
import { berlekampMassey } from '../../lib/paper/recurrence/berlekamp-massey.js';
import { buildColumnTransfer, exactTerms, termsModulo } from '../../lib/paper/recurrence/column-transfer.js';
import { recurrenceOf } from '../../lib/paper/recurrence/recurrence-report.js';
import { UsageError } from '../../lib/shared/errors.js';
import { paper } from '../support/paper.js';
import { runCli } from '../support/run-cli.js';

interface Table2Row {
  m: number;
  order: number;
  a: string;
  lambdaRoot: string;
}
const table2 = (paper as unknown as { recurrences: { rows: Table2Row[] } }).recurrences.rows;

test('the column transfer gives L(M,n) exactly: Tables 3 and 5, and L(1,n), L(2,n)', (t) => {
  t.deepEqual(exactTerms(buildColumnTransfer(1), 11).slice(1).map(Number), paper.legal1xn.values);
  t.deepEqual(exactTerms(buildColumnTransfer(2), 7).map(Number), paper.legal2xn.values); // n = 0 … 6
  const five = exactTerms(buildColumnTransfer(5), 7);
  t.is(five[5], BigInt(paper.legalSquare.values['5']));
  t.is(five[6], BigInt(paper.legalAlmostSquare.values['5']));
  const p = 67108859;
  t.deepEqual(
    termsModulo(buildColumnTransfer(4), p, 30),
    exactTerms(buildColumnTransfer(4), 30).map((x) => Number(x % BigInt(p))),
  );
});

test('Berlekamp–Massey finds the Fibonacci recurrence, and the shortest one for a sequence that changes rule', (t) => {
  const p = 1000003;
  const fib = [1, 1];
  while (fib.length < 20) fib.push((fib.at(-1)! + fib.at(-2)!) % p);
  t.deepEqual(berlekampMassey(fib, p), [1, 1]);
  t.deepEqual(berlekampMassey([1, 2, 4, 8, 16, 32], p), [2]);
  t.is(berlekampMassey([0, 0, 0, 1], p).length, 4);
});

test('recurrence: the orders 3, 7, 19, 57, 217 and the explicit recurrences for M = 1, 2, 3 (§5.4, Table 2)', (t) => {
  const orders = [1, 2, 3, 4, 5].map((m) => recurrenceOf(m, 25));
  t.deepEqual(
    orders.map((r) => r.coefficients.length),
    table2.slice(0, 5).map((row) => row.order),
  );
  t.deepEqual(orders[0].coefficients, [3n, -1n, 1n]);
  t.deepEqual(orders[1].coefficients, [10n, -16n, 31n, -13n, 20n, 2n, -1n]);
  t.deepEqual(orders[2].coefficients, [
    33n,
    -233n,
    1171n,
    -3750n,
    9426n,
    -16646n,
    22072n,
    -19993n,
    9083n,
    1766n,
    -4020n,
    6018n,
    -2490n,
    -5352n,
    1014n,
    -1402n,
    100n,
    73n,
    -5n,
  ]);
  // λ and a: the paper's λ^(1/M) is printed from double precision and its a_M's last digits are off
  // by about 2·10^−19 (M = 1 is settled below by an independent method), so allow for that.
  for (const [i, r] of orders.entries()) {
    const row = table2[i];
    t.true(Math.abs(Number(r.lambdaRoot) / Number(row.lambdaRoot) - 1) < 1e-15, `λ root, M = ${row.m}`);
    t.is(r.a.slice(0, 19), row.a.slice(0, 19), `a, M = ${row.m}`);
    t.true(Math.abs(Number(`0.${r.a.slice(19)}`) - Number(`0.${row.a.slice(19)}`)) * 1e-17 < 1e-18, `a's last digits, M = ${row.m}`);
  }
});

test('λ_1 and a_1 to 25 digits agree with an independent computation: L(1,n+1)/L(1,n) and L(1,n)/λ^n at n = 120', (t) => {
  const r = recurrenceOf(1, 25);
  const terms = exactTerms(buildColumnTransfer(1), 122);
  const scale = 10n ** 25n;
  const ratio = (terms[121] * scale) / terms[120];
  t.is(r.lambda, `${ratio / scale}.${(ratio % scale).toString().padStart(25, '0')}`);
  t.is(r.lambda, '2.7692923542386314152404094');
  // a = L(1,120) / λ^120, with λ to 60 digits from the recurrence itself.
  const wide = recurrenceOf(1, 60);
  const big = 10n ** 60n;
  const lambda = BigInt(wide.lambda.replace('.', ''));
  let power = big;
  for (let n = 0; n < 120; n++) power = (power * lambda) / big;
  const a = (terms[120] * big * 10n ** 25n) / power;
  t.is(r.a, `0.${a.toString().padStart(25, '0')}`);
});

test('gocount recurrence 2 prints the recurrence, λ_2 and a_2', (t) => {
  const run = runCli(['recurrence', '2', '--digits', '15']);
  t.is(run.status, 0);
  const lines = run.stdout.split('\n');
  t.is(lines[0], 'L(2,n) has a minimal linear recurrence of order 7 (the column transfer has 10 border states)');
  t.is(lines[2], 'L(2,n) = 10·L(2,n−1) − 16·L(2,n−2) + 31·L(2,n−3) − 13·L(2,n−4) + 20·L(2,n−5) + 2·L(2,n−6) − 1·L(2,n−7)');
  t.is(lines[3], 'λ_2        = 8.533652512071763');
  t.is(lines[4], 'λ_2^(1/2)  = 2.921241604535948');
  t.regex(lines[5], /^a_2 +(= )0\.776059206484432 /);
});

test('gocount recurrence --json gives the coefficients', (t) => {
  const json = JSON.parse(runCli(['recurrence', '3', '--json']).stdout);
  t.is(json.coefficients.length, 19);
  t.is(json.coefficients[0], '33');
});

test('recurrenceOf refuses a height over 6', (t) => {
  t.throws(() => recurrenceOf(7, 10), { instanceOf: UsageError });
});

test('gocount recurrence refuses a height of 0 with exit code 2', (t) => {
  const bad = runCli(['recurrence', '0']);
  t.is(bad.status, 2);
  t.regex(bad.stderr, /^gocount: height 0: recurrence handles heights 1 to 6/);
});
