import test from 'ava';
import { countInMemory } from '../../lib/count/in-memory.js';
import { parseBoard, sweepOf } from '../../lib/board/shape.js';
import { MAX_WIDTH } from '../../lib/border/layout.js';

test('L(m,n) = L(n,m) through both orientations for all m, n ≤ 5', (t) => {
  for (let m = 1; m <= 5; m++) {
    for (let n = m; n <= 5; n++) {
      t.is(countInMemory({ width: m, columns: n }), countInMemory({ width: n, columns: m }), `${m}×${n}`);
    }
  }
});

test('19×1 swept 19 wide (57-bit states) equals 1×19 swept 1 wide', (t) => {
  const wide = sweepOf(parseBoard(['19x1']), true);
  const narrow = sweepOf(parseBoard(['1x19']), true);
  t.deepEqual(wide, { width: MAX_WIDTH, columns: 1 });
  t.deepEqual(narrow, { width: 1, columns: 19 });
  const expected = countInMemory(narrow);
  t.is(expected, 176377839n); // L(1,19) from the recurrence L(1,k+3) = 3L(1,k+2) − L(1,k+1) + L(1,k)
  t.is(countInMemory(wide), expected);
});

test('18×1 and 12×2 swept wide (states using the high word) equal their narrow sweeps', (t) => {
  t.is(countInMemory({ width: 18, columns: 1 }), countInMemory({ width: 1, columns: 18 }));
  t.is(countInMemory({ width: 12, columns: 2 }), countInMemory({ width: 2, columns: 12 }));
});

test('by default the narrower side is the width', (t) => {
  t.deepEqual(sweepOf(parseBoard(['19x1'])), { width: 1, columns: 19 });
  t.deepEqual(sweepOf(parseBoard(['3', '7'])), { width: 3, columns: 7 });
  t.deepEqual(sweepOf(parseBoard(['7×3'])), { width: 3, columns: 7 });
});
