import test from 'ava';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import varint from 'varint';
import { readVarint, writeVarint } from '../../lib/format/varint.js';
import { decodeHeader, decodeTrailer, encodeHeader, encodeTrailerBody, FORMAT_VERSION, headerBytes } from '../../lib/format/layout.js';
import { RunWriter } from '../../lib/format/run-writer.js';
import { RunReader } from '../../lib/format/run-reader.js';
import { PendingCommits } from '../../lib/format/pending-commits.js';
import { RunFileError } from '../../lib/shared/errors.js';
import { moduliFor } from '../../lib/residues/moduli.js';
import { tempScratch } from '../support/scratch.js';

test('varints round-trip every size class and read like the varint package', (t) => {
  const buf = new Uint8Array(16);
  for (const v of [0, 1, 127, 128, 300, 16383, 16384, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31 + 5, 2 ** 32 - 1]) {
    const end = writeVarint(buf, 0, v);
    t.is(end, varint.encodingLength(v));
    t.deepEqual(Array.from(buf.subarray(0, end)), varint.encode(v));
    const cursor = { pos: 0 };
    t.is(readVarint(buf, cursor, end), v);
    t.is(cursor.pos, end);
  }
  t.is(readVarint(Uint8Array.from([0x80, 0x80]), { pos: 0 }, 2), -1, 'cut short');
});

test('headers and trailers round-trip', (t) => {
  const moduli = moduliFor(361);
  const header = { version: FORMAT_VERSION, width: 19, columns: 19, step: 200, run: 7, moduli };
  t.deepEqual(decodeHeader(encodeHeader(header)), header);
  t.is(encodeHeader(header).length, headerBytes(moduli.length));
  const sums = moduli.map((p) => p - 1);
  const body = encodeTrailerBody(2 ** 40 + 3, sums);
  const trailer = Buffer.concat([body, Buffer.from([1, 2, 3, 4])]);
  t.deepEqual(decodeTrailer(trailer, moduli.length), { records: 2 ** 40 + 3, sums, crc: 0x04030201 });
  t.regex(String(decodeHeader(Buffer.from('NOTARUN!'.repeat(8)))), /not a gocount run file/);
});

/** Writes a run of 57-bit states with big gaps, small gaps and high-word changes. */
function writeSample(file: string, moduli: number[], later?: PendingCommits): Array<[number, number, number[]]> {
  const records: Array<[number, number, number[]]> = [];
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < 2000; i++) {
    if (i % 97 === 0) {
      hi += 1 + ((i * 7919) % 2 ** 20);
      lo = (i * 104729) % 2 ** 30;
    } else lo += 1 + ((i * 31) % 4000);
    if (lo >= 2 ** 30) {
      hi++;
      lo -= 2 ** 30;
    }
    records.push([hi, lo, moduli.map((p, r) => (i * 2654435761 + r * 40503) % p)]);
  }
  records.push([2 ** 27 - 1, 2 ** 30 - 1, moduli.map((p) => p - 1)]); // the largest 57-bit state
  const writer = new RunWriter(file, { version: FORMAT_VERSION, width: 19, columns: 3, step: 21, run: 1, moduli }, Buffer.alloc(1 << 16));
  const residues = new Uint32Array(moduli.length);
  for (const [h, l, rs] of records) {
    residues.set(rs);
    writer.append(h, l, residues, 0);
  }
  writer.finish(later);
  return records;
}

test('a run file of 57-bit states round-trips through writer and reader, checked at the end', (t) => {
  const dir = tempScratch(t);
  const file = path.join(dir, 'sample.run');
  const moduli = moduliFor(57);
  const records = writeSample(file, moduli);
  t.false(existsSync(file + '.tmp'));
  const reader = new RunReader(file, Buffer.alloc(8192));
  for (const [hi, lo, rs] of records) {
    t.true(reader.next());
    if (reader.hi !== hi || reader.lo !== lo || Array.from(reader.residues).join() !== rs.join()) {
      t.fail(`record ${reader.records}: ${reader.hi},${reader.lo} ≠ ${hi},${lo}`);
      return;
    }
  }
  t.false(reader.next());
  t.is(reader.records, records.length);
});

test('a run handed to PendingCommits keeps its temporary name until synced: settle() puts it in place, whole', async (t) => {
  const dir = tempScratch(t);
  const moduli = moduliFor(57);
  const later = new PendingCommits();
  const files = ['a.run', 'b.run'].map((name) => path.join(dir, name));
  const written = files.map((file) => writeSample(file, moduli, later));
  // The syncs run on the thread pool; their renames wait for this thread to yield.
  t.deepEqual(readdirSync(dir).sort(), ['a.run.tmp', 'b.run.tmp']);
  t.is(later.size, 2);
  t.is(await later.settle(), undefined);
  t.is(later.size, 0);
  t.deepEqual(readdirSync(dir).sort(), ['a.run', 'b.run']);
  files.forEach((file, f) => {
    const reader = new RunReader(file, Buffer.alloc(8192));
    while (reader.next());
    t.is(reader.records, written[f].length);
  });
});

test('a run whose sync fails is removed, and settle() names it with the error', async (t) => {
  const dir = tempScratch(t);
  const temp = path.join(dir, 'c.run.tmp');
  writeFileSync(temp, 'partial');
  const later = new PendingCommits();
  // A descriptor no process has (one closed could be reused by a test running beside): the sync fails with an errno, as a failing disk's would.
  later.add(2 ** 31 - 1, temp, path.join(dir, 'c.run'));
  const failed = await later.settle();
  t.is(failed?.path, path.join(dir, 'c.run'));
  t.is((failed?.error as NodeJS.ErrnoException).code, 'EBADF');
  t.deepEqual(readdirSync(dir), []);
});

function readAll(file: string): void {
  const reader = new RunReader(file, Buffer.alloc(4096));
  while (reader.next());
}

test('a truncated run file is rejected with a message naming the file', (t) => {
  const dir = tempScratch(t);
  const file = path.join(dir, 'cut.run');
  writeSample(file, moduliFor(30));
  const bytes = readFileSync(file);
  for (const keep of [10, 100, bytes.length - 40, bytes.length - 1]) {
    writeFileSync(file, bytes.subarray(0, keep));
    const error = t.throws(() => readAll(file), { instanceOf: RunFileError });
    t.true(error!.message.startsWith(file), error!.message);
  }
});

test('an altered byte anywhere in a run file is rejected', (t) => {
  const dir = tempScratch(t);
  const file = path.join(dir, 'flip.run');
  writeSample(file, moduliFor(30));
  const bytes = readFileSync(file);
  for (let at = 0; at < bytes.length; at += Math.max(1, Math.floor(bytes.length / 97))) {
    const altered = Buffer.from(bytes);
    altered[at] ^= 0x10;
    writeFileSync(file, altered);
    t.throws(() => readAll(file), { instanceOf: RunFileError }, `byte ${at}`);
  }
  t.deepEqual(readdirSync(dir), ['flip.run']);
});
