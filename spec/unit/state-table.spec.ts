import test, { type ExecutionContext } from 'ava';
import { shardsFor, StateTable } from '../../lib/engine/state-table.js';
import { MIN_SHARD_BYTES } from '../../lib/engine/table-limits.js';
import { MemoryRun } from '../../lib/engine/memory-run.js';
import { LOW_BITS } from '../../lib/border/layout.js';
import { seededRandom } from '../../lib/shared/random.js';
import { Readable } from 'node:stream';
import sortStream from 'sort-stream';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RunWriter } from '../../lib/format/run-writer.js';
import { RunReader } from '../../lib/format/run-reader.js';
import { FORMAT_VERSION } from '../../lib/format/layout.js';
import { tempScratch } from '../support/scratch.js';
import { largestPrimes } from '../../lib/residues/moduli.js';
import { byStateKey, stateKey } from '../support/state-key.js';

const moduli = [4294967291, 4294967279, 7];

/** Random states of a width, with repeats, residues for `m`, and the expected per-state sums. */
function sample(width: number, count: number, distinct: number, m: readonly number[] = moduli, bits = Math.min(3 * width, 52)) {
  const random = seededRandom(width * 7919);
  const pool: Array<[number, number]> = [];
  for (let i = 0; i < distinct; i++) {
    // The words drawn one by one: random() has 32 bits, fewer than a wide state.
    const high = Math.max(0, bits - LOW_BITS);
    pool.push([Math.floor(random() * 2 ** high), Math.floor(random() * 2 ** (bits - high))]);
  }
  if (width === 19) pool.push([2 ** 27 - 1, 2 ** 30 - 1]);
  const states = new Uint32Array(2 * count);
  const residues = new Uint32Array(m.length * count);
  for (let i = 0; i < count; i++) {
    states.set(pool[Math.floor(random() * pool.length)], 2 * i);
    residues.set(
      m.map((p) => Math.floor(random() * p)),
      m.length * i,
    );
  }
  return { states, residues, expected: sumsOf(states, residues, count, m) };
}

/** The per-state sums of the first `count` records. */
function sumsOf(states: Uint32Array, residues: Uint32Array, count: number, m: readonly number[] = moduli): Map<bigint, number[]> {
  const expected = new Map<bigint, number[]>();
  for (let i = 0; i < count; i++) {
    const key = stateKey(states[2 * i], states[2 * i + 1]);
    const sum = expected.get(key) ?? m.map(() => 0);
    expected.set(
      key,
      sum.map((s, r) => (s + residues[m.length * i + r]) % m[r]),
    );
  }
  return expected;
}

/** The entries of a map of sums in key order: ava compares maps in insertion order. */
const byKey = (sums: Map<bigint, number[]>) => [...sums].sort((a, b) => byStateKey(a[0], b[0]));

/** Drains the table in order, checking every state's residues against `expected`; returns the keys. */
function drainChecked(t: ExecutionContext, table: StateTable, expected: Map<bigint, number[]>, m: readonly number[] = moduli): bigint[] {
  const seen: bigint[] = [];
  table.drainSorted({
    append(hi, lo, src, at) {
      const key = stateKey(hi, lo);
      t.deepEqual(Array.from(src.subarray(at, at + m.length)), expected.get(key), `state ${key}`);
      seen.push(key);
    },
  });
  return seen;
}

/** A memory run's states and their residues (of three moduli), read in batches of `batchRecords`. */
function contentsOf(run: MemoryRun, batchRecords: number): Map<bigint, number[]> {
  const contents = new Map<bigint, number[]>();
  for (const batch of run.batches(batchRecords))
    for (let i = 0; i < batch.size; i++)
      contents.set(stateKey(batch.states[2 * i], batch.states[2 * i + 1]), Array.from(batch.residues.subarray(3 * i, 3 * i + 3)));
  return contents;
}

/**
 * Adds records [0, n) to a table that holds them all without filling, then checks that it holds
 * the expected states, drains them each once in strictly increasing order, and is empty after.
 */
function addAllThenDrain(
  t: ExecutionContext,
  table: StateTable,
  states: Uint32Array,
  residues: Uint32Array,
  n: number,
  expected: Map<bigint, number[]>,
): void {
  for (let at = 0; at < n;) {
    at = table.addBatch(states, residues, at, n);
    t.false(table.full);
  }
  table.settle();
  t.is(table.size, expected.size);
  const seen = drainChecked(t, table, expected);
  t.is(seen.length, expected.size);
  t.true(
    seen.every((key, i) => i === 0 || key > seen[i - 1]),
    'strictly increasing',
  );
  t.is(table.size, 0);
}

