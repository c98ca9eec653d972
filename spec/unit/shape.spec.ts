import test from 'ava';
import { parseBoard, sweepOf } from '../../lib/board/shape.js';
import { UsageError } from '../../lib/shared/errors.js';

test('board sizes: MxN, M×N and M N', (t) => {
  t.deepEqual(parseBoard(['9x9']), { m: 9, n: 9 });
  t.deepEqual(parseBoard(['3×7']), { m: 3, n: 7 });
  t.deepEqual(parseBoard(['13X2']), { m: 13, n: 2 });
  t.deepEqual(parseBoard(['4', '6']), { m: 4, n: 6 });
  t.deepEqual(parseBoard([4, 6]), { m: 4, n: 6 });
});

test('bad sizes are usage errors (exit code 2)', (t) => {
  for (const words of [['0x1'], ['x'], [''], ['1x2x3'], ['1e2x3'], ['99999999999999999999x1'], ['a', 'b']]) {
    const error = t.throws(() => parseBoard(words), { instanceOf: UsageError });
    t.is(error?.exitCode, 2);
  }
});

test('widths above 19 are refused on the side that would be the width', (t) => {
  t.notThrows(() => sweepOf({ m: 19, n: 400 }));
  t.notThrows(() => sweepOf({ m: 400, n: 19 }));
  t.throws(() => sweepOf({ m: 400, n: 19 }, true), { instanceOf: UsageError });
  t.throws(() => sweepOf({ m: 20, n: 21 }), { instanceOf: UsageError });
});
