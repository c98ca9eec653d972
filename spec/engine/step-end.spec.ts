// A worker ends a step before the coordinator asks where it can (lib/engine/worker-runner.ts): in
// run files where its table filled, the last run on disk when its expansion is reported and finish
// handing back what it wrote; among workers, a step that fits in memory, which finish writes to
// files from there should a peer's not have fitted. The peers' side of it is in spec/unit/peer.spec.ts.
import test from 'ava';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { WorkerRunner, type StepPart } from '../../lib/engine/worker-runner.js';
import { threadWorkers } from '../../lib/engine/worker-handle.js';
import { moduliAt } from '../../lib/residues/growth.js';
import { paper } from '../support/paper.js';
import { planMemory } from '../../lib/engine/budget.js';
import { moduliFor, splitIntoPasses } from '../../lib/residues/moduli.js';
import { MOST_RESIDUES } from '../../lib/engine/state-table.js';
import { ScratchFolder } from '../../lib/folder/scratch.js';
import { tempScratch } from '../support/scratch.js';

const WIDTH = 7;
const FAN_IN = 4;

const runFiles = (dir: string) =>
  existsSync(dir)
    ? (readdirSync(dir, { recursive: true }) as string[]).filter((file) => file.endsWith('.run')).map((file) => path.basename(file))
    : [];

test('7×7 at 300K: each step whose table fills has its runs on disk when the expansion ends, and finish returns them', async (t) => {
  const scratchDir = tempScratch(t);
  const moduli = splitIntoPasses(moduliFor(WIDTH * WIDTH), MOST_RESIDUES)[0];
  const plan = planMemory(300 << 10, moduli.length, FAN_IN, WIDTH);
  const runner = new WorkerRunner({ width: WIDTH, columns: WIDTH, moduli, plan, fanIn: FAN_IN, scratchDir, worker: 0, workers: 1 });
  const folder = new ScratchFolder(scratchDir, { width: WIDTH, columns: WIDTH, moduli });
  let files: string[] | null = (await runner.begin(true)).map((run) => path.join(folder.stepDir(0), run.file));
  const filled: number[] = [];
  const inMemory: number[] = [];
  for (let step = 0; step < WIDTH * WIDTH; step++) {
    const part = await runner.expand(step, files, () => {});
    const onDisk = runFiles(folder.stepDir(step + 1));
    if (part.spilled > 0) filled.push(step);
    t.is(part.endedInFiles, part.spilled > 0 || !part.fitsInMemory, `step ${step}`);
    // The other steps alternate between files and memory, so that both kinds of source come next.
    const toFiles = part.endedInFiles || step % 2 === 0;
    if (part.endedInFiles) await t.throwsAsync(runner.finish(false), { message: /asked to stay in memory/ });
    const end = await runner.finish(toFiles);
    const written = end.runs.map((run) => path.basename(run.file));
    if (part.endedInFiles)
      t.deepEqual(
        written.filter((file) => !onDisk.includes(file)),
        [],
        `step ${step}: all written before finish`,
      );
    else t.deepEqual(onDisk, [], `step ${step}: nothing written before finish`);
    if (!toFiles) inMemory.push(step);
    files = toFiles ? end.runs.map((run) => path.join(folder.stepDir(step + 1), run.file)) : null;
  }
  t.true(filled.length > 10, `${filled.length} steps filled the table`);
  t.true(inMemory.length >= 3, `${inMemory.length} steps stayed in memory`);
});

/**
 * 7×7 in two worker threads, windows of 3 rows, every step in memory but where `toFiles` says
 * (as the coordinator would for a peer whose states did not fit): the legal states' residues at the
 * end, summed over the workers, and the steps written from memory.
 */
async function twoWorkers(scratchDir: string, toFiles: (step: number, parts: StepPart[]) => boolean) {
  const moduli = splitIntoPasses(moduliFor(WIDTH * WIDTH), MOST_RESIDUES)[0];
  // Through the stream pipeline and the state table, not group steps.
  const plan = { ...planMemory(256 << 20, moduli.length, FAN_IN, WIDTH, 2), groupedRun: false };
  const options = (worker: number) => ({
    width: WIDTH,
    columns: WIDTH,
    moduli,
    plan,
    fanIn: FAN_IN,
    scratchDir,
    worker,
    workers: 2,
    windowRows: WIDTH,
  });
  const folder = new ScratchFolder(scratchDir, { width: WIDTH, columns: WIDTH, moduli });
  const handles = threadWorkers([options(0), options(1)]);
  try {
    await Promise.all(handles.map((handle) => handle.begin(false)));
    let files: Array<string[] | null> = [null, null];
    const fromMemory: number[] = [];
    for (let step = 0; step < WIDTH * WIDTH; step++) {
      const parts = await Promise.all(handles.map((handle, i) => handle.expand(step, files[i], () => {})));
      const written = toFiles(step, parts) || parts.some((part) => part.endedInFiles || part.spilled > 0 || !part.fitsInMemory);
      if (written && !parts.some((part) => part.endedInFiles)) fromMemory.push(step);
      const ends = await Promise.all(handles.map((handle) => handle.finish(written)));
      files = ends.map((end) => (written ? end.runs.map((run) => path.join(folder.stepDir(step + 1), run.file)) : null));
    }
    const sums = await Promise.all(handles.map((handle, i) => handle.legalSums(WIDTH * WIDTH, files[i])));
    const legal = moduliAt(moduli, WIDTH * WIDTH, { width: WIDTH, columns: WIDTH }).map((p, r) => (sums[0][r] + sums[1][r]) % p);
    return { legal, moduli: moduliAt(moduli, WIDTH * WIDTH, { width: WIDTH, columns: WIDTH }), fromMemory };
  } finally {
    await Promise.all(handles.map((handle) => handle.close()));
  }
}

test('7×7 in two workers: steps that stay in memory, or go to files from there at every third step, give L(7,7)', async (t) => {
  const inMemory = await twoWorkers(tempScratch(t), () => false);
  const written = await twoWorkers(tempScratch(t), (step) => step % 3 === 1);
  const L77 = BigInt(paper.legalSquare.values['7']);
  t.deepEqual(
    inMemory.legal,
    inMemory.moduli.map((p) => Number(L77 % BigInt(p))),
  );
  t.deepEqual(written.legal, inMemory.legal);
  t.deepEqual(inMemory.fromMemory, []);
  // Of the 16 steps sent to files, some went there anyway: their states outgrew a worker's run.
  t.true(written.fromMemory.length >= 8, `${written.fromMemory.length} steps written from memory`);
});
