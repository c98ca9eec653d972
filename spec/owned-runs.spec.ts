/**
 * A partitioned worker's runs split by owner: each owner's part is written in large writes, a
 * share of the worker's write buffer, and reads back whole.
 */
import test from 'ava';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { RunReader } from '../lib/format/run-reader.js';
import { RunStore } from '../lib/engine/run-store.js';
import { ownerOf } from '../lib/state/ownership.js';
import { tempScratch } from './support/scratch.js';

test("each owner's part of a run is written a share of the write buffer at a time, not 16 KiB", (t) => {
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
    readBufferBytes: 64 << 10,
    writeBufferBytes: 1 << 20,
  });
  // Count the writes into run files while the run is written.
  const writes = new Map<number, number>();
  const original = fs.writeSync;
  fs.writeSync = ((fd: number, ...rest: unknown[]) => {
    writes.set(fd, (writes.get(fd) ?? 0) + 1);
    return (original as (...args: unknown[]) => number)(fd, ...rest);
  }) as typeof fs.writeSync;
  module.syncBuiltinESMExports();
  const records = 200_000;
  const residues = new Uint32Array([7]);
  let runs;
  try {
    runs = store.writeRun(40, 1, (sink) => {
      for (let i = 0; i < records; i++) sink.append(0, 64 * i, residues, 0);
    });
  } finally {
    fs.writeSync = original;
    module.syncBuiltinESMExports();
  }
  const owned = [0, 1].map(
    (owner) => Array.from({ length: records }, (_, i) => i).filter((i) => ownerOf(0, 64 * i, 2, width) === owner).length,
  );
  t.deepEqual(
    runs.map((run) => [run.worker, run.records]),
    [
      [0, owned[0]],
      [1, owned[1]],
    ],
  );
  // 600 KB a part in 512 KiB writes: records, the rest with the trailer, then the CRC (16 KiB writes: 38).
  t.deepEqual(
    runs.map((run) => run.bytes),
    [600196, 599909],
  );
  t.deepEqual([...writes.values()], [3, 3]);
  for (const run of runs) {
    const reader = new RunReader(
      path.join(scratchDir, '10x10', fs.readdirSync(path.join(scratchDir, '10x10'))[0], 'step-00040', run.file),
      Buffer.alloc(64 << 10),
    );
    let read = 0;
    while (reader.next()) read++;
    reader.close();
    t.is(read, run.records);
  }
});