for (const [width, capacity] of [
  [4, 1000],
  [10, 5000],
  [11, 5000],
  [13, 5000],
  [19, 100],
  [19, 5000],
] as const) {
  test(`width ${width}, ${capacity} slots: equal states combine, and drain in strictly increasing order`, (t) => {
    const { states, residues, expected } = sample(width, 2000, Math.min(600, Math.floor(capacity * 0.6)));
    const table = new StateTable(capacity, moduli, width);
    addAllThenDrain(t, table, states, residues, 2000, expected);
  });
}

// A bucket of up to 24 states is sorted by insertion, a larger one by radix passes over the bits where its states differ.
for (const [width, distinct] of [
  [7, 2],
  [7, 24],
  [9, 25],
  [19, 24],
] as const) {
  test(`width ${width}, ${distinct} distinct states in one bucket drain in strictly increasing order`, (t) => {
    // At width 19 the sample adds the widest state to its pool.
    const { states, residues, expected } = sample(width, 200, width === 19 ? distinct - 1 : distinct);
    t.is(expected.size, distinct);
    const table = new StateTable(1000, moduli, width);
    addAllThenDrain(t, table, states, residues, 200, expected);
  });
}

test('addBatch stops when the table reaches its load, and loses none of what it took', (t) => {
  const { states, residues } = sample(9, 2000, 1500);
  const table = new StateTable(100, moduli, 9);
  const stopped = table.addBatch(states, residues, 0, 2000);
  t.true(table.full);
  t.true(stopped < 2000);
  t.true(table.size >= table.maxLoad, `${table.size} distinct states when full, load ${table.maxLoad}`);
  t.true(table.size <= table.capacity);
  const expected = sumsOf(states, residues, stopped);
  t.is(drainChecked(t, table, expected).length, expected.size);
  t.false(table.full);
});

test('drainTo a memory run keeps every state once, with its summed residues', (t) => {
  const { states, residues, expected } = sample(7, 1000, 300);
  const table = new StateTable(1000, moduli, 7);
  table.addBatch(states, residues, 0, 1000);
  const run = new MemoryRun(table.maxLoad, 3);
  table.drainTo(run, false);
  t.is(run.count, expected.size);
  t.deepEqual(byKey(contentsOf(run, 64)), byKey(expected));
});

test('drainTo a memory run, sorted, keeps every state once in increasing order, from one shard and from several', (t) => {
  const { states, residues, expected } = sample(13, 30000, 9000);
  for (const shardBytes of [undefined, MIN_SHARD_BYTES]) {
    const table = new StateTable(20000, moduli, 13, shardBytes);
    t.is(table.shardCount > 1, shardBytes !== undefined);
    t.is(table.addBatch(states, residues, 0, 30000), 30000);
    const run = new MemoryRun(table.maxLoad, 3);
    table.drainTo(run, true);
    const keys = [...contentsOf(run, 64).keys()];
    t.is(run.count, expected.size);
    t.true(
      keys.every((key, i) => i === 0 || keys[i - 1] < key),
      'in increasing order',
    );
    t.deepEqual(byKey(contentsOf(run, 64)), byKey(expected));
  }
});

test('a memory run refuses a state past its capacity instead of dropping it', (t) => {
  const run = new MemoryRun(2, 1);
  const residues = Uint32Array.from([5]);
  run.append(0, 1, residues, 0);
  run.append(0, 2, residues, 0);
  t.throws(() => run.append(0, 3, residues, 0), { instanceOf: RangeError });
});

test('a memory run holds words: more states of fewer residues, fewer of more, and refuses one past its capacity', (t) => {
  const run = new MemoryRun(100, 5);
  t.is(run.capacity, 100);
  t.is(run.capacityFor(1), 233);
  run.reset(1);
  const residues = Uint32Array.from([7]);
  for (let i = 0; i < 233; i++) run.append(0, i, residues, 0);
  t.throws(() => run.append(0, 233, residues, 0), { instanceOf: RangeError });
  const batches = [...run.batches(100)];
  t.deepEqual(
    batches.map((batch) => batch.size),
    [100, 100, 33],
  );
  t.deepEqual(Array.from(batches[2].states.subarray(-2)), [0, 232]);
  t.deepEqual(Array.from(batches[2].residues.subarray(-1)), [7]);
  run.reset(5);
  t.is(run.capacity, 100);
});

