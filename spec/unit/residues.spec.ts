import test from 'ava';
import { joinResidues, residuesOf } from '../../lib/residues/crt.js';
import { largestPrimes, moduliFor, productOf, splitIntoPasses } from '../../lib/residues/moduli.js';

test('the moduli are the largest primes below 2^32', (t) => {
  t.deepEqual(largestPrimes(3), [4294967291, 4294967279, 4294967231]);
});

test('their product exceeds 3^points, with as few as that takes', (t) => {
  for (const points of [1, 25, 81, 121, 169, 361]) {
    const moduli = moduliFor(points);
    t.true(productOf(moduli) > 3n ** BigInt(points));
    t.true(productOf(moduli.slice(1)) <= 3n ** BigInt(points) || moduli.length === 1);
  }
  t.is(moduliFor(361).length, 18);
  t.is(moduliFor(121).length, 6);
});

test('CRT recovers numbers from their residues', (t) => {
  const moduli = moduliFor(361);
  const product = productOf(moduli);
  for (const x of [
    0n,
    1n,
    57n,
    3n ** 360n,
    product - 1n,
    208168199381979984699478633344862770286522453884530548425639456820927419612738015378525648451698519643907259916015628128546089888314427129715319317557736620397247064840935n,
  ]) {
    t.is(joinResidues(residuesOf(x, moduli)), x);
  }
});

test('passes split the moduli in order', (t) => {
  t.deepEqual(splitIntoPasses([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
});
