import test, { type ExecutionContext } from 'ava';
import { BorderStates, isLegalFinal, MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { BUCKETS, bucketOf, keyOfBorder } from '../../lib/border/window-key.js';
import { GroupedRun, type GroupWindow } from '../../lib/engine/grouped-run.js';
import { groupWindow } from '../../lib/engine/step-routing.js';
import { ResidueExtender } from '../../lib/residues/growth.js';
import { addResidues } from '../../lib/residues/sums.js';
import { below, replayableRandom } from '../support/random.js';
import { stateKey, stateWords } from '../support/state-key.js';

/** States and their residues, by state key. */
type Step = Map<bigint, Uint32Array>;

/**
 * The reference step: every parent's successors by the plain expander, equal ones' residues added;
 * what went to dropped successors, and the legal parents' sums.
 */
function referenceStep(reference: BorderStates, parents: Step, y: number, lastColumn: boolean, inModuli: number[], outModuli: number[]) {
  const out = new Uint32Array(2 * MAX_SUCCESSORS);
  const moduli = Float64Array.from(outModuli);
  const extender = outModuli.length > inModuli.length ? new ResidueExtender(outModuli, inModuli.length, outModuli.length) : undefined;
  const next: Step = new Map();
  const dropped = new Float64Array(outModuli.length);
  const legal = new Float64Array(inModuli.length);
  for (const [key, residues] of parents) {
    const [hi, lo] = stateWords(key);
    if (isLegalFinal(hi, lo)) addResidues(legal, residues, 0, 1, Float64Array.from(inModuli));
    let carried = residues;
    if (extender) {
      carried = new Uint32Array(outModuli.length);
      extender.extend(residues, 0, carried, 0);
    }
    const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
    addResidues(dropped, carried, 0, MAX_SUCCESSORS - made, moduli);
    for (let s = 0; s < made; s++) {
      const child = stateKey(out[2 * s], out[2 * s + 1]);
      const sum = Float64Array.from(next.get(child) ?? new Uint32Array(outModuli.length));
      addResidues(sum, carried, 0, 1, moduli);
      next.set(child, Uint32Array.from(sum));
    }
  }
  return { next, dropped: Array.from(dropped), legal: Array.from(legal) };
}

/** Whether two steps hold the same states with the same residues (ava's deepEqual takes minutes over maps this large). */
function sameStep(t: ExecutionContext, actual: Step, expected: Step, where: string): void {
  let differ = 0;
  for (const [key, residues] of expected) {
    const got = actual.get(key);
    if (!got || got.length !== residues.length || got.some((v, r) => v !== residues[r])) differ++;
  }
  t.is(actual.size, expected.size, `${where}: states`);
  t.is(differ, 0, `${where}: states missing or with other residues`);
}

/** What the grouped run holds, by state key, in the order it holds them. */
function held(run: GroupedRun): { states: Step; order: bigint[] } {
  const states: Step = new Map();
  const order: bigint[] = [];
  for (const batch of run.batches(100)) {
    for (let i = 0; i < batch.size; i++) {
      const key = stateKey(batch.states[2 * i], batch.states[2 * i + 1]);
      order.push(key);
      states.set(key, batch.residues.slice(i * run.residueCount, (i + 1) * run.residueCount));
    }
  }
  return { states, order };
}

function load(run: GroupedRun, step: Step, k: number): void {
  run.reset(k);
  const entries = [...step];
  run.appendBlock(
    Uint32Array.from(entries.flatMap(([key]) => stateWords(key))),
    Uint32Array.from(entries.flatMap(([, residues]) => [...residues])),
    entries.length,
  );
}

/** Each state sits in the group of its key's bucket for the run's window, once (the key from the plain decoder). */
function checkGroups(t: ExecutionContext, run: GroupedRun, reference: BorderStates, y: number, where: string): number {
  const groups = run.groups();
  if (!groups) return 0;
  const { starts, window } = groups;
  const { order } = held(run);
  t.is(starts[BUCKETS], order.length, `${where}: the directory's count`);
  t.is(new Set(order).size, order.length, `${where}: a state held twice`);
  let misplaced = 0;
  for (let g = 0; g < BUCKETS; g++) {
    for (let i = starts[g]; i < starts[g + 1]; i++) {
      const [hi, lo] = stateWords(order[i]);
      reference.decode(hi, lo, y);
      if (bucketOf(keyOfBorder(reference.kind, reference.colour, window.r, window.rows, window.lastColumn)) !== g) misplaced++;
    }
  }
  t.is(misplaced, 0, `${where}: states outside their key's group`);
  return order.length;
}

const SMALL_MODULI = [4294967291, 4294967279, 13, 7];

test('group steps give the reference states, residues, dropped and legal sums, and hold each state in its key’s group, on widths 2 to 7', (t) => {
  let grouped = 0;
  for (let width = 2; width <= 7; width++) {
    const reference = new BorderStates(width);
    const columns = 4;
    const count = { width, columns, windowRows: Math.max(1, Math.min(width - 1, 4)) };
    const run = new GroupedRun(60_000, SMALL_MODULI.length, 64);
    let parents: Step = new Map([[stateKey(START_HI, START_LO), Uint32Array.of(1)]]);
    load(run, parents, 1);
    for (let step = 0; step < width * columns; step++) {
      const y = step % width;
      const lastColumn = Math.floor(step / width) === columns - 1;
      // Residues grow by one every third step, up to all four moduli.
      const kIn = run.residueCount;
      const kOut = Math.min(SMALL_MODULI.length, step % 3 === 2 ? kIn + 1 : kIn);
      const inModuli = SMALL_MODULI.slice(0, kIn);
      const outModuli = SMALL_MODULI.slice(0, kOut);
      const expected = referenceStep(reference, parents, y, lastColumn, inModuli, outModuli);
      const dropped = new Float64Array(kOut);
      const legal = new Float64Array(kIn);
      const extender = kOut > kIn ? new ResidueExtender(outModuli, kIn, kOut) : undefined;
      const result = run.step(y, width, groupWindow(step, count), outModuli, extender, dropped, legal);
      const where = `width ${width}, step ${step}`;
      t.true(result.done, where);
      t.is(result.statesIn, parents.size, where);
      sameStep(t, held(run).states, expected.next, where);
      t.deepEqual(Array.from(dropped), expected.dropped, `${where}: dropped`);
      t.deepEqual(Array.from(legal), expected.legal, `${where}: legal`);
      grouped += checkGroups(t, run, reference, (step + 1) % width, where);
      parents = expected.next;
    }
  }
  t.true(grouped > 20_000, `${grouped} states checked in their groups`);
});

test('a group step whose successors would outgrow the run says so and leaves its states as they were', (t) => {
  const width = 6;
  const reference = new BorderStates(width);
  const moduli = [4294967291];
  let parents: Step = new Map([[stateKey(START_HI, START_LO), Uint32Array.of(1)]]);
  for (let step = 0; step < 9; step++) parents = referenceStep(reference, parents, step % width, false, moduli, moduli).next;
  const run = new GroupedRun(parents.size + 10, 1, 64);
  load(run, parents, 1);
  const window: GroupWindow = { r: 3, rows: 3, lastColumn: false, column: 1 };
  const result = run.step(3, width, window, moduli, undefined, new Float64Array(1), undefined);
  t.false(result.done);
  sameStep(t, held(run).states, parents, 'after the refused step');
});

test('states brought in from elsewhere, in any order, are put in groups by the next step, which gives the reference', (t) => {
  const random = replayableRandom(t, 'shuffle');
  const width = 9;
  const reference = new BorderStates(width);
  const moduli = [4294967291, 4294967279];
  let parents: Step = new Map([[stateKey(START_HI, START_LO), Uint32Array.of(1, 1)]]);
  for (let step = 0; step < 13; step++) parents = referenceStep(reference, parents, step % width, false, moduli, moduli).next;
  const shuffled = [...parents];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = below(random, i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const run = new GroupedRun(4 * parents.size, 2, 100);
  load(run, new Map(shuffled), 2);
  t.is(run.groups(), undefined);
  const count = { width, columns: 4, windowRows: 6 };
  const y = 13 % width;
  run.step(y, width, groupWindow(13, count), moduli, undefined, new Float64Array(2), undefined);
  sameStep(t, held(run).states, referenceStep(reference, parents, y, false, moduli, moduli).next, 'width 9, step 13');
  t.true(checkGroups(t, run, reference, y + 1, 'width 9, step 13') > 10_000);
});
