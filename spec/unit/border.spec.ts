import test from 'ava';
import { BorderStates, MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { HIGH_UNIT } from '../../lib/border/layout.js';
import { parseState, renderState } from '../../lib/border/render.js';
import { below, replayableRandom } from '../support/random.js';

/** The successors of a rendered state, rendered, sorted. */
function successors(width: number, text: string, y: number, lastColumn = false): string[] {
  const states = new BorderStates(width);
  const code = new Uint32Array(2);
  parseState(states, text, y, code);
  const out = new Uint32Array(2 * MAX_SUCCESSORS);
  const made = states.expandReference(code[0], code[1], y, out, 0, lastColumn);
  const nextY = (y + 1) % width;
  const rendered: string[] = [];
  for (let s = 0; s < made; s++) rendered.push(renderState(states, out[2 * s], out[2 * s + 1], nextY));
  return rendered.sort();
}

function canonical(width: number, text: string, y: number): string {
  const states = new BorderStates(width);
  const code = new Uint32Array(2);
  parseState(states, text, y, code);
  return renderState(states, code[0], code[1], y);
}

test('the start state is all edge, code 0', (t) => {
  const states = new BorderStates(4);
  t.is(renderState(states, START_HI, START_LO, 0), '####');
});

test('first point of the first column: empty, or a libertyless stone (one class for both colours)', (t) => {
  t.deepEqual(successors(3, '###', 0), ['.##', 'a##', 'a##']);
});

// Step 1 of width 3: field 0 is (x,0); fields 1, 2 are (x−1,1), (x−1,2).
test('a libertyless singleton leaving the border kills a stone of the other colour on it', (t) => {
  // Empty frees the white stone; black would take its last liberty; white joins it, still libertyless.
  t.deepEqual(successors(3, 'XaX', 1), ['O.O', 'OAO']);
});

test('a stone with no liberty joins the libertyless strings above and to its left', (t) => {
  // Two separate white strings (fields 0 and 1 are diagonal); white at (x,1) connects them.
  t.deepEqual(successors(3, 'abX', 1), ['AAO', 'X.O']);
  t.is(canonical(3, 'AAO', 2), 'AAO');
});

test('an empty point gives liberties to every stone of the strings it touches', (t) => {
  // a at fields 0 and 2 is one string, connected behind the border: the empty point frees both
  // ends; black takes a liberty from X; white joins the string, still without a liberty.
  t.deepEqual(successors(4, 'aXaX', 1), ['O.OX', 'aXaX', 'aaaX']);
});

test('a stone next to an empty point or a friendly stone with a liberty has a liberty', (t) => {
  // Width 2, step 1 → step 0: the new column is complete, the first stone (field 0) is made white.
  t.deepEqual(successors(2, 'X.', 1), ['O.', 'OO', 'OX']);
  t.deepEqual(successors(2, 'OX', 1), ['O.', 'OO', 'OX']);
});

test('colour reversal gives the same class and the same code', (t) => {
  for (const [a, b, y] of [
    ['XaX', 'OAO', 1],
    ['abX', 'ABO', 1],
    ['.XaB', '.OAb', 2],
  ] as const) {
    t.is(canonical(a.length, a, y), canonical(b.length, b, y));
  }
});

test('width 19: random walks through 57-bit states keep one canonical code per state', (t) => {
  const states = new BorderStates(19);
  const out = new Uint32Array(2 * MAX_SUCCESSORS);
  const random = replayableRandom(t, 'walks');
  let beyond53 = 0;
  for (let walk = 0; walk < 40; walk++) {
    let [hi, lo] = [START_HI, START_LO];
    for (let step = 0; step < 19 * 4; step++) {
      const y = step % 19;
      const made = states.expandReference(hi, lo, y, out, 0);
      t.true(made === 2 || made === 3);
      const pick = below(random, made);
      [hi, lo] = [out[2 * pick], out[2 * pick + 1]];
      const nextY = (y + 1) % 19;
      t.true(states.isCanonical(hi, lo, nextY));
      const text = renderState(states, hi, lo, nextY);
      t.is(text.length, 19);
      const parsed = new Uint32Array(2);
      parseState(states, text, nextY, parsed);
      t.deepEqual([parsed[0], parsed[1]], [hi, lo], `${text} at step ${nextY}`);
      if (hi * HIGH_UNIT + lo > 2 ** 53) beyond53++;
    }
  }
  t.true(beyond53 > 100, `states above 2^53 seen: ${beyond53}`);
});

test('last column: points no future point touches are forgotten, dead strings dropped', (t) => {
  // Width 3, step 1: the top field (x,0) is forgotten once (x,1) is placed. Black at (x,1) would
  // leave the white stone at (x,0) without a liberty for ever: dropped.
  t.deepEqual(successors(3, 'a.X', 1, true), ['#.O', '#XO']);
  // A libertyless string wholly above the new point can never breathe: those successors vanish.
  t.deepEqual(successors(3, 'aX.', 2, true), []);
});

test('every state reached on small boards has one code, and that code is canonical', (t) => {
  for (let width = 1; width <= 5; width++) {
    const states = new BorderStates(width);
    const out = new Uint32Array(2 * MAX_SUCCESSORS);
    let frontier = new Map<number, [number, number]>([[0, [START_HI, START_LO]]]);
    for (let step = 0; step < width * 4; step++) {
      const y = step % width;
      const next = new Map<number, [number, number]>();
      const classOfRendering = new Map<string, number>();
      for (const [hi, lo] of frontier.values()) {
        t.true(states.isCanonical(hi, lo, y));
        const text = renderState(states, hi, lo, y);
        t.is(canonical(width, text, y), text, 'rendering parses back to the same code');
        const key = hi * HIGH_UNIT + lo;
        t.is(classOfRendering.get(text) ?? key, key, `${text} has two codes`);
        classOfRendering.set(text, key);
        const made = states.expandReference(hi, lo, y, out, 0);
        t.true(made === 2 || made === 3);
        for (let s = 0; s < made; s++) next.set(out[2 * s] * HIGH_UNIT + out[2 * s + 1], [out[2 * s], out[2 * s + 1]]);
      }
      frontier = next;
    }
  }
});
