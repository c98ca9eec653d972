/**
 * A partitioned worker's run split by owner in WebAssembly (lib/engine/owner-split.ts): each
 * owner's section against a run file of its records, and the writes of a split run file (the
 * module's owners against the window keys' reference: spec/unit/window-key.spec.ts).
 */
import test from 'ava';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { OwnerSplit } from '../../lib/engine/owner-split.js';
import { RunStore } from '../../lib/engine/run-store.js';
import { FORMAT_VERSION, headerBytes, trailerBytes } from '../../lib/format/layout.js';
import { RunWriter } from '../../lib/format/run-writer.js';
import { readSplitIndex, SectionReader } from '../../lib/format/section-reader.js';
import { CHUNK_ENTRY_BYTES, decodeChunkEntry, sectionEntryBytes, SPLIT_VERSION } from '../../lib/format/split-layout.js';
import { SplitRunWriter } from '../../lib/format/split-run-writer.js';
import { BUCKETS } from '../../lib/border/window-key.js';
import { splitRule } from '../../lib/engine/step-routing.js';
import { below, replayableRandom } from '../support/random.js';
import { tempScratch } from '../support/scratch.js';
import { largestPrimes } from '../../lib/residues/moduli.js';

// Residues are encoded and summed four at a time, the rest one by one: 2 residues take one way, 5 both.
for (const moduli of [[2147483647, 2147483629], largestPrimes(5)]) {
  test(`each owner's section holds its records in order, encoded byte for byte as a run file of them, in chunks of whole records: ${moduli.length} residues`, (t) => {
    const random = replayableRandom(t, 'records and blocks');
    const dir = tempScratch(t);
    const width = 13;
    const owners = 5;
    const k = moduli.length;
    const chunkBytes = 300; // room for 10 to 16 records of at most 10 + 4k bytes: many chunks
    // Distinct states in increasing order, hi words of up to 9 bits, with random residues.
    const n = 20_000;
    const keys = new Set<number>();
    while (keys.size < n) keys.add(below(random, 2 ** 39));
    const sorted = [...keys].sort((a, b) => a - b);
    const states = Uint32Array.from(sorted.flatMap((key) => [Math.floor(key / 2 ** 30), key % 2 ** 30]));
    const residues = Uint32Array.from({ length: k * n }, (_, i) => below(random, moduli[i % k]));
    // Split by the window of rows 0–2 of column 3 (the states are not border states, but each still has a key).
    const window = { r: 0, rows: 3, lastColumn: false, owners: Uint16Array.from({ length: BUCKETS }, (_, b) => (b * 3) % owners) };
    const header = { version: SPLIT_VERSION, width, columns: width, step: 40, run: 1, moduli, owners, writer: 3, window };
    const file = path.join(dir, 'split-w3-00001.run');
    const writer = new SplitRunWriter(file, header, Buffer.alloc(1 << 12));
    const split = new OwnerSplit(owners, width, chunkBytes, moduli.length);
    split.routeBy({ ...window, y: 40 % width });
    split.begin(writer, moduli);
    // In blocks of random sizes, and a stretch one record at a time.
    for (let at = 0; at < n;) {
      const size = Math.min(n - at, 1 + below(random, 3000));
      if (below(random, 4) === 0) for (let i = at; i < at + size; i++) split.append(states[2 * i], states[2 * i + 1], residues, k * i);
      else split.appendSorted(states.subarray(2 * at), residues.subarray(k * at), size);
      at += size;
    }
    const summary = writer.finish(split.end());
    t.is(summary.records, n);

    const fd = fs.openSync(file, 'r');
    const index = readSplitIndex(file, fd);
    const chunkTable = index.footer.indexOffset + owners * sectionEntryBytes(moduli.length);
    const table = Buffer.alloc(index.footer.chunks * CHUNK_ENTRY_BYTES);
    fs.readSync(fd, table, 0, table.length, chunkTable);
    fs.closeSync(fd);
    const chunks = Array.from({ length: index.footer.chunks }, (_, c) => decodeChunkEntry(table, c * CHUNK_ENTRY_BYTES));
    t.true(chunks.length > 100, `${chunks.length} chunks`);
    const bytes = fs.readFileSync(file);
    for (let owner = 0; owner < owners; owner++) {
      const mine = sorted.map((_, i) => i).filter((i) => split.windowOwnerOf(states[2 * i], states[2 * i + 1]) === owner);
      const reader = new SectionReader(file, owner, Buffer.alloc(1 << 12));
      const read: number[] = [];
      while (reader.next()) read.push(reader.hi * 2 ** 30 + reader.lo, ...reader.residues);
      t.deepEqual(
        read,
        mine.flatMap((i) => [sorted[i], ...residues.subarray(k * i, k * i + k)]),
        `owner ${owner}`,
      );
      // The section's bytes are those of a run file of the same records, between its header and trailer.
      const runFile = path.join(dir, `owner-${owner}.run`);
      const run = new RunWriter(
        runFile,
        { version: FORMAT_VERSION, width, columns: width, step: 40, run: 1, moduli },
        Buffer.alloc(1 << 16),
      );
      for (const i of mine) run.append(states[2 * i], states[2 * i + 1], residues, k * i);
      run.finish();
      const runBytes = fs.readFileSync(runFile);
      const own = chunks.filter((chunk) => chunk.owner === owner);
      t.deepEqual(
        Buffer.concat(own.map((chunk) => bytes.subarray(chunk.offset, chunk.offset + chunk.bytes))),
        runBytes.subarray(headerBytes(moduli.length), runBytes.length - trailerBytes(moduli.length)),
      );
      // Every chunk but an owner's last was written when another record might not fit.
      t.true(own.slice(0, -1).every((chunk) => chunk.bytes > chunkBytes - (10 + 4 * moduli.length)));
      t.is(
        own.reduce((sum, chunk) => sum + chunk.records, 0),
        mine.length,
      );
    }
  });
}

