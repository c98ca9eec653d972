import test from 'ava';
import { largestPrimes } from '../../lib/residues/moduli.js';
import { MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { Expander } from '../../lib/border/expander.js';
import { HIGH_UNIT } from '../../lib/border/layout.js';
import { countBound, liftResidues, moduliAt, mulMod, ResidueExtender, residuesAt } from '../../lib/residues/growth.js';
import { replayableRandom } from '../support/random.js';

const moduli = largestPrimes(9);

const board13 = { width: 13, columns: 13 };

test('the residues a step carries: the fewest leading moduli whose product exceeds what one state may count', (t) => {
  t.is(residuesAt(moduli, 0, board13), 1);
  t.is(residuesAt(moduli, 25, board13), 1); // 2 · 3^12 (12 points off the border) < 2^32 - 5
  t.is(residuesAt(moduli, 26, board13), 2, "a column's end: its legal sum is L(13, 2), up to 3^26");
  t.is(residuesAt(moduli, 27, board13), 1, 'and the next step carries fewer again');
  t.is(residuesAt(moduli, 32, board13), 1); // 2 · 3^19 < 2^32 - 5
  t.is(residuesAt(moduli, 33, board13), 2); // 2 · 3^20 > 2^32
  t.is(residuesAt(moduli, 168, board13), 9, 'the last column forgets fields, and its states count more');
  t.is(residuesAt(moduli, 169, board13), 9);
  t.is(residuesAt(moduli, 121, { width: 11, columns: 11 }), 6); // 11×11 needs 6 in all
  t.is(residuesAt(moduli.slice(0, 2), 500, { width: 10, columns: 50 }), 2, 'never more than the pass has');
  for (const board of [board13, { width: 19, columns: 19 }, { width: 7, columns: 20 }, { width: 5, columns: 1 }]) {
    const { width, columns } = board;
    for (let step = 0; step <= width * columns; step++) {
      const k = residuesAt(moduli, step, board);
      const bound = countBound(step, board);
      const product = moduli.slice(0, k).reduce((p, m) => p * BigInt(m), 1n);
      t.true(product > bound || k === moduli.length);
      if (k > 1) t.true(moduli.slice(0, k - 1).reduce((p, m) => p * BigInt(m), 1n) <= bound, `step ${step}: ${k} is the fewest`);
      t.true(bound <= 3n ** BigInt(step), 'never more than 3^step');
      if (step % width === 0) t.is(bound, 3n ** BigInt(step), "a column's end holds its legal sum");
    }
  }
  t.deepEqual(moduliAt(moduli, 33, board13), moduli.slice(0, 2));
});

test('no state counts more than countBound, by the exact in-memory sweep', (t) => {
  // The boards' widths 1 to 6, one to several columns: a last column that is also the first, and ones after a full border.
  for (const board of [
    { width: 1, columns: 6 },
    { width: 4, columns: 1 },
    { width: 3, columns: 5 },
    { width: 4, columns: 4 },
    { width: 5, columns: 3 },
    { width: 6, columns: 2 },
  ]) {
    const most = mostCountedByStep(board);
    let reached = 0;
    for (let step = 0; step < most.length; step++) {
      const bound = countBound(step, board);
      t.true(most[step] <= bound, `${board.width}×${board.columns}, step ${step}: a state counts ${most[step]}, above ${bound}`);
      if (step % board.width !== 0 && most[step] * 3n > bound) reached++;
    }
    // Width 1 has only columns' ends, bounded by 3^step.
    if (board.width > 1) t.true(reached > 0, `${board.width}×${board.columns}: some state comes within a third of the bound`);
  }
});

/** The most any state counts after each step of the board, from an exact sweep (the in-memory counter's). */
function mostCountedByStep({ width, columns }: { width: number; columns: number }): bigint[] {
  const expander = new Expander(width);
  const out = new Uint32Array(2 * MAX_SUCCESSORS);
  let current = new Map<number, bigint>([[START_HI * HIGH_UNIT + START_LO, 1n]]);
  const most = [1n];
  for (let column = 0; column < columns; column++) {
    for (let y = 0; y < width; y++) {
      const next = new Map<number, bigint>();
      for (const [key, count] of current) {
        const made = expander.expand(Math.floor(key / HIGH_UNIT), key % HIGH_UNIT, y, out, 0, column === columns - 1);
        for (let s = 0; s < made; s++) {
          const child = out[2 * s] * HIGH_UNIT + out[2 * s + 1];
          next.set(child, (next.get(child) ?? 0n) + count);
        }
      }
      current = next;
      most.push([...current.values()].reduce((a, b) => (b > a ? b : a), 0n));
    }
  }
  return most;
}

test('mulMod is exact for residues up to 2^32', (t) => {
  const random = replayableRandom(t, 'mulMod');
  for (let trial = 0; trial < 2000; trial++) {
    const p = moduli[trial % moduli.length];
    const a = Math.floor(random() * p);
    const b = trial === 0 ? p - 1 : Math.floor(random() * p);
    t.is(mulMod(a, b, p), Number((BigInt(a) * BigInt(b)) % BigInt(p)));
  }
});

test('extending residues gives the residues of the count itself, checked against BigInt', (t) => {
  const random = replayableRandom(t, 'extend');
  for (let from = 1; from < moduli.length; from++) {
    const extender = new ResidueExtender(moduli, from, from + 1);
    const product = moduli.slice(0, from).reduce((p, m) => p * BigInt(m), 1n);
    for (let trial = 0; trial < 200; trial++) {
      let count = 0n;
      for (let w = 0; w < from; w++) count = count * 2n ** 32n + BigInt(Math.floor(random() * 2 ** 32));
      count %= product;
      if (trial === 0) count = product - 1n;
      if (trial === 1) count = 0n;
      const src = Uint32Array.from([7, ...moduli.slice(0, from).map((p) => Number(count % BigInt(p)))]);
      const out = new Uint32Array(from + 2);
      extender.extend(src, 1, out, 1);
      t.deepEqual(
        Array.from(out.subarray(1)),
        moduli.slice(0, from + 1).map((p) => Number(count % BigInt(p))),
        `count ${count}`,
      );
    }
  }
});

test('a sum known for the leading moduli is lifted to all of them', (t) => {
  const count = 3n ** 40n - 12345n;
  const residues = moduli.slice(0, 2).map((p) => Number(count % BigInt(p)));
  t.deepEqual(
    liftResidues(residues, moduli),
    moduli.map((p) => Number(count % BigInt(p))),
  );
});
