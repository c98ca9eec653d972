import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { countInMemoryByColumn } from '../../lib/count/in-memory.js';
import { paper, paperTablesPath } from '../support/paper.js';
import { sharedReference } from '../support/paths.js';

// CI clones beside ../shared; a clone elsewhere skips this check visibly rather than failing.
(existsSync(sharedReference) ? test : test.skip)('the fixture is an exact copy of the shared reference tables', (t) => {
  t.is(readFileSync(paperTablesPath, 'utf8'), readFileSync(sharedReference, 'utf8'));
});

test('L(1,n) for n ≤ 10 (§5.4.1), from one sweep', (t) => {
  t.deepEqual(countInMemoryByColumn({ width: 1, columns: 10 }), paper.legal1xn.values.map(BigInt));
});

test("L(2,n) for n ≤ 7 (§5.4.2), from one sweep, L(2,7) by the paper's recurrence", (t) => {
  const row = [1n, ...countInMemoryByColumn({ width: 2, columns: 7 })]; // the paper's list starts at L(2,0) = 1
  t.deepEqual(row.slice(0, 7), paper.legal2xn.values.map(BigInt));
  const L = (k: number) => row[k];
  t.is(L(7), 10n * L(6) - 16n * L(5) + 31n * L(4) - 13n * L(3) + 20n * L(2) + 2n * L(1) - L(0));
});

// One sweep n wide and n+1 long gives L(n,n) (Table 3) and L(n,n+1) (Table 5).
for (let n = 1; n <= 7; n++) {
  test(`L(${n},${n})${n <= 6 ? ` and L(${n},${n + 1})` : ''} (Tables 3 and 5)`, (t) => {
    const columns = n <= 6 ? n + 1 : n;
    const row = countInMemoryByColumn({ width: n, columns });
    t.is(row[n - 1], BigInt(paper.legalSquare.values[n]));
    if (n <= 6) t.is(row[n], BigInt(paper.legalAlmostSquare.values[n]));
  });
}
