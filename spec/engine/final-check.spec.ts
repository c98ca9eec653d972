import test from 'ava';
import { ASYMPTOTIC_CONSTANTS, relativeError } from '../../lib/count/asymptotic.js';
import { checkFinalCount } from '../../lib/count/final-check.js';
import { GocountError } from '../../lib/shared/errors.js';
import { paper } from '../support/paper.js';

test("the asymptotic constants are the paper's", (t) => {
  for (const name of ['A', 'B', 'L'] as const) t.is(ASYMPTOTIC_CONSTANTS[name] as number, Number(paper.asymptotic[name]), name);
});

test('every exact count of Tables 3 and 5 from 5×5 up passes the final check, well within 1%', (t) => {
  let checked = 0;
  for (const [table, extra] of [
    [paper.legalSquare.values, 0],
    [paper.legalAlmostSquare.values, 1],
  ] as const) {
    for (const [n, value] of Object.entries(table)) {
      const m = Number(n);
      if (m < 5) continue;
      const count = BigInt(value);
      t.notThrows(() => checkFinalCount(m, m + extra, count));
      t.true(Math.abs(relativeError(count, m, m + extra)) < 1e-4);
      checked++;
    }
  }
  t.is(checked, 30); // 5×5 … 19×19 and 5×6 … 19×20
});

test("a count 2% off the formula, one at or above the moduli's product, or not positive is refused with exit 1", (t) => {
  const l99 = BigInt(paper.legalSquare.values['9']);
  const off = t.throws(() => checkFinalCount(9, 9, (l99 * 102n) / 100n), { instanceOf: GocountError });
  t.is(off.exitCode, 1);
  t.regex(
    off.message,
    /^the count for 9x9 \(\d+\) is 2\.00% off the asymptotic formula A·B\^\(m\+n\)·L\^\(mn\), more than 1%: not trusted, not printed$/,
  );
  t.throws(() => checkFinalCount(9, 9, l99, l99), { message: /not below the product of its moduli/ });
  t.throws(() => checkFinalCount(3, 3, 0n), { message: /came out as 0/ });
  // Below 5×5 the formula is not close enough to judge: only the product bound applies.
  t.notThrows(() => checkFinalCount(4, 9, 5n));
});
