import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RunFileError } from '../../lib/shared/errors.js';
import { Batch } from '../../lib/engine/batch.js';
import { RunMergeKernel } from '../../lib/engine/run-merge.js';
import { FORMAT_VERSION, headerBytes } from '../../lib/format/layout.js';
import { RunReader } from '../../lib/format/run-reader.js';
import { RunWriter } from '../../lib/format/run-writer.js';
import { largestPrimes } from '../../lib/residues/moduli.js';
import { below, replayableRandom } from '../support/random.js';
import { RunMerger } from '../support/javascript-merge.js';
import { tempScratch } from '../support/scratch.js';

const BUFFER = 8 << 10;

/**
 * Writes `runs` sorted runs of 57-bit states drawn from a shared pool (so that runs share states),
 * with gaps small and large and high-word changes, run `empty` (if any) with no records; returns
 * their paths.
 */
function writeRuns(dir: string, random: () => number, runs: number, moduli: number[], empty = -1): string[] {
  // As (hi, lo) words: a 57-bit state is not exact as one double.
  const pool: Array<[number, number]> = [];
  let state = below(random, 2 ** 20);
  for (let i = 0; i < 3000; i++) {
    state += below(random, 4) === 0 ? 1 + below(random, 2 ** 40) : 1 + below(random, 300);
    if (state >= 2 ** 53) break;
    pool.push([Math.floor(state / 2 ** 30), state % 2 ** 30]);
  }
  pool.push([2 ** 27 - 1, 2 ** 30 - 1]);
  const residues = new Uint32Array(moduli.length);
  return Array.from({ length: runs }, (_, run) => {
    const file = path.join(dir, `r${run}.run`);
    const header = { version: FORMAT_VERSION, width: 19, columns: 19, step: 40, run: run + 1, moduli };
    const writer = new RunWriter(file, header, Buffer.alloc(1 << 12));
    for (const [hi, lo] of pool) {
      if (run === empty || below(random, 3) !== 0) continue;
      moduli.forEach((p, r) => (residues[r] = below(random, 4) === 0 ? p - 1 : below(random, p)));
      writer.append(hi, lo, residues, 0);
    }
    writer.finish();
    return file;
  });
}

/** Every record of a merge, as "hi,lo:residues" lines, taken batch by batch. */
function mergedWith(merge: { fill(batch: Batch): boolean }, k: number, capacity: number): string[] {
  const lines: string[] = [];
  const batch = new Batch(capacity, k);
  while (merge.fill(batch)) {
    for (let i = 0; i < batch.size; i++)
      lines.push(`${batch.states[2 * i]},${batch.states[2 * i + 1]}:${batch.residues.subarray(i * k, i * k + k).join(' ')}`);
  }
  return lines;
}

const javascriptMerge = (files: string[], moduli: number[], capacity: number) =>
  mergedWith(
    new RunMerger(
      files.map((file) => new RunReader(file, Buffer.alloc(BUFFER))),
      moduli,
    ),
    moduli.length,
    capacity,
  );

const kernelMerge = (kernel: RunMergeKernel, files: string[], moduli: number[], capacity: number) =>
  mergedWith(
    kernel.merge(
      files.map((file, i) => new RunReader(file, kernel.buffers[i])),
      moduli,
    ),
    moduli.length,
    capacity,
  );

test('the WebAssembly merge gives the JavaScript merge’s records: each of 1 to 17 runs, one of them empty in some, 1 to 15 residues, batches small and large', (t) => {
  const random = replayableRandom(t, 'runs');
  const kernel = new RunMergeKernel(17, BUFFER, 15);
  for (let trial = 0; trial < 24; trial++) {
    const dir = tempScratch(t);
    const moduli = largestPrimes(1 + below(random, 15));
    // Every number of runs from 1 to 17: the merge's tree has a shape for each.
    const runs = trial < 17 ? trial + 1 : 1 + below(random, 17);
    const files = writeRuns(dir, random, runs, moduli, trial % 3 === 1 && runs > 1 ? below(random, runs) : -1);
    const capacity = [1, 7, 1000, 5000][trial % 4];
    const expected = javascriptMerge(files, moduli, capacity);
    t.true(expected.length > 100);
    t.deepEqual(kernelMerge(kernel, files, moduli, capacity), expected, `trial ${trial}`);
  }
});

test('drainTo sends the merged records in order, as fill does', (t) => {
  const random = replayableRandom(t, 'runs');
  const kernel = new RunMergeKernel(4, BUFFER, 3);
  const moduli = largestPrimes(3);
  const files = writeRuns(tempScratch(t), random, 4, moduli);
  const lines: string[] = [];
  kernel
    .merge(
      files.map((file, i) => new RunReader(file, kernel.buffers[i])),
      moduli,
    )
    .drainTo({ append: (hi, lo, residues, at) => lines.push(`${hi},${lo}:${residues.subarray(at, at + 3).join(' ')}`) });
  t.deepEqual(lines, javascriptMerge(files, moduli, 100));
});

