import test from 'ava';
import { ownerOf, ownerShift } from '../../lib/border/ownership.js';

test('ownership splits states about evenly, is stable, and leaves out the low fields of ownerShift', (t) => {
  // Bits left out, by width: one field up to width 8, then one more a column, four from width 11 on.
  for (const [width, shift] of [
    [3, 3],
    [9, 6],
    [11, 12],
    [19, 12],
  ]) {
    t.is(ownerShift(width), shift);
    let ones = 0;
    for (let i = 0; i < 10000; i++) {
      const hi = i >>> 3;
      const lo = (i * 2654435761) >>> 2;
      const owner = ownerOf(hi, lo, 2, width);
      t.is(owner, ownerOf(hi, lo, 2, width));
      // Any change below the shift keeps the owner.
      t.is(ownerOf(hi, (lo ^ ((i * 40503) & ((1 << shift) - 1))) >>> 0, 2, width), owner);
      ones += owner;
    }
    t.true(ones > 4500 && ones < 5500, `${ones} of 10000 at width ${width}`);
    const counts = [0, 0, 0];
    for (let i = 0; i < 9000; i++) counts[ownerOf(i, (i * 2654435761) >>> 2, 3, width)]++;
    t.true(
      counts.every((n) => n > 2700 && n < 3300),
      `${counts.join(', ')} of 9000 over three workers at width ${width}`,
    );
  }
  t.is(ownerOf(123, 456, 1, 11), 0);
});
