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

/** Small moduli among large ones; ten, so that records take their residues in one, two and three vectors of four, whole and not. */
const SMALL_MODULI = [4294967291, 4294967279, 13, 7, 4294967231, 11, 4294967197, 5, 3, 4294967189];

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
      // Residues grow by one every third step, up to all ten moduli, and a column's first step drops one (growth.ts).
      const kIn = run.residueCount;
      const kOut = y === 0 && step > 0 && kIn > 1 ? kIn - 1 : Math.min(SMALL_MODULI.length, step % 3 === 2 ? kIn + 1 : kIn);
      const inModuli = SMALL_MODULI.slice(0, kIn);
      const outModuli = SMALL_MODULI.slice(0, kOut);
      const expected = referenceStep(reference, parents, y, lastColumn, inModuli, outModuli);
      const dropped = new Float64Array(kOut);
      const legal = { sums: new Float64Array(kIn), moduli: inModuli };
      const extender = kOut > kIn ? new ResidueExtender(outModuli, kIn, kOut) : undefined;
      const result = run.step(y, width, groupWindow(step, count), outModuli, extender, dropped, legal);
      const where = `width ${width}, step ${step}`;
      t.true(result.done, where);
      t.is(result.statesIn, parents.size, where);
      sameStep(t, held(run).states, expected.next, where);
      t.deepEqual(Array.from(dropped), expected.dropped, `${where}: dropped`);
      t.deepEqual(Array.from(legal.sums), expected.legal, `${where}: legal`);
      grouped += checkGroups(t, run, reference, (step + 1) % width, where);
      parents = expected.next;
    }
  }
  t.true(grouped > 20_000, `${grouped} states checked in their groups`);
});

/** Width 6's states after 9 points, one residue. */
function width6Step9() {
  const width = 6;
  const reference = new BorderStates(width);
  const moduli = [4294967291];
  let parents: Step = new Map([[stateKey(START_HI, START_LO), Uint32Array.of(1)]]);
  for (let step = 0; step < 9; step++) parents = referenceStep(reference, parents, step % width, false, moduli, moduli).next;
  return { width, reference, moduli, parents };
}

test('a group step whose successors would outgrow the run says so and leaves its states as they were', (t) => {
  const { width, moduli, parents } = width6Step9();
  const run = new GroupedRun(parents.size + 10, 1, 64);
  load(run, parents, 1);
  const window: GroupWindow = { r: 3, rows: 3, lastColumn: false, column: 1 };
  const result = run.step(3, width, window, moduli, undefined, new Float64Array(1), undefined);
  t.false(result.done);
  sameStep(t, held(run).states, parents, 'after the refused step');
});

test('a run whose areas take 2.9 GB, its staging blocks past 2 GiB, holds what comes in and steps to the reference', (t) => {
  // The blocks' addresses come back from the module as negative i32s: 13×13 at --memory 16G failed here.
  const { width, reference, moduli, parents } = width6Step9();
  const run = new GroupedRun(120_000_000, 1, 64);
  load(run, parents, 1);
  sameStep(t, held(run).states, parents, 'as loaded');
  const count = { width, columns: 4, windowRows: 4 };
  run.step(9 % width, width, groupWindow(9, count), moduli, undefined, new Float64Array(1), undefined);
  sameStep(t, held(run).states, referenceStep(reference, parents, 9 % width, false, moduli, moduli).next, 'width 6, step 9');
});

/** 9×9's states after 13 points (two residues), and a grouped run holding them in a random order. */
function shuffledStep13(t: ExecutionContext) {
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
  return { width, reference, moduli, parents, order: shuffled.map(([key]) => key), run };
}

test('states brought in from elsewhere, in any order, are put in groups by the next step, which gives the reference', (t) => {
  const { width, reference, moduli, parents, run } = shuffledStep13(t);
  t.is(run.groups(), undefined);
  const count = { width, columns: 4, windowRows: 6 };
  const y = 13 % width;
  run.step(y, width, groupWindow(13, count), moduli, undefined, new Float64Array(2), undefined);
  sameStep(t, held(run).states, referenceStep(reference, parents, y, false, moduli, moduli).next, 'width 9, step 13');
  t.true(checkGroups(t, run, reference, y + 1, 'width 9, step 13') > 10_000);
});

/**
 * Whether each group of the run, put in groups from states that came in `input` order, is in the
 * order of its states' high bits, in blocks of about 16, and in `input` order within a block (as
 * group-step.as.ts's orderGroups); groups under 64 states keep `input` order. Returns the states in
 * groups of 64 or more.
 */