test("a partitioned worker's run is one split run file, its chunks gathered into writes of its buffer", async (t) => {
  const scratchDir = tempScratch(t);
  const width = 10;
  const store = new RunStore({
    width,
    columns: 10,
    moduli: [2147483647],
    scratchDir,
    fanIn: 4,
    worker: 0,
    workers: 2,
    partitioned: true,
    ownerChunkBytes: 256 << 10,
    readBufferBytes: 64 << 10,
    writeBufferBytes: 1 << 20,
  });
  // Count the writes into run files while the run is written.
  const writes: number[] = [];
  const original = fs.writeSync;
  fs.writeSync = ((fd: number, buffer: Uint8Array, offset?: number, ...rest: unknown[]) => {
    const done = (original as (...args: unknown[]) => number)(fd, buffer, offset, ...rest);
    writes.push(done);
    return done;
  }) as typeof fs.writeSync;
  module.syncBuiltinESMExports();
  const records = 200_000;
  const residues = new Uint32Array([7]);
  const rule = splitRule(39, { width, columns: 10, windowRows: 3, workers: 2 });
  store.splitBy(rule);
  let runs;
  try {
    runs = store.writeRun(40, 1, (sink) => {
      for (let i = 0; i < records; i++) sink.append(0, 64 * i, residues, 0);
    });
  } finally {
    fs.writeSync = original;
    module.syncBuiltinESMExports();
  }
  await store.settleWrites();
  t.is(runs.length, 1);
  t.like(runs[0], { file: 'split-w0-00001.run', records, source: 0 });
  // 1.2 MB in two writes: the header (with its owner table, 8 KiB) and three full chunks of
  // 256 KiB, gathered, then the last chunks, the index and the footer.
  t.deepEqual(writes, [794635, 413802]);
  t.is(runs[0].bytes, 794635 + 413802);
  const file = path.join(scratchDir, '10x10', fs.readdirSync(path.join(scratchDir, '10x10'))[0], 'step-00040', runs[0].file);
  const owners = new OwnerSplit(2, width, 1 << 10, 1);
  owners.routeBy({ ...rule, y: 40 % width });
  for (let owner = 0; owner < 2; owner++) {
    const reader = new SectionReader(file, owner, Buffer.alloc(64 << 10));
    let read = 0;
    while (reader.next()) read++;
    t.is(read, Array.from({ length: records }, (_, i) => i).filter((i) => owners.windowOwnerOf(0, 64 * i) === owner).length);
  }
});
