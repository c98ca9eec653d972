import test from 'ava';
import { residueTotals } from '../../lib/residues/residue-totals.js';
import { below, replayableRandom } from '../support/random.js';

/** Each residue's total over the records in BigInt: the kernel's oracle. */
function referenceTotals(residues: Uint32Array, n: number, moduli: readonly number[]): number[] {
  const k = moduli.length;
  return moduli.map((p, r) => {
    let total = 0n;
    for (let i = 0; i < n; i++) total += BigInt(residues[i * k + r]);
    return Number(total % BigInt(p));
  });
}

const PRIMES = [4294967291, 4294967279, 4294967231, 4294967197, 4294967189, 4294967161, 4294967143, 4294967111];

test('each residue summed over the records equals its BigInt total, for 1 to 64 residues and pieces of every remainder', (t) => {
  const random = replayableRandom(t, 'residues');
  for (const k of [1, 2, 3, 4, 5, 6, 7, 8, 13, 64]) {
    const moduli = Array.from({ length: k }, (_, r) => PRIMES[r % PRIMES.length] - 2 * Math.floor(r / PRIMES.length));
    // Up to 25,000 records: past the 16,384-word pieces' boundary for every k, with each remainder mod 4.
    for (const n of [0, 1, 2, 3, 4, 5, 7, 1000, 4 * Math.floor(65536 / k) + 3, 25_001]) {
      const residues = new Uint32Array(n * k + 5); // words past the records' must not count
      for (let i = 0; i < residues.length; i++) residues[i] = i < n * k ? below(random, moduli[i % k]) : 0xffffffff;
      t.deepEqual(residueTotals(residues, n, moduli), referenceTotals(residues, n, moduli), `k ${k}, ${n} records`);
    }
  }
});

test('residues at their largest: the lanes do not overflow', (t) => {
  const moduli = [4294967291, 7];
  const n = 100_003;
  const residues = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) residues.set([4294967290, 6], 2 * i);
  t.deepEqual(residueTotals(residues, n, moduli), referenceTotals(residues, n, moduli));
  t.deepEqual(residueTotals(residues, n, moduli), [Number((4294967290n * BigInt(n)) % 4294967291n), (6 * n) % 7]);
});

test('more residues than the lanes hold are refused', (t) => {
  t.throws(() => residueTotals(new Uint32Array(65), 1, new Array(65).fill(7)), { message: 'residue totals of 65 residues: at most 64' });
});