test('the record array is allocated once: steps of fewer and of more residues reuse it, and lose nothing', (t) => {
  const table = new StateTable(3000, [...moduli, 5, 7], 9);
  const bytes = table.recordBytes;
  for (const stepModuli of [moduli, [...moduli, 5, 7], moduli]) {
    table.beginStep(stepModuli);
    const { states, residues, expected } = sample(9, 2000, 500, stepModuli);
    t.is(table.addBatch(states, residues, 0, 2000), 2000);
    t.is(drainChecked(t, table, expected, stepModuli).length, expected.size);
    t.is(table.recordBytes, bytes);
  }
});

test('a step whose states carry fewer residues fits more of them in the same words, and they combine', (t) => {
  const table = new StateTable(3000, [...moduli, 5, 7], 9);
  const full = table.capacity;
  table.beginStep(moduli);
  t.true(table.capacity > full, `${table.capacity} records for 3 residues, ${full} for 5`);
  const { states, residues, expected } = sample(9, 2000, 500);
  t.is(table.addBatch(states, residues, 0, 2000), 2000);
  t.is(drainChecked(t, table, expected).length, expected.size);
});

test('a drained table is in the order sort-stream gives the same states, shuffled and sorted as objects', async (t) => {
  const { states, residues, expected } = sample(13, 3000, 900);
  const table = new StateTable(5000, moduli, 13);
  table.addBatch(states, residues, 0, 3000);
  const drained = drainChecked(t, table, expected);
  const random = seededRandom(13);
  const shuffled = [...expected.keys()].map((key) => ({ key, order: random() })).sort((a, b) => a.order - b.order);
  const sorted = await new Promise<bigint[]>((resolve, reject) => {
    const keys: bigint[] = [];
    Readable.from(shuffled)
      .pipe(sortStream((a: { key: bigint }, b: { key: bigint }) => byStateKey(a.key, b.key)))
      .on('data', (item: { key: bigint }) => keys.push(item.key))
      .on('end', () => resolve(keys))
      .on('error', reject);
  });
  t.is(sorted.length, expected.size);
  t.deepEqual(drained, sorted);
});

// The last case puts 20,000 states in one bucket (their prefixes are all 0), more than the module
// encodes at once: the bucket goes out in slices. Residues are encoded and summed four at a time,
// the rest one by one: 3, 4 and 9 residues take each way.
const encodedCases: Array<[number, number, number, number, number, readonly number[]]> = [
  [4, 6000, 2500, 5000, 12, moduli],
  [11, 6000, 2500, 5000, 33, moduli],
  [13, 6000, 2500, 5000, 39, moduli],
  [19, 6000, 2500, 5000, 52, moduli],
  [13, 40000, 20000, 60000, 20, moduli],
  [13, 6000, 2500, 5000, 39, largestPrimes(4)],
  [13, 6000, 2500, 5000, 39, largestPrimes(9)],
];
for (const [width, count, distinct, capacity, bits, caseModuli] of encodedCases) {
  test(`width ${width}, ${distinct} states of ${bits} bits, ${caseModuli.length} residues: a run file drained in encoded blocks is byte for byte the one written record by record`, (t) => {
    const dir = tempScratch(t);
    const header = { version: FORMAT_VERSION, width, columns: width, step: 5, run: 1, moduli: caseModuli };
    const { states, residues, expected } = sample(width, count, distinct, caseModuli, bits);
    const files = ['blocks', 'records'].map((way) => {
      const table = new StateTable(capacity, caseModuli, width);
      for (let at = 0; at < count;) {
        at = table.addBatch(states, residues, at, count);
        t.false(table.full);
      }
      const file = path.join(dir, `${way}.run`);
      // A small chunk, so that blocks are split across its drains.
      const writer = new RunWriter(file, header, Buffer.alloc(16 << 10));
      table.drainSorted(way === 'blocks' ? writer : { append: (hi, lo, src, from) => writer.append(hi, lo, src, from) });
      t.is(writer.finish().records, expected.size);
      return file;
    });
    t.true(readFileSync(files[0]).equals(readFileSync(files[1])));
    const reader = new RunReader(files[0], Buffer.alloc(1 << 16));
    const read = new Map<bigint, number[]>();
    while (reader.next()) read.set(stateKey(reader.hi, reader.lo), Array.from(reader.residues));
    reader.close();
    t.deepEqual(byKey(read), byKey(expected));
  });
}

