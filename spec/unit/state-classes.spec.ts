import test from 'ava';
import { distinctStatesByColumn } from '../support/reachable.js';
import { paper } from '../support/paper.js';

function assertGrowsAndSettles(t: import('ava').ExecutionContext, counts: number[], settled: number): void {
  for (let k = 1; k < counts.length; k++) t.true(counts[k] >= counts[k - 1], `column ${k + 1}: ${counts[k]} < ${counts[k - 1]}`);
  t.is(counts[counts.length - 1], settled);
}

test("width 1: the 0-state classes settle at Table 1's 3 valid classes", (t) => {
  const counts = distinctStatesByColumn(1, 6);
  t.deepEqual(counts, [2, 3, 3, 3, 3, 3]);
  t.is(paper.validBorderStateClasses.byHeight['1'].y0, 3);
});

test("width 2: the 0-state classes settle at Table 1's 9 valid classes", (t) => {
  const counts = distinctStatesByColumn(2, 8);
  assertGrowsAndSettles(t, counts, paper.validBorderStateClasses.byHeight['2'].y0);
});

test("width 3: 31 constructible classes, the 32 valid ones less Figure 6(a)'s", (t) => {
  const counts = distinctStatesByColumn(3, 10);
  assertGrowsAndSettles(t, counts, paper.validBorderStateClasses.byHeight['3'].y0 - 1);
});

test('width 9: 109736 − 337 = 109399 constructible classes, reached by 20 columns', (t) => {
  const counts = distinctStatesByColumn(9, 20);
  assertGrowsAndSettles(t, counts, paper.validBorderStateClasses.byHeight['9'].y0 - 337);
});
