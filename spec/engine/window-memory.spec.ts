import test from 'ava';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { oracleCount } from '../support/oracle.js';
import type { EngineOptions } from '../../lib/count/engine-types.js';
import { MANIFEST_FILE, stepFolderName, taskMarkerName } from '../../lib/format/folder-names.js';
import { readManifest, StepManifest, writeManifest } from '../../lib/format/manifest.js';
import { readTaskMarker } from '../../lib/format/task-marker.js';
import { unitsOf } from '../../lib/cluster/task-layout.js';
import { tempScratch } from '../support/scratch.js';
import { verifyPath } from '../../lib/verify/verify.js';
import { keptCount, SWEEP_8X6 } from '../support/kept-count.js';

/**
 * A partitioned count's tasks keep the states of a window's steps in memory (lib/cluster/task.ts):
 * only a window's first step writes its successors, which change owner there, to the folder.
 */
const SWEEP = SWEEP_8X6;
const STEPS = SWEEP.width * SWEEP.columns;
const ROWS = 3;
const count = (scratchDir: string, options: Partial<EngineOptions> = {}) =>
  keptCount(scratchDir, { windowRows: ROWS, partitioned: { partitions: 2, launcher: 'local', retries: 0, threads: 1 }, ...options });

/** Each task process serves one part here (a core each): the processes that keep states in memory. */
const onePartEach = unitsOf(2, os.availableParallelism()).every((parts) => parts.length === 1);

const passOf = (scratchDir: string) => path.join(scratchDir, '8x6', readdirSync(path.join(scratchDir, '8x6'))[0]);
const manifestOf = (pass: string, step: number) => readManifest(path.join(pass, stepFolderName(step), MANIFEST_FILE));
/** Whether the step after `step` − 1 points placed a window's first row: its successors were written. */
const written = (step: number) => step === STEPS || ((step - 1) % SWEEP.width) % ROWS === 0;

/** The distinct states of every step, from a count in one process with every step kept (one run a step, 8×6 fits its table). */
async function statesPerStep(t: Parameters<typeof tempScratch>[0]): Promise<number[]> {
  const scratchDir = tempScratch(t);
  await count(scratchDir, { partitioned: undefined });
  const pass = passOf(scratchDir);
  return Array.from({ length: STEPS + 1 }, (_, step) => manifestOf(pass, step).records);
}

test('a partitioned count keeps the steps inside a window in its tasks’ memory: no runs there, each worker’s states given once, as many as the distinct states; verified clean; exact', async (t) => {
  const scratchDir = tempScratch(t);
  const [result, distinct] = await Promise.all([count(scratchDir), statesPerStep(t)]);
  t.is(result.legal, oracleCount(SWEEP));
  const pass = passOf(scratchDir);
  let heldSteps = 0;
  for (let step = 1; step <= STEPS; step++) {
    const manifest = manifestOf(pass, step);
    const held = manifest.held ?? [];
    if (!onePartEach || written(step)) {
      t.deepEqual(held, [], `step ${step}`);
      t.true(manifest.runs.length > 0, `step ${step}: no runs`);
      continue;
    }
    // Held: no file; each of the 2 workers once; the states held add up to the step's distinct states, so none is held twice.
    heldSteps++;
    t.deepEqual(manifest.runs, [], `step ${step}`);
    t.deepEqual(held.map((part) => part.worker).sort(), [0, 1], `step ${step}`);
    t.is(manifest.records, distinct[step], `step ${step}: records held against distinct states`);
    for (const part of [0, 1]) {
      const marker = readTaskMarker(path.join(pass, stepFolderName(step), taskMarkerName(part)));
      t.deepEqual(marker.held, [held.find((h) => h.worker === part)], `step ${step}, task ${part}`);
    }
  }
  const inside = Array.from({ length: STEPS }, (_, i) => i + 1).filter((step) => !written(step));
  if (onePartEach) t.is(heldSteps, inside.length);
  else t.log('one process serves both parts on this machine: every step is written');
  t.like(verifyPath(scratchDir), { problems: [] });
});

