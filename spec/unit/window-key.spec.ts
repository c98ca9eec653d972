import test from 'ava';
import { BorderStates, LIBERTYLESS, MAX_SUCCESSORS, START_HI, START_LO } from '../../lib/border/border.js';
import { ExpanderKernel } from '../../lib/border/expander-kernel.js';
import { OwnerSplit } from '../../lib/engine/owner-split.js';
import { StateTable } from '../../lib/engine/state-table.js';
import { MemoryRun } from '../../lib/engine/memory-run.js';
import { GroupedRun } from '../../lib/engine/grouped-run.js';
import { MIN_SHARD_BYTES } from '../../lib/engine/table-limits.js';
import { BUCKETS, bucketOf, keyOfBorder, stringKeyOfBorder, windowKey } from '../../lib/border/window-key.js';
import { below, replayableRandom } from '../support/random.js';
import { stateKey, stateWords } from '../support/state-key.js';

/** The key of (hi, lo) at step y for the window from row r: the border decoded at y. */
function keyAt(border: BorderStates, hi: number, lo: number, y: number, r: number, rows: number, lastColumn: boolean): bigint {
  if (!border.decode(hi, lo, y)) throw new Error('not a state');
  return keyOfBorder(border.kind, border.colour, r, rows, lastColumn);
}

test('no step inside a window changes a state key: every state reached on widths 2 to 7, windows of 1 to 4 rows, inner and last columns', (t) => {
  let checked = 0;
  let keys = 0;
  for (let width = 2; width <= 7; width++) {
    const reference = new BorderStates(width);
    const border = new BorderStates(width);
    const out = new Uint32Array(2 * MAX_SUCCESSORS);
    for (const lastColumnFrom of [Infinity, 3 * width]) {
      let frontier = new Map<bigint, number[]>([[0n, [START_HI, START_LO]]]);
      for (let step = 0; step < 4 * width; step++) {
        const y = step % width;
        const lastColumn = step >= lastColumnFrom;
        const next = new Map<bigint, number[]>();
        for (const rows of [1, 2, 3, 4]) {
          const r = y - (y % rows); // the first row of the window this step is in
          const distinct = new Set<bigint>();
          for (const [hi, lo] of frontier.values()) {
            const key = keyAt(border, hi, lo, y, r, rows, lastColumn);
            distinct.add(key);
            const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
            for (let s = 0; s < made; s++) {
              // The successor is at step y + 1, the next column's 0 after the last row.
              t.is(
                keyAt(border, out[2 * s], out[2 * s + 1], (y + 1) % width, r, rows, lastColumn),
                key,
                `width ${width}, step ${step}, rows ${rows}`,
              );
              if (rows === 1) next.set(stateKey(out[2 * s], out[2 * s + 1]), [out[2 * s], out[2 * s + 1]]);
              checked++;
            }
          }
          keys += distinct.size;
        }
        frontier = next;
      }
    }
  }
  t.true(checked > 300_000, `checked ${checked} successors`);
  t.true(keys > 10_000, `${keys} keys`);
});

test('the kernel keys a state as windowKey does, and sends each parent’s successors to its bucket’s owner, at widths 8 to 19', (t) => {
  const random = replayableRandom(t, 'window walks');
  const owners = Uint16Array.from({ length: BUCKETS }, (_, b) => (b * 7) % 5);
  const moduli = Float64Array.of(7);
  for (let width = 8; width <= 19; width++) {
    const reference = new BorderStates(width);
    const kernel = new ExpanderKernel(width);
    const out = new Uint32Array(2 * MAX_SUCCESSORS);
    let walks = Array.from({ length: 60 }, () => [START_HI, START_LO]);
    for (let step = 0; step < 5 * width; step++) {
      const y = step % width;
      const lastColumn = step >= 4 * width;
      for (const rows of [1, 3]) {
        if (y % rows !== 0) continue;
        kernel.expand(Uint32Array.from(walks.flat()), walks.length, y, lastColumn, 1, 5);
        kernel.route({ self: 0, owners, window: { r: y, rows, lastColumn } });
        kernel.fanOut(new Uint32Array(walks.length).fill(1), walks.length, moduli, new Float64Array(1));
        const found = new Map<bigint, number>();
        for (let d = 0; d < 5; d++) {
          const at = kernel.statesOf(d);
          for (let j = 0; j < kernel.sizeOf(d); j++) found.set(stateKey(kernel.words[at + 2 * j], kernel.words[at + 2 * j + 1]), d);
        }
        for (const [hi, lo] of walks) {
          const owner = owners[bucketOf(windowKey(hi, lo, y, rows, width, lastColumn))];
          const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
          for (let s = 0; s < made; s++)
            t.is(found.get(stateKey(out[2 * s], out[2 * s + 1])), owner, `width ${width}, step ${step}, rows ${rows}`);
        }
      }
      walks = walks.map(([hi, lo]) => {
        const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
        if (made === 0) return [START_HI, START_LO];
        const pick = below(random, made);
        return [out[2 * pick], out[2 * pick + 1]];
      });
    }
  }
});

