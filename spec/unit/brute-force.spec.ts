import test from 'ava';
import { bitboard, bruteForceLegal, isLegalPosition } from '../support/brute-force.js';
import { countInMemory } from '../../lib/count/in-memory.js';

// The oracle itself, on positions checked by hand. Points are numbered row by row.
test('brute-force oracle judges hand-checked 2×2 and 3×3 positions', (t) => {
  const b2 = bitboard(2, 2); // 0 1 / 2 3
  t.true(isLegalPosition(b2, 0b0001, 0)); // one black stone
  t.false(isLegalPosition(b2, 0b0111, 0b1000)); // four stones: no liberty anywhere
  t.false(isLegalPosition(b2, 0b0001, 0b0110)); // black corner stone between two white stones
  t.true(isLegalPosition(b2, 0b0011, 0b0100)); // black pair breathes at 3, white at 3
  const b3 = bitboard(3, 3); // 0 1 2 / 3 4 5 / 6 7 8
  t.false(isLegalPosition(b3, 1 << 4, 0b010_101_010)); // black centre surrounded by four white stones
  t.true(isLegalPosition(b3, 0b000_111_000, 0b001_000_000)); // black row breathes upwards, white at 6 sideways
  t.false(isLegalPosition(b3, 0b000_111_000, 0b111_000_000)); // white bottom row has no liberty
  t.false(isLegalPosition(b3, 0b000_111_000, 0b111_000_111)); // black row surrounded
});

test("brute force gives the paper's L(2,2) = 57 and L(1,n) = 1, 5, 15, 41", (t) => {
  t.is(bruteForceLegal(2, 2), 57);
  t.deepEqual(
    [1, 2, 3, 4].map((n) => bruteForceLegal(1, n)),
    [1, 5, 15, 41],
  );
});

// Every board of at most 16 points, each in both orientations of the counter's sweep.
const boards: Array<[number, number]> = [];
for (let m = 1; m <= 16; m++) for (let n = m; m * n <= 16; n++) boards.push([m, n]);

for (const [m, n] of boards) {
  test(`counter agrees with brute force on ${m}×${n}`, (t) => {
    const expected = BigInt(bruteForceLegal(m, n));
    t.is(countInMemory({ width: m, columns: n }), expected);
    t.is(countInMemory({ width: n, columns: m }), expected);
  });
}