function checkGroupOrder(t: ExecutionContext, run: GroupedRun, input: bigint[], width: number, where: string): number {
  const { starts } = run.groups()!;
  const { order } = held(run);
  const rank = new Map(input.map((key, i) => [key, i]));
  const value = (key: bigint) => (key >> 32n) * 2n ** 30n + (key & 0xffffffffn); // hi · 2^30 + lo
  let ordered = 0;
  let outOfOrder = 0;
  for (let g = 0; g < BUCKETS; g++) {
    const n = starts[g + 1] - starts[g];
    let bits = 0;
    if (n >= 64) {
      bits = 1;
      while (bits < 16 && bits < 3 * width && 2 ** bits < Math.floor(n / 16)) bits++;
      ordered += n;
    }
    const block = (key: bigint) => (bits === 0 ? 0n : value(key) >> BigInt(3 * width - bits));
    for (let i = starts[g] + 1; i < starts[g + 1]; i++) {
      const [a, b] = [order[i - 1], order[i]];
      const inOrder = block(a) < block(b) || (block(a) === block(b) && rank.get(a)! < rank.get(b)!);
      if (!inOrder) outOfOrder++;
    }
  }
  t.is(outOfOrder, 0, `${where}: states out of their group's order`);
  return ordered;
}

test('states put in groups are ordered within each group by their high bits, and a group step from that order gives the reference', (t) => {
  const { width, reference, moduli, parents, order, run } = shuffledStep13(t);
  const count = { width, columns: 4, windowRows: 6 };
  const y = 13 % width;
  const window = groupWindow(13, count);
  run.putInGroups(y, width, window);
  t.true(checkGroupOrder(t, run, order, width, 'width 9, step 13') > 5_000);
  t.is(checkGroups(t, run, reference, y, 'width 9, step 13'), parents.size);
  sameStep(t, held(run).states, parents, 'width 9, step 13, in groups');
  run.step(y, width, window, moduli, undefined, new Float64Array(2), undefined);
  sameStep(t, held(run).states, referenceStep(reference, parents, y, false, moduli, moduli).next, 'width 9, step 13');
});

test('at a window’s first step three runs send each state to the owner of its key’s bucket, hold each once, and then step as one', (t) => {
  const random = replayableRandom(t, 'owners');
  const width = 8;
  const reference = new BorderStates(width);
  const moduli = [4294967291, 4294967279];
  const workers = 3;
  let states: Step = new Map([[stateKey(START_HI, START_LO), Uint32Array.of(1, 1)]]);
  for (let step = 0; step < 12; step++) states = referenceStep(reference, states, step % width, false, moduli, moduli).next;
  // Step 12 starts a window of 4 rows (row 4) in groups of 3 rows; its owners, one random owner per key bucket.
  const count = { width, columns: 3, windowRows: 4 };
  const y = 12 % width;
  const window = groupWindow(12, count);
  t.deepEqual([window.r, window.rows], [4, 3]);
  const owners = Uint16Array.from({ length: BUCKETS }, () => below(random, workers));
  const ownerOf = (key: bigint) => {
    const [hi, lo] = stateWords(key);
    reference.decode(hi, lo, y);
    return owners[bucketOf(keyOfBorder(reference.kind, reference.colour, 4, 4, false))];
  };
  // The states dealt out in turn, whoever owns them.
  const runs = Array.from({ length: workers }, () => new GroupedRun(states.size, 2, 50));
  const dealt = Array.from({ length: workers }, (): Step => new Map());
  [...states].forEach(([key, residues], i) => dealt[i % workers].set(key, residues));
  runs.forEach((run, w) => load(run, dealt[w], 2));
  let moved = 0;
  let expectedMoves = 0;
  // What is sent waits, as in a ring, until its receiver takes it in, after its own sending began.
  const rings: Array<[number, Uint32Array, Uint32Array, number]> = [];
  for (let w = 0; w < workers; w++) {
    for (const key of dealt[w].keys()) if (ownerOf(key) !== w) expectedMoves++;
    moved += runs[w].sendAway(y, width, window, 4, owners, w, workers, (to, s, r, n) =>
      rings.push([to, s.slice(0, 2 * n), r.slice(0, 2 * n), n]),
    );
  }
  for (const [to, s, r, n] of rings) runs[to].receive(s, r, 0, n);
  t.is(moved, expectedMoves, 'states moved');
  runs.forEach((run) => run.settle(y, width));
  const holder = new Map<bigint, number>();
  let twice = 0;
  let misplaced = 0;
  runs.forEach((run, w) => {
    for (const key of held(run).states.keys()) {
      if (holder.has(key)) twice++;
      holder.set(key, w);
      if (ownerOf(key) !== w) misplaced++;
    }
  });
  t.is(twice, 0, 'states held twice');
  t.is(misplaced, 0, 'states held by another than their owner');
  t.is(holder.size, states.size, 'states held');
  // Each run's group step gives what the reference gives for the states its worker owns: together, the reference's step.
  const next: Step = new Map();
  for (const run of runs) {
    t.true(run.step(y, width, window, moduli, undefined, new Float64Array(2), undefined).done);
    for (const [key, residues] of held(run).states) {
      t.false(next.has(key), 'a successor made by two workers');
      next.set(key, residues);
    }
  }
  sameStep(t, next, referenceStep(reference, states, y, false, moduli, moduli).next, 'after the exchange');
});
