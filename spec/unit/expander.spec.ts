import test from 'ava';
import { BorderStates, MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { Expander } from '../../lib/border/expander.js';
import { below, replayableRandom } from '../support/random.js';
import { byStateKey, stateKey, stateWords } from '../support/state-key.js';

/** The successors of one state as a sorted list of exact keys. */
function successorValues(made: number, out: Uint32Array): bigint[] {
  const values: bigint[] = [];
  for (let s = 0; s < made; s++) values.push(stateKey(out[2 * s], out[2 * s + 1]));
  return values.sort(byStateKey);
}

test('the fast expander gives the reference successors for every state reached on widths 1 to 7', (t) => {
  let compared = 0;
  for (let width = 1; width <= 7; width++) {
    const reference = new BorderStates(width);
    const fast = new Expander(width);
    const a = new Uint32Array(2 * MAX_SUCCESSORS);
    const b = new Uint32Array(2 * MAX_SUCCESSORS);
    let frontier = new Map<bigint, [number, number]>([[0n, [START_HI, START_LO]]]);
    for (let step = 0; step < width * 5; step++) {
      const y = step % width;
      const next = new Map<bigint, [number, number]>();
      for (const [hi, lo] of frontier.values()) {
        const expected = successorValues(reference.expandReference(hi, lo, y, a, 0), a);
        const actual = successorValues(fast.expand(hi, lo, y, b, 0), b);
        if (actual.join() !== expected.join()) {
          t.fail(`width ${width} step ${y}: state ${stateKey(hi, lo)}: ${actual} ≠ ${expected}`);
          return;
        }
        compared++;
        for (const value of expected) next.set(value, stateWords(value));
      }
      frontier = next;
    }
  }
  t.true(compared > 100_000, `compared ${compared} states`);
});

test('the fast expander gives the reference successors on random walks at widths 8 to 19', (t) => {
  const random = replayableRandom(t, 'walks');
  for (let width = 8; width <= 19; width++) {
    const reference = new BorderStates(width);
    const fast = new Expander(width);
    const a = new Uint32Array(2 * MAX_SUCCESSORS);
    const b = new Uint32Array(2 * MAX_SUCCESSORS);
    for (let walk = 0; walk < 60; walk++) {
      let [hi, lo] = [START_HI, START_LO];
      for (let step = 0; step < width * 5; step++) {
        const y = step % width;
        const made = reference.expandReference(hi, lo, y, a, 0);
        t.deepEqual(successorValues(fast.expand(hi, lo, y, b, 0), b), successorValues(made, a));
        const pick = below(random, made);
        [hi, lo] = [a[2 * pick], a[2 * pick + 1]];
      }
    }
  }
});
