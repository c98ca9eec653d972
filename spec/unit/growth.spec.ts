import test from 'ava';
import { largestPrimes } from '../../lib/residues/moduli.js';
import { liftResidues, moduliAt, mulMod, ResidueExtender, residuesAt } from '../../lib/residues/growth.js';
import { replayableRandom } from '../support/random.js';

const moduli = largestPrimes(9);

test('the residues a step carries: the fewest leading moduli whose product exceeds 3^step', (t) => {
  t.is(residuesAt(moduli, 0), 1);
  t.is(residuesAt(moduli, 20), 1); // 3^20 < 2^32 - 5
  t.is(residuesAt(moduli, 21), 2);
  t.is(residuesAt(moduli, 121), 6); // 11×11 needs 6 in all
  t.is(residuesAt(moduli, 169), 9);
  t.is(residuesAt(moduli.slice(0, 2), 500), 2, 'never more than the pass has');
  for (let step = 0; step < 170; step++) {
    const k = residuesAt(moduli, step);
    const product = moduli.slice(0, k).reduce((p, m) => p * BigInt(m), 1n);
    t.true(product > 3n ** BigInt(step) || k === moduli.length);
    if (k > 1) t.true(moduli.slice(0, k - 1).reduce((p, m) => p * BigInt(m), 1n) <= 3n ** BigInt(step), `step ${step}: ${k} is the fewest`);
    t.true(residuesAt(moduli, step + 1) - k <= 1, 'one more modulus at a time');
  }
  t.deepEqual(moduliAt(moduli, 30), moduli.slice(0, 2));
});

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
