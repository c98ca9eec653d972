import test, { type ExecutionContext } from 'ava';
import { BorderStates, MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { ExpanderKernel } from '../../lib/border/expander-kernel.js';
import { BUCKETS, bucketOf, windowKey } from '../../lib/border/window-key.js';
import { addResidues } from '../../lib/residues/sums.js';
import { ResidueExtender } from '../../lib/residues/growth.js';
import { moduliFor } from '../../lib/residues/moduli.js';
import { below, replayableRandom } from '../support/random.js';
import { stateKey, stateWords } from '../support/state-key.js';

/** The reference successors of each parent, in the reference's order (empty, black, white). */
function referenceSuccessors(reference: BorderStates, parents: number[][], y: number, lastColumn: boolean): bigint[][] {
  const out = new Uint32Array(2 * MAX_SUCCESSORS);
  return parents.map(([hi, lo]) => {
    const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
    return Array.from({ length: made }, (_, s) => stateKey(out[2 * s], out[2 * s + 1]));
  });
}

/** The kernel's successors of each parent, expanded as one batch. */
function kernelSuccessors(kernel: ExpanderKernel, parents: number[][], y: number, lastColumn: boolean): bigint[][] {
  const states = Uint32Array.from(parents.flat());
  kernel.expand(states, parents.length, y, lastColumn);
  let at = kernel.successorStart;
  return parents.map((_, i) =>
    Array.from({ length: kernel.countOf(i) }, () => {
      at += 2;
      return stateKey(kernel.words[at - 2], kernel.words[at - 1]);
    }),
  );
}

test('the WebAssembly kernel gives the reference successors, in order, for every state reached on widths 1 to 7', (t) => {
  let compared = 0;
  for (let width = 1; width <= 7; width++) {
    const reference = new BorderStates(width);
    const kernel = new ExpanderKernel(width);
    // Five columns swept as inner ones, then the same frontier swept as a last column.
    for (const lastColumnFrom of [Infinity, 4 * width]) {
      let frontier = new Map<bigint, number[]>([[0n, [START_HI, START_LO]]]);
      for (let step = 0; step < 5 * width; step++) {
        const y = step % width;
        const lastColumn = step >= lastColumnFrom;
        const parents = [...frontier.values()];
        const expected = referenceSuccessors(reference, parents, y, lastColumn);
        t.deepEqual(kernelSuccessors(kernel, parents, y, lastColumn), expected, `width ${width}, step ${step}`);
        compared += parents.length;
        frontier = new Map(expected.flat().map((v) => [v, stateWords(v)]));
      }
    }
  }
  t.true(compared > 200_000, `compared ${compared} states`);
});

test('the WebAssembly kernel gives the reference successors on random walks at widths 8 to 19', (t) => {
  const random = replayableRandom(t, 'walks');
  for (let width = 8; width <= 19; width++) {
    const reference = new BorderStates(width);
    const kernel = new ExpanderKernel(width);
    const out = new Uint32Array(2 * MAX_SUCCESSORS);
    // 40 walks side by side, so each step is one batch; the last of the five columns forgets.
    let walks = Array.from({ length: 40 }, () => [START_HI, START_LO]);
    for (let step = 0; step < 5 * width; step++) {
      const y = step % width;
      const lastColumn = step >= 4 * width;
      const expected = referenceSuccessors(reference, walks, y, lastColumn);
      t.deepEqual(kernelSuccessors(kernel, walks, y, lastColumn), expected, `width ${width}, step ${step}`);
      walks = walks.map(([hi, lo]) => {
        const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
        if (made === 0) return [START_HI, START_LO]; // a dead end of the last column: start again
        const pick = below(random, made);
        return [out[2 * pick], out[2 * pick + 1]];
      });
    }
  }
});

test('the kernel refuses a last-column state that still has fields above y − 1 on its border', (t) => {
  const width = 6;
  const reference = new BorderStates(width);
  // Step 3 of an inner column: fields 0 … 2 are the new column's, on the border.
  let frontier = new Map<bigint, number[]>([[0n, [START_HI, START_LO]]]);
  for (let step = 0; step < width + 3; step++) {
    const expected = referenceSuccessors(reference, [...frontier.values()], step % width, false);
    frontier = new Map(expected.flat().map((v) => [v, stateWords(v)]));
  }
  const parents = [...frontier.values()];
  const kernel = new ExpanderKernel(width);
  t.true(kernel.expand(Uint32Array.from(parents.flat()), parents.length, 3, false) > 0);
  t.throws(() => kernel.expand(Uint32Array.from(parents.flat()), parents.length, 3, true), {
    message: "a state of the last column's step 3 has fields above 2 on its border",
  });
});

test('the kernel hands each successor with its parent residues to its parent key’s owner, equal ones combined, and tallies the dropped ones', (t) => {
  const random = replayableRandom(t, 'residues');
  const width = 6;
  // 7: equal successors' residues often add up to exactly the modulus.
  const moduli = Float64Array.from([4294967291, 4294967279, 65521, 7]);
  const k = moduli.length;
  const reference = new BorderStates(width);
  // Every state of the last column's step 3 on a 6-wide board (4 columns): some have fewer than 3 successors.
  let frontier = new Map<bigint, number[]>([[0n, [START_HI, START_LO]]]);
  for (let step = 0; step < 3 * width + 3; step++) {
    const expected = referenceSuccessors(reference, [...frontier.values()], step % width, step >= 3 * width);
    frontier = new Map(expected.flat().map((v) => [v, stateWords(v)]));
  }
  const parents = [...frontier.values()];
  const residues = Uint32Array.from({ length: k * parents.length }, (_, j) => below(random, moduli[j % k]));
  const successors = referenceSuccessors(reference, parents, 3, true);
  t.true(
    successors.some((s) => s.length < MAX_SUCCESSORS),
    'some parents lose successors',
  );
  for (let owners = 1; owners <= 4; owners++) {
    const kernel = new ExpanderKernel(width);
    // A window's first step: each parent's successors go to the owner of its key's bucket.
    const table = Uint16Array.from({ length: BUCKETS }, (_, b) => (b * 5) % owners);
    const ownerOfParent = parents.map(([hi, lo]) => table[bucketOf(windowKey(hi, lo, 3, 2, width, true))]);
    kernel.route({ self: 0, owners: table, window: { r: 3, rows: 2, lastColumn: true } });
    kernel.expand(Uint32Array.from(parents.flat()), parents.length, 3, true, k, owners);
    const dropped = new Float64Array(k).fill(1);
    kernel.fanOut(residues, parents.length, moduli, dropped);
    // Equal successors are one record, in the order of their first appearance, residues summed.
    const expectedSums: Array<Map<bigint, Float64Array>> = Array.from({ length: owners }, () => new Map());
    const expectedDropped = new Float64Array(k).fill(1);
    successors.forEach((values, i) => {
      for (const v of values) {
        const owner = ownerOfParent[i];
        const sums = expectedSums[owner].get(v) ?? new Float64Array(k);
        addResidues(sums, residues, k * i, 1, moduli);
        expectedSums[owner].set(v, sums);
      }
      if (values.length < MAX_SUCCESSORS) addResidues(expectedDropped, residues, k * i, MAX_SUCCESSORS - values.length, moduli);
    });
    const expected = expectedSums.map((sums) => [...sums].map(([v, sum]) => `${v}:${sum.join(',')}`));
    t.true(expected.flat().length < successors.flat().length, 'some successors are equal');
    for (let d = 0; d < owners; d++) {
      const states = kernel.statesOf(d);
      const residueStart = kernel.residuesOf(d);
      const actual = Array.from({ length: kernel.sizeOf(d) }, (_, j) => {
        const value = stateKey(kernel.words[states + 2 * j], kernel.words[states + 2 * j + 1]);
        return `${value}:${kernel.words.subarray(residueStart + k * j, residueStart + k * j + k).join(',')}`;
      });
      t.deepEqual(actual, expected[d], `owner ${d} of ${owners}`);
    }
    t.deepEqual(dropped, expectedDropped, `dropped, ${owners} owners`);
  }
});

/** Primes of every size, in no order: a digit may then be far above the next modulus (the kernel's reduction divides). */
const MIXED_MODULI = [4294967291, 3, 65521, 2147483647, 251, 4294967279, 2, 4294967231];

for (const [name, moduli] of [
  ['the pass moduli', moduliFor(19 * 19)],
  ['primes of every size', MIXED_MODULI],
] as const) {
  test(`the kernel extends a batch of residues by one modulus as ResidueExtender does, checked against BigInt: ${name}`, (t) => {
    extendsLikeTheReference(t, moduli);
  });
}

function extendsLikeTheReference(t: ExecutionContext, moduli: readonly number[]): void {
  const random = replayableRandom(t, 'extension');
  const kernel = new ExpanderKernel(3);
  const parents = 300;
  for (let from = 1; from < moduli.length; from++) {
    const to = from + 1;
    const extender = new ResidueExtender(moduli, from, to);
    const product = moduli.slice(0, from).reduce((p, m) => p * BigInt(m), 1n);
    const counts = Array.from({ length: parents }, (_, i) => {
      if (i === 0) return product - 1n;
      if (i === 1) return 0n;
      let count = 0n;
      for (let w = 0; w < from; w++) count = count * 2n ** 32n + BigInt(below(random, 2 ** 32));
      return count % product;
    });
    const residues = Uint32Array.from(counts.flatMap((count) => moduli.slice(0, from).map((p) => Number(count % BigInt(p)))));
    // Any parents will do: the extension does not look at the states.
    kernel.expand(new Uint32Array(2 * parents).fill(0), parents, 0, false, to, 1);
    kernel.extendResidues(residues, parents, extender);
    const start = kernel.layoutResidues;
    const actual = Array.from(kernel.words.subarray(start, start + to * parents));
    const expected = counts.flatMap((count) => moduli.slice(0, to).map((p) => Number(count % BigInt(p))));
    t.deepEqual(actual, expected, `${from} → ${to} residues`);
    const byExtender = new Uint32Array(to * parents);
    for (let i = 0; i < parents; i++) extender.extend(residues, from * i, byExtender, to * i);
    t.deepEqual(actual, Array.from(byExtender));
  }
}

test('the kernel narrows a batch of residues to their first k, each parent once', (t) => {
  const random = replayableRandom(t, 'narrowing');
  const kernel = new ExpanderKernel(3);
  const parents = 300;
  for (const [from, to] of [
    [2, 1],
    [9, 8],
    [9, 6],
  ]) {
    const residues = Uint32Array.from({ length: from * parents }, () => below(random, 2 ** 32));
    kernel.expand(new Uint32Array(2 * parents).fill(0), parents, 0, false, to, 1);
    kernel.narrowResidues(residues, parents, from);
    const start = kernel.layoutResidues;
    const expected = Array.from({ length: parents }, (_, i) => Array.from(residues.subarray(from * i, from * i + to))).flat();
    t.deepEqual(Array.from(kernel.words.subarray(start, start + to * parents)), expected, `${from} → ${to} residues`);
  }
  kernel.expand(new Uint32Array(2 * parents).fill(0), parents, 0, false, 4, 1);
  t.throws(() => kernel.narrowResidues(new Uint32Array(3 * parents), parents, 3), { instanceOf: RangeError });
});