/** Rewrites a held step's manifest (its CRC made to match) with worker 1's held residue sums, and so the step's, changed. */
function forgeHeldSums(pass: string, step: number): void {
  const file = path.join(pass, stepFolderName(step), MANIFEST_FILE);
  const manifest = readManifest(file);
  const held = manifest.held!.map((part) =>
    part.worker === 1 ? { ...part, sums: part.sums.map((sum, r) => (sum + 1) % manifest.moduli[r]) } : part,
  );
  // The manifest's own totals agree with the forged entries: what a faulty task's marker would have given.
  const sums = manifest.sums.map((sum, r) => (sum + 1) % manifest.moduli[r]);
  const { crc: _crc, ...rest } = manifest;
  writeManifest(file, { ...rest, held, sums } as StepManifest);
}

/**
 * 8×6 stopped once step 21 is committed: asked to stop as step 22 begins. Step 21 (made by the step
 * that placed row 4) and 22 (row 5) are inside the window of rows 3–5, whose first step wrote step
 * 20. The unfinished step 22 is removed, so that both tasks start again at step 21.
 */
async function stoppedInsideAWindow(scratchDir: string): Promise<string> {
  const controller = new AbortController();
  await count(scratchDir, {
    signal: controller.signal,
    onProgress: (event) => {
      if (event.type === 'step-start' && event.step === 22) controller.abort();
    },
  }).then(
    () => {
      throw new Error('the count was not stopped');
    },
    () => {},
  );
  const pass = passOf(scratchDir);
  rmSync(path.join(pass, stepFolderName(22)), { recursive: true, force: true });
  return pass;
}

const taskLogs = (pass: string) =>
  readdirSync(path.join(pass, 'logs'))
    .filter((name) => name.endsWith('.log'))
    .map((name) => readFileSync(path.join(pass, 'logs', name), 'utf8'))
    .join('');

test('a partitioned count stopped inside a window resumes there: its tasks count their states again from the window’s written step, checked against the manifests, exact', async (t) => {
  if (!onePartEach) return t.pass('one process serves both parts on this machine: no step is held');
  const scratchDir = tempScratch(t);
  const pass = await stoppedInsideAWindow(scratchDir);
  t.truthy(manifestOf(pass, 21).held, 'step 21 held');
  t.is(manifestOf(pass, 20).held, undefined, 'step 20 written');
  const notes: string[] = [];
  const resumed = await count(scratchDir, { onProgress: (event) => event.type === 'note' && notes.push(event.message) });
  t.is(resumed.legal, oracleCount(SWEEP));
  t.true(
    notes.some((note) => /steps 1–21 of 48 are complete in .*: resuming at step 22/.test(note)),
    notes.join('\n'),
  );
  const log = taskLogs(pass);
  for (const part of [0, 1])
    t.regex(
      log,
      new RegExp(
        `task ${part} of step 21 done: [\\d,]+ states expanded \\(its states counted again from step 20, where they were last written\\)`,
      ),
    );
  t.like(verifyPath(scratchDir), { problems: [] });
});

test('held states whose sums a manifest gives otherwise are caught: verify names the step, and a task counting them again stops the count rather than go on', async (t) => {
  if (!onePartEach) return t.pass('one process serves both parts on this machine: no step is held');
  const scratchDir = tempScratch(t);
  const pass = await stoppedInsideAWindow(scratchDir);
  forgeHeldSums(pass, 21);
  const problems = verifyPath(scratchDir).problems.map((p) => `${p.file}: ${p.problem}`);
  t.true(
    problems.some((p) => /step-00021.*held in memory otherwise than the manifest does/.test(p)),
    problems.join('\n'),
  );
  t.true(
    problems.some((p) => /step-00021: conservation fails from step 20/.test(p)),
    problems.join('\n'),
  );
  const error = await t.throwsAsync(count(scratchDir));
  t.regex(error!.message, /^step 22: task 1 did not finish after 0 retries/);
  t.regex(taskLogs(pass), /step 21 in .*: task 1's states, counted again from step 20, are not those its done-marker recorded/);
});