test('a damaged run file fails the WebAssembly merge with the JavaScript reader’s message', (t) => {
  const random = replayableRandom(t, 'runs and bytes');
  const kernel = new RunMergeKernel(3, BUFFER, 1);
  // One residue: a record's state varints are then as many bytes as its residue.
  const moduli = largestPrimes(1);
  const files = writeRuns(tempScratch(t), random, 3, moduli);
  const bytes = readFileSync(files[1]);
  const messages = new Set<string>();
  for (let trial = 0; trial < 150; trial++) {
    // Records only: the header is checked when the reader opens, before either merge.
    const at = headerBytes(moduli.length) + below(random, bytes.length - headerBytes(moduli.length));
    const altered = Buffer.from(bytes);
    altered[at] ^= 1 << below(random, 8);
    writeFileSync(files[1], altered);
    const expected = t.throws(() => javascriptMerge(files, moduli, 500), { instanceOf: RunFileError }, `byte ${at}`);
    const error = t.throws(() => kernelMerge(kernel, files, moduli, 500), { instanceOf: RunFileError }, `byte ${at}`);
    t.is(error?.message, expected?.message, `byte ${at}`);
    messages.add(expected!.message.replace(/.*: (record \d+: )?/, '').replace(/\d+/g, 'N'));
  }
  t.log([...messages].join('; '));
  // A residue equal to its modulus, written as such (the writer does not check).
  const writer = new RunWriter(files[1], { version: FORMAT_VERSION, width: 19, columns: 19, step: 40, run: 2, moduli }, Buffer.alloc(4096));
  writer.append(0, 5, Uint32Array.of(1), 0);
  writer.append(0, 9, Uint32Array.of(moduli[0]), 0);
  writer.finish();
  const expected = t.throws(() => javascriptMerge(files, moduli, 500), { instanceOf: RunFileError });
  t.regex(expected!.message, /record 2: residue 4294967291 is not below its modulus 4294967291$/);
  t.is(t.throws(() => kernelMerge(kernel, files, moduli, 500))?.message, expected?.message);
  // Both kinds of check answered: a broken record, and the checksum or the sums at the end.
  t.true([...messages].some((message) => /varint|not above|out of range|past the end|not below/.test(message)));
  t.true([...messages].some((message) => /run sum|residue sum|trailer says/.test(message)));
});

test('a residue not below its modulus fails both merges naming that residue: each of 6, four at a time and the rest one by one', (t) => {
  const moduli = largestPrimes(6);
  const kernel = new RunMergeKernel(1, BUFFER, moduli.length);
  const file = path.join(tempScratch(t), 'r.run');
  for (let bad = 0; bad < moduli.length; bad++) {
    const writer = new RunWriter(file, { version: FORMAT_VERSION, width: 19, columns: 19, step: 40, run: 1, moduli }, Buffer.alloc(4096));
    const largest = Uint32Array.from(moduli, (p) => p - 1);
    // Every residue but `bad` below its modulus, and the one after `bad` too large as well: the first is named.
    const broken = Uint32Array.from(moduli, (p, r) => (r === bad ? p + 1 : r === bad + 1 ? p : r));
    writer.append(0, 5, largest, 0);
    writer.append(0, 9, broken, 0);
    writer.finish();
    const expected = t.throws(() => javascriptMerge([file], moduli, 500), { instanceOf: RunFileError });
    t.regex(expected!.message, new RegExp(`record 2: residue ${moduli[bad] + 1} is not below its modulus ${moduli[bad]}$`));
    t.is(t.throws(() => kernelMerge(kernel, [file], moduli, 500))?.message, expected?.message, `residue ${bad}`);
  }
});

test('an over-long varint fails both merges as a damaged varint: more than 5 bytes, or a value of 2^32 or more', (t) => {
  const kernel = new RunMergeKernel(1, BUFFER, 1);
  const moduli = largestPrimes(1);
  const dir = tempScratch(t);
  const file = path.join(dir, 'r.run');
  const writer = new RunWriter(file, { version: FORMAT_VERSION, width: 19, columns: 19, step: 40, run: 1, moduli }, Buffer.alloc(4096));
  writer.append(0, 5, Uint32Array.of(1), 0);
  writer.append(0, 9, Uint32Array.of(2), 0);
  writer.finish();
  const bytes = readFileSync(file);
  const start = headerBytes(1);
  // The first record's first varint is 2·5 + 1 = 11, one byte; the high word's delta, 0, follows.
  t.is(bytes[start], 11);
  const withFirstVarint = (varintBytes: number[]) =>
    Buffer.concat([bytes.subarray(0, start), Buffer.from(varintBytes), bytes.subarray(start + 1)]);
  // 11 in five bytes is long but within the format: both merges read the file as written.
  writeFileSync(file, withFirstVarint([0x8b, 0x80, 0x80, 0x80, 0x00]));
  t.throws(() => javascriptMerge([file], moduli, 10), { message: /run sum mismatch/ });
  t.throws(() => kernelMerge(kernel, [file], moduli, 10), { message: /run sum mismatch/ });
  for (const varintBytes of [
    [0x8b, 0x80, 0x80, 0x80, 0x80, 0x00], // 11 in six bytes
    [0xff, 0xff, 0xff, 0xff, 0x1f], // 2^35 − 1 in five
    [0x81, 0x80, 0x80, 0x80, 0x10], // 2^32 + 1
  ]) {
    writeFileSync(file, withFirstVarint(varintBytes));
    const expected = t.throws(() => javascriptMerge([file], moduli, 10), { instanceOf: RunFileError });
    t.regex(expected!.message, /: record 1: damaged varint$/, varintBytes.join(' '));
    t.is(t.throws(() => kernelMerge(kernel, [file], moduli, 10))?.message, expected?.message, varintBytes.join(' '));
  }
});
