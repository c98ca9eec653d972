/**
 * The driver's watch on its task processes' status files (lib/cluster/hang-watch.ts) and its check
 * of a task's runs before a commit (lib/cluster/commit-check.ts), on files written by hand.
 */
import test from 'ava';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { SPLIT_VERSION } from '../../lib/format/split-layout.js';
import { referenceSum } from '../support/run-sum-reference.js';
import { markerRunsProblem, runProblem } from '../../lib/cluster/commit-check.js';
import { HangWatch } from '../../lib/cluster/hang-watch.js';
import { FORMAT_VERSION } from '../../lib/format/layout.js';
import { RunWriter } from '../../lib/format/run-writer.js';
import { tempScratch } from '../support/scratch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const status = (at: number) => JSON.stringify({ parts: [0], pid: 1, host: 'h', step: 3, states: 0, at });

test('a process is silent from the last change of its status file, by the watch’s clock, and only once it has written since its launch', async (t) => {
  const dir = tempScratch(t);
  const file = path.join(dir, 'task-0.json');
  // What a process of an earlier launch left: not a sign of the new one.
  writeFileSync(file, status(1000));
  const watch = new HangWatch([file]);
  await sleep(250);
  t.is(watch.silentFor(0), 0, 'never written since its launch: queued or starting, not hung');
  // The task's clock may be far from the driver's: only that the time changed counts.
  writeFileSync(file, status(5));
  t.true(watch.silentFor(0) < 0.1);
  await sleep(300);
  t.true(watch.silentFor(0) >= 0.25, 'unchanged since');
  writeFileSync(file, status(6));
  t.true(watch.silentFor(0) < 0.1, 'a new write is a sign of life');
  // A file caught mid-write reads as no change.
  writeFileSync(file, '{"parts":[0],"pid"');
  await sleep(150);
  t.true(watch.silentFor(0) >= 0.1);
  // Launched again: silent 0 until the new process writes.
  watch.launched(0);
  t.is(watch.silentFor(0), 0);
});

test('a run is checked against its done-marker: present, its size, and the CRC-32 of its bytes', (t) => {
  const dir = tempScratch(t);
  mkdirSync(dir, { recursive: true });
  const body = Buffer.from('a run file, as bytes before its CRC');
  const tail = Buffer.alloc(4);
  tail.writeUInt32LE(crc32(body), 0);
  writeFileSync(path.join(dir, 'split-w0-00001.run'), Buffer.concat([body, tail]));
  const run = { file: 'split-w0-00001.run', records: 1, sums: [0], bytes: body.length + 4, crc: crc32(body), source: 0 };
  const buffer = Buffer.alloc(8); // smaller than the file: read in pieces
  t.is(runProblem(dir, run, buffer), undefined);
  t.is(
    runProblem(dir, { ...run, bytes: run.bytes + 1 }, buffer),
    `run split-w0-00001.run has ${run.bytes} bytes, its done-marker says ${run.bytes + 1}`,
  );
  const damaged = readFileSync(path.join(dir, run.file));
  damaged[5] ^= 1;
  writeFileSync(path.join(dir, run.file), damaged);
  t.is(runProblem(dir, run, buffer), 'run split-w0-00001.run is damaged (CRC-32 mismatch)');
  t.is(markerRunsProblem(dir, [{ ...run, file: 'split-w1-00001.run' }, run], buffer), 'run split-w1-00001.run is missing');
});

test('a split run is checked by the checksum its version ends it with: the run sum from version 3, the CRC-32 before', (t) => {
  const dir = tempScratch(t);
  mkdirSync(dir, { recursive: true });
  for (const version of [SPLIT_VERSION, 2, 1]) {
    const file = `split-w0-0000${version}.run`;
    const body = Buffer.from(`GOCNTSPL${String.fromCharCode(version, 0)}: the bytes of a split run before its checksum`, 'latin1');
    const checksum = version >= 3 ? referenceSum(body) : crc32(body);
    const tail = Buffer.alloc(4);
    tail.writeUInt32LE(checksum, 0);
    writeFileSync(path.join(dir, file), Buffer.concat([body, tail]));
    const run = { file, records: 1, sums: [0], bytes: body.length + 4, crc: checksum, source: 0 };
    const buffer = Buffer.alloc(8);
    t.is(runProblem(dir, run, buffer), undefined, `version ${version}`);
    const damaged = readFileSync(path.join(dir, file));
    damaged[20] ^= 1;
    writeFileSync(path.join(dir, file), damaged);
    t.is(runProblem(dir, run, buffer), `run ${file} is damaged (${version >= 3 ? 'run sum' : 'CRC-32'} mismatch)`);
  }
});

test('a run file is checked by the checksum its version ends it with: the run sum, or the CRC-32 in version 2', (t) => {
  const dir = tempScratch(t);
  const moduli = [4294967291];
  for (const version of [FORMAT_VERSION, 2]) {
    const file = `run-w0-0000${version}.run`;
    const writer = new RunWriter(path.join(dir, file), { version, width: 3, columns: 3, step: 2, run: 1, moduli }, Buffer.alloc(1 << 14));
    writer.append(0, 5, Uint32Array.of(7), 0);
    writer.append(0, 9, Uint32Array.of(8), 0);
    const run = writer.finish();
    const buffer = Buffer.alloc(8); // smaller than the header: read in pieces
    t.is(runProblem(dir, run, buffer), undefined, `version ${version}`);
    const damaged = readFileSync(path.join(dir, file));
    damaged[damaged.length - 10] ^= 1;
    writeFileSync(path.join(dir, file), damaged);
    t.is(runProblem(dir, run, buffer), `run ${file} is damaged (${version === 2 ? 'CRC-32' : 'run sum'} mismatch)`);
  }
});