test('a bucket larger than the module copies out at once drains into a memory run in slices, every state once', (t) => {
  const { states, residues, expected } = sample(13, 40000, 20000, moduli, 20);
  const table = new StateTable(60000, moduli, 13);
  t.is(table.addBatch(states, residues, 0, 40000), 40000);
  const run = new MemoryRun(table.maxLoad, 3);
  table.drainTo(run, false);
  t.deepEqual(byKey(contentsOf(run, 4096)), byKey(expected));
});

// Shards: tables split over several WebAssembly memories of MIN_SHARD_BYTES of records each.

test('a table of several shards combines equal states and drains them in strictly increasing order across the shards', (t) => {
  const { states, residues, expected } = sample(13, 40000, 20000, moduli, 39);
  const table = new StateTable(60000, moduli, 13, MIN_SHARD_BYTES);
  t.is(table.shardCount, shardsFor(60000, 3, MIN_SHARD_BYTES));
  t.true(table.shardCount >= 10, `${table.shardCount} shards`);
  addAllThenDrain(t, table, states, residues, 40000, expected);
});

test('a table of several shards that fills, drained as often as it does, loses none of a batch and combines within each drain', (t) => {
  // More distinct states than the table holds, in batches as large as the engine's.
  const count = 60000;
  const { states, residues, expected } = sample(11, count, 30000, moduli, 33);
  const table = new StateTable(12000, moduli, 11, MIN_SHARD_BYTES);
  t.true(table.shardCount > 1, `${table.shardCount} shards`);
  const totals = new Map<bigint, number[]>();
  let drains = 0;
  const drain = () => {
    drains++;
    let previous = -1n;
    let increasing = true;
    table.drainSorted({
      append(hi, lo, src, at) {
        const key = stateKey(hi, lo);
        increasing &&= key > previous;
        previous = key;
        const sum = totals.get(key) ?? moduli.map(() => 0);
        totals.set(
          key,
          sum.map((s, r) => (s + src[at + r]) % moduli[r]),
        );
      },
    });
    t.true(increasing, `drain ${drains} in strictly increasing order`);
  };
  for (let from = 0; from < count; from += 12288) {
    const to = Math.min(count, from + 12288);
    for (let at = from; at < to;) {
      at = table.addBatch(states, residues, at, to);
      if (table.full) drain();
    }
  }
  drain();
  t.true(drains > 3, `${drains} drains`);
  t.deepEqual(byKey(totals), byKey(expected));
});

test('a step of fewer residues in a table of several shards fits more records and drains in order', (t) => {
  const table = new StateTable(20000, [...moduli, 5, 7], 9, MIN_SHARD_BYTES);
  const full = table.capacity;
  t.true(table.shardCount > 1);
  table.beginStep(moduli);
  t.true(table.capacity > full, `${table.capacity} records for 3 residues, ${full} for 5`);
  const { states, residues, expected } = sample(9, 12000, 6000);
  t.is(table.addBatch(states, residues, 0, 12000), 12000);
  t.false(table.full);
  const seen = drainChecked(t, table, expected);
  t.deepEqual(seen, [...expected.keys()].sort(byStateKey));
});

test('a table of several shards drains into a memory run every state once', (t) => {
  const { states, residues, expected } = sample(13, 20000, 8000, moduli, 39);
  const table = new StateTable(20000, moduli, 13, MIN_SHARD_BYTES);
  t.true(table.shardCount > 1);
  t.is(table.addBatch(states, residues, 0, 20000), 20000);
  const run = new MemoryRun(table.maxLoad, 3);
  table.drainTo(run, false);
  t.deepEqual(byKey(contentsOf(run, 4096)), byKey(expected));
});

test("a table handed 200,000 records at once, as a peer's ring may hand them, stages a successor batch's worth at a time: its memory grows by no more", (t) => {
  const { states, residues, expected } = sample(13, 200000, 150000);
  const table = new StateTable(300000, moduli, 13);
  const memoryBytes = () => (table as unknown as { shards: Array<{ renew(): Uint32Array }> }).shards[0].renew().byteLength;
  const before = memoryBytes();
  t.is(table.addBatch(states, residues, 0, 200000), 200000);
  // 3 × 4,096 records of 5 words staged, and the combining index and keys of a bucket, within 1 MiB.
  t.true(memoryBytes() - before <= 2 ** 20, `grew by ${memoryBytes() - before} bytes`);
  const run = new MemoryRun(table.maxLoad, 3);
  table.drainTo(run, true);
  t.is(run.count, expected.size);
});