/** The successors of 9×9's step 11 (y = 2 of column 1, inside the window of rows 0–2, whose successors start the window at row 3), as the kernel makes them. */
function stepElevenOfNine(): { kernel: ExpanderKernel; parents: number[][]; width: number } {
  const width = 9;
  const reference = new BorderStates(width);
  const kernel = new ExpanderKernel(width);
  const out = new Uint32Array(2 * MAX_SUCCESSORS);
  let frontier = new Map<bigint, number[]>([[0n, [START_HI, START_LO]]]);
  for (let step = 0; step < width + 2; step++) {
    const next = new Map<bigint, number[]>();
    for (const [hi, lo] of frontier.values()) {
      const made = reference.expandReference(hi, lo, step % width, out, 0, false);
      for (let s = 0; s < made; s++) next.set(stateKey(out[2 * s], out[2 * s + 1]), [out[2 * s], out[2 * s + 1]]);
    }
    frontier = next;
  }
  return { kernel, parents: [...frontier.values()], width };
}

test('inside a window every successor stays with the worker', (t) => {
  const { kernel, parents } = stepElevenOfNine();
  kernel.expand(Uint32Array.from(parents.flat()), parents.length, 2, false, 1, 3);
  kernel.route({ self: 2 });
  kernel.fanOut(new Uint32Array(parents.length).fill(1), parents.length, Float64Array.of(7), new Float64Array(1));
  t.is(kernel.sizeOf(0) + kernel.sizeOf(1), 0);
  t.true(kernel.sizeOf(2) > 1000, `${kernel.sizeOf(2)} records`);
});

const SAMPLE_MIX = 0xff51afd7ed558ccdn;

/** Whether a state is weighed when one in mask + 1 are, as the kernels' sampledState chooses it: the oracle, in BigInt. */
function sampledBy(state: bigint, mask: number): boolean {
  const mixed = ((state ^ (state >> 33n)) * SAMPLE_MIX) & ((1n << 64n) - 1n);
  return Number((mixed >> 32n) & BigInt(mask)) === 0;
}

test('the state table weighs each state it drains once by the next window’s key, not each successor, over its drains and shards', (t) => {
  const { kernel, parents, width } = stepElevenOfNine();
  const made = kernel.expand(Uint32Array.from(parents.flat()), parents.length, 2, false, 1, 1);
  const successors = kernel.words.slice(kernel.successorStart, kernel.successorStart + 2 * made);
  const window = { r: 3, rows: 3, lastColumn: false };
  const distinct = new Map<bigint, number>();
  for (let j = 0; j < made; j++) {
    const key = stateKey(successors[2 * j], successors[2 * j + 1]);
    const [hi, lo] = stateWords(key);
    distinct.set(key, bucketOf(windowKey(hi, lo, window.r, window.rows, width, false)));
  }
  const expected = new Uint32Array(BUCKETS);
  for (const bucket of distinct.values()) expected[bucket]++;
  t.true(made > distinct.size, `${made} successors of ${distinct.size} states: some combine`);
  t.true(expected.filter((n) => n > 0).length > 100, 'the keys fall in many buckets');
  const residues = new Uint32Array(made).fill(1);
  const half = Math.floor(made / 2);
  const quarter = new Uint32Array(BUCKETS);
  for (const [key, bucket] of distinct) if (sampledBy(key, 3)) quarter[bucket]++;
  const weighed = quarter.reduce((a, b) => a + b, 0);
  t.true(weighed > distinct.size / 5 && weighed < distinct.size / 3, `${weighed} of ${distinct.size} weighed`);
  for (const shardBytes of [undefined, MIN_SHARD_BYTES]) {
    const table = new StateTable(4 * made, [7], width, shardBytes);
    t.is(table.shardCount > 1, shardBytes !== undefined);
    const run = new MemoryRun(4 * made, 1);
    // Every state, in two drains: a state in both counts once in each.
    table.sampleKeys(window, 0);
    table.addBatch(successors, residues, 0, made);
    table.drainTo(run, false);
    t.deepEqual(table.keyHistogram(), expected);
    table.addBatch(successors, residues, 0, half);
    table.drainTo(run, true);
    const again = new Set<bigint>();
    for (let j = 0; j < half; j++) again.add(stateKey(successors[2 * j], successors[2 * j + 1]));
    const twice = Uint32Array.from(expected);
    for (const key of again) twice[distinct.get(key)!]++;
    t.deepEqual(table.keyHistogram(), twice);
    // One in four, chosen by a hash of the state: the same ones whatever the order they come in.
    for (const order of ['as made', 'reversed']) {
      table.sampleKeys(window, 3);
      if (order === 'reversed') for (let j = made - 1; j >= 0; j--) table.addBatch(successors.subarray(2 * j), residues, 0, 1);
      else table.addBatch(successors, residues, 0, made);
      table.drainTo(run, false);
      t.deepEqual(table.keyHistogram(), quarter, order);
    }
    const sampled = table.keyHistogram();
    // Stopped, a drain weighs nothing more.
    table.stopSampling();
    table.addBatch(successors, residues, 0, made);
    table.drainTo(run, false);
    t.deepEqual(table.keyHistogram(), sampled);
  }
  // A grouped run weighs the states it holds as the table does, in either order.
  for (const order of ['as made', 'reversed']) {
    const pairs = [...distinct.keys()].map((key) => stateWords(key));
    if (order === 'reversed') pairs.reverse();
    const grouped = new GroupedRun(distinct.size, 1, 1024);
    grouped.reset(1);
    grouped.appendBlock(Uint32Array.from(pairs.flat()), new Uint32Array(distinct.size).fill(1), distinct.size);
    t.deepEqual(grouped.sampleKeys({ ...window, column: 1 }, width, 3), quarter, `grouped, ${order}`);
  }
});

