import test from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { FORMAT_VERSION, type RunHeader } from '../../lib/format/layout.js';
import { RunReader } from '../../lib/format/run-reader.js';
import { RunSum, summedBuffer } from '../../lib/format/run-sum.js';
import { RunWriter } from '../../lib/format/run-writer.js';
import { RunFileError } from '../../lib/shared/errors.js';
import { checkRunFile } from '../../lib/verify/run-check.js';
import { fixtureCount, fixtureRuns } from '../support/fixture-runs.js';
import { below, replayableRandom } from '../support/random.js';
import { tempScratch } from '../support/scratch.js';
import { referenceSum } from '../support/run-sum-reference.js';

const randomBytes = (random: () => number, n: number): Uint8Array => Uint8Array.from({ length: n }, () => below(random, 256));

test('the run sum equals its word-by-word reference, fed in any pieces, in place or copied', (t) => {
  const random = replayableRandom(t, 'bytes');
  const inPlace = summedBuffer(1 << 18);
  for (const n of [0, 1, 15, 16, 17, 31, 33, 100, 4096, 65536 + 7, 200_001]) {
    const bytes = randomBytes(random, n);
    const expected = referenceSum(bytes);
    for (const where of ['copied', 'in place'] as const) {
      const source = where === 'copied' ? bytes : inPlace.subarray(0, n);
      if (where === 'in place') source.set(bytes);
      const sum = new RunSum();
      for (let at = 0; at < n;) {
        const piece = Math.min(n - at, 1 + below(random, n < 100 ? 20 : 70_000));
        sum.update(source.subarray(at, at + piece));
        at += piece;
      }
      t.is(sum.value(), expected, `${n} bytes, ${where}`);
    }
  }
});

test("the run sum's value can be taken midway, and feeding goes on from where it was", (t) => {
  const random = replayableRandom(t, 'bytes');
  const bytes = randomBytes(random, 1000);
  const sum = new RunSum();
  sum.update(bytes.subarray(0, 123));
  t.is(sum.value(), referenceSum(bytes.subarray(0, 123)));
  sum.update(bytes.subarray(123));
  t.is(sum.value(), referenceSum(bytes));
});

test('the run sum tells apart any one byte changed, two words swapped, and zeros appended', (t) => {
  const random = replayableRandom(t, 'bytes');
  const bytes = randomBytes(random, 4099);
  const value = referenceSum(bytes);
  const sumOf = (b: Uint8Array) => {
    const sum = new RunSum();
    sum.update(b);
    return sum.value();
  };
  t.is(sumOf(bytes), value);
  for (let at = 0; at < bytes.length; at += 1 + below(random, 13)) {
    const changed = Uint8Array.from(bytes);
    changed[at] ^= 1 << below(random, 8);
    t.not(sumOf(changed), value, `byte ${at}`);
  }
  const swapped = Uint8Array.from(bytes);
  swapped.copyWithin(0, 16, 20);
  swapped.set(bytes.subarray(0, 4), 16); // words 0 and 4: the same lane
  t.not(sumOf(swapped), value);
  const longer = new Uint8Array(bytes.length + 5);
  longer.set(bytes);
  t.not(sumOf(longer), value);
});

/** The records of a committed run of version 2 (valid border states), and its header. */
function fixtureRecords(): { header: RunHeader; records: Array<[number, number, number[]]> } {
  const reader = new RunReader(path.join(fixtureCount(fixtureRuns, '3x3'), 'step-00005', 'run-w1-00001.run'), Buffer.alloc(4096));
  const records: Array<[number, number, number[]]> = [];
  while (reader.next()) records.push([reader.hi, reader.lo, Array.from(reader.residues)]);
  return { header: reader.header, records };
}

/** The fixture's records written again, with a header of `version`. */
function rewrite(file: string, version: number): void {
  const { header, records } = fixtureRecords();
  const writer = new RunWriter(file, { ...header, version }, summedBuffer(1 << 14));
  for (const [hi, lo, residues] of records) writer.append(hi, lo, Uint32Array.from(residues), 0);
  writer.finish();
}

test('a run file ends with the run sum of the bytes before it; one of version 2 with their CRC-32, still read and verified', (t) => {
  const dir = tempScratch(t);
  const { header, records } = fixtureRecords();
  t.is(header.version, 2);
  t.true(records.length > 10);
  for (const [version, expected] of [
    [FORMAT_VERSION, referenceSum],
    [2, (b: Uint8Array) => crc32(b)],
  ] as const) {
    const file = path.join(dir, `v${version}.run`);
    rewrite(file, version);
    const bytes = readFileSync(file);
    t.is(bytes.readUInt16LE(8), version);
    t.is(bytes.readUInt32LE(bytes.length - 4), expected(bytes.subarray(0, bytes.length - 4)), `version ${version}`);
    const reader = new RunReader(file, Buffer.alloc(4096));
    const read: Array<[number, number, number[]]> = [];
    while (reader.next()) read.push([reader.hi, reader.lo, Array.from(reader.residues)]);
    t.deepEqual(read, records);
    t.deepEqual(checkRunFile(file).problems, []);
  }
});

test('a run file whose run sum does not match is refused by the reader and reported by verify, naming the sum', (t) => {
  const file = path.join(tempScratch(t), 'bad.run');
  rewrite(file, FORMAT_VERSION);
  const bytes = readFileSync(file);
  const right = bytes.readUInt32LE(bytes.length - 4);
  bytes.writeUInt32LE(right ^ 1, bytes.length - 4);
  writeFileSync(file, bytes);
  const hex = (v: number) => `0x${v.toString(16).padStart(8, '0')}`;
  const problem = `run sum mismatch: trailer says ${hex(right ^ 1)}, content gives ${hex(right)}`;
  const reader = new RunReader(file, Buffer.alloc(4096));
  t.throws(
    () => {
      while (reader.next());
    },
    { instanceOf: RunFileError, message: `${file}: ${problem}` },
  );
  t.deepEqual(
    checkRunFile(file).problems.map((p) => p.problem),
    [problem],
  );
});