test('the kernels decode a border of 19 stones without a liberty, in strings of 1 to 19, as decode does', (t) => {
  const random = replayableRandom(t, 'libertyless borders');
  const width = 19;
  const border = new BorderStates(width);
  const owners = Uint16Array.from({ length: BUCKETS }, (_, b) => b % 1000);
  const split = new OwnerSplit(1000, width, 1 << 10, 1);
  const kind = new Uint8Array(width).fill(LIBERTYLESS);
  const colour = new Uint8Array(width);
  const group = new Uint8Array(width);
  const out = new Uint32Array(2);
  // Strings of stones one after another down the border, each of its own colour against the one above.
  const lengths = [[1], [19], [2, 17], [16, 1, 2], ...Array.from({ length: 40 }, () => [below(random, 19) + 1])];
  for (const pattern of lengths) {
    for (let i = 0, string = 0; i < width; string++) {
      const length = Math.min(width - i, pattern[string % pattern.length]);
      colour.fill(string % 2, i, i + length);
      group.fill(string + 1, i, i + length);
      i += length;
    }
    for (let y = 0; y < width; y++) {
      const r = y - (y % 3);
      const at = (y + 1) % width;
      border.encodeBorder(kind, colour, group, at, out, 0);
      split.routeBy({ r, rows: 3, lastColumn: false, y: at, owners, strings: false });
      const key = keyAt(border, out[0], out[1], at, r, 3, false);
      t.is(split.windowOwnerOf(out[0], out[1]), owners[bucketOf(key)], `strings ${pattern.join(', ')}…, step ${y}`);
    }
  }
});

const splitKeys = test.macro({
  exec(t, strings: boolean) {
    const random = replayableRandom(t, 'split walks');
    const owners = Uint16Array.from({ length: BUCKETS }, (_, b) => (b * 7) % 5);
    let checked = 0;
    let differ = 0;
    for (let width = 8; width <= 19; width++) {
      const reference = new BorderStates(width);
      const border = new BorderStates(width);
      const split = new OwnerSplit(5, width, 1 << 10, 1);
      const out = new Uint32Array(2 * MAX_SUCCESSORS);
      let walks = Array.from({ length: 40 }, () => [START_HI, START_LO]);
      for (let step = 0; step < 5 * width; step++) {
        const y = step % width;
        const lastColumn = step >= 4 * width;
        for (const rows of [1, 3, 5]) {
          // The successors of step y, in the slots of step y + 1, split for the window that holds y.
          const r = y - (y % rows);
          split.routeBy({ r, rows, lastColumn, y: (y + 1) % width, owners, strings });
          for (const [hi, lo] of walks) {
            const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
            for (let s = 0; s < made; s++) {
              if (!border.decode(out[2 * s], out[2 * s + 1], (y + 1) % width)) throw new Error('not a state');
              const key = strings
                ? stringKeyOfBorder(border.kind, border.colour, border.group, r, rows, lastColumn)
                : keyOfBorder(border.kind, border.colour, r, rows, lastColumn);
              if (strings && key !== keyOfBorder(border.kind, border.colour, r, rows, lastColumn)) differ++;
              t.is(split.windowOwnerOf(out[2 * s], out[2 * s + 1]), owners[bucketOf(key)], `width ${width}, step ${step}, rows ${rows}`);
              checked++;
            }
          }
        }
        walks = walks.map(([hi, lo]) => {
          const made = reference.expandReference(hi, lo, y, out, 0, lastColumn);
          if (made === 0) return [START_HI, START_LO];
          const pick = below(random, made);
          return [out[2 * pick], out[2 * pick + 1]];
        });
      }
    }
    t.true(checked > 50_000, `${checked} successors`);
    if (strings) t.true(differ > checked / 20, `string keys differ from window keys in ${differ} of ${checked}`);
  },
  title: (_given, strings: boolean) =>
    `the owner split keys a state at any step of a window as ${strings ? 'stringKeyOfBorder' : 'keyOfBorder'} does, its fields turned back to the window’s first step, at widths 8 to 19`,
});

test(splitKeys, false);
test(splitKeys, true);
