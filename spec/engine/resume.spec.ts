import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import path from 'node:path';
import { SPLIT_VERSION } from '../../lib/format/split-layout.js';
import test, { type ExecutionContext } from 'ava';
import {
  copyFixtureRuns,
  filesUnder,
  fixtureCount,
  FIXTURE_MODULUS,
  fixtureRunsV3Partitioned,
  fixtureRunsV4Partitioned,
} from '../support/fixture-runs.js';
import { ScratchFolder } from '../../lib/folder/scratch.js';
import { readManifest, writeManifest } from '../../lib/format/manifest.js';
import { countLegal } from '../../lib/count/count-legal.js';
import { UsageError } from '../../lib/shared/errors.js';
import { verifyPath } from '../../lib/verify/verify.js';
import {
  COUNT_FILE,
  MANIFEST_FILE,
  RESULT_FILE,
  RUN_SUFFIX,
  stepFolderName,
  stepOfFolder,
  tempPath,
} from '../../lib/format/folder-names.js';
import { runCli } from '../support/run-cli.js';
import { L77, spilling } from '../support/spilling.js';
import { tempScratch } from '../support/scratch.js';
import { once, sharedScratch } from '../support/shared.js';
import { below, replayableRandom } from '../support/random.js';

/** What several tests below share, each made once. */
const shared = sharedScratch();

test('a finished count is renamed before its files go: what a kill then leaves is passed over by verify and cleared by the next count', (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  const count = fixtureCount(runs, '4x4');
  const doomed = tempPath(count);
  renameSync(count, doomed);
  rmSync(path.join(doomed, COUNT_FILE)); // a kill in mid-removal
  rmSync(path.join(doomed, stepFolderName(3)), { recursive: true });
  t.like(JSON.parse(runCli(['verify', runs, '--json']).stdout), { ok: true, counts: 1, steps: 10, problems: [] });
  const run = runCli(['4x4', '--scratch', runs]);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '24318165\n');
  t.deepEqual(readdirSync(runs), ['3x3'], 'the half-removed folder and the emptied board folder are gone');
});

/**
 * A 5×5 count of 3 workers, kept, then made to look interrupted after its step 12 (no result, no
 * later steps): counted once for the tests below; what the command said, and its folder.
 */
const SCRATCH_3_WORKERS = path.join(shared, '3-workers');
const countOf3Workers = once(() => {
  mkdirSync(SCRATCH_3_WORKERS);
  const run = runCli(['5x5', '--keep', '--memory', '900K', '--fan-in', '2', '--quiet', '--scratch', SCRATCH_3_WORKERS, '--workers', '3']);
  const count = path.join(SCRATCH_3_WORKERS, '5x5', readdirSync(path.join(SCRATCH_3_WORKERS, '5x5'))[0]);
  rmSync(path.join(count, RESULT_FILE));
  for (let step = 13; step <= 25; step++) rmSync(path.join(count, stepFolderName(step)), { recursive: true });
  return { run, count };
});

test('a count records the number of its workers', (t) => {
  const { run, count } = countOf3Workers();
  t.is(run.status, 0);
  t.is(JSON.parse(readFileSync(path.join(count, COUNT_FILE), 'utf8')).workers, 3);
});

test('a resume with another number of workers than the count recorded is refused', (t) => {
  countOf3Workers();
  const other = runCli(['5x5', '--scratch', SCRATCH_3_WORKERS, '--workers', '2']);
  t.is(other.status, 2);
  t.regex(other.stderr, /^gocount: --workers 2: step 12 in .* was written by 3 workers: resume it with 3, or leave the number out\n$/);
});

test('a resume without --workers takes the number the count recorded', (t) => {
  countOf3Workers();
  // A copy, the test's own to resume: the other tests look at the interrupted count.
  const scratch = tempScratch(t);
  cpSync(SCRATCH_3_WORKERS, scratch, { recursive: true });
  const run = runCli(['5x5', '--scratch', scratch]);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '414295148741\n');
  t.regex(run.stderr, /steps 1–12 of 25 are complete in .*: resuming at step 13/);
});

test('a flipped byte in the step a count would resume from is caught; the count falls back a step and stays exact', (t) => {
  const random = replayableRandom(t, 'resume step, file and byte');
  for (const [board, legal, workers] of [
    ['4x4', '24318165', '1'],
    ['3x3', '12675', '2'],
  ]) {
    for (let trial = 0; trial < 3; trial++) {
      const scratch = tempScratch(t);
      const count = fixtureCount(copyFixtureRuns(scratch), board as '3x3' | '4x4');
      const steps = readdirSync(count).filter((name) => stepOfFolder(name) !== undefined).length - 1;
      const resumeAt = 1 + below(random, steps);
      rmSync(path.join(count, RESULT_FILE));
      for (let step = resumeAt + 1; step <= steps; step++) rmSync(path.join(count, stepFolderName(step)), { recursive: true });
      const runs = filesUnder(path.join(count, stepFolderName(resumeAt))).filter((file) => file.endsWith(RUN_SUFFIX));
      const file = runs[below(random, runs.length)];
      const bytes = readFileSync(file);
      bytes[below(random, bytes.length)] ^= 0x40;
      writeFileSync(file, bytes);
      const run = runCli([board, '--scratch', path.dirname(path.dirname(count)), '--workers', workers]);
      t.is(run.status, 0, run.stderr);
      t.is(run.stdout, `${legal}\n`);
      t.regex(run.stderr, new RegExp(`not resuming from step ${resumeAt}: .*${path.basename(file)}`));
      const done = resumeAt - 1;
      const complete =
        done === 0
          ? 'no step is complete yet in .*, only the empty board: starting at step 1'
          : done === 1
            ? `step 1 of ${steps} is complete in .*: resuming at step 2`
            : `steps 1–${done} of ${steps} are complete in .*: resuming at step ${resumeAt}`;
      t.regex(run.stderr, new RegExp(complete));
    }
  }
});

test('--quiet still prints the warning that a count does not resume from a damaged step, and where it resumes instead', (t) => {
  const count = fixtureCount(copyFixtureRuns(tempScratch(t)), '4x4');
  rmSync(path.join(count, RESULT_FILE));
  for (let step = 11; step <= 16; step++) rmSync(path.join(count, stepFolderName(step)), { recursive: true });
  const [file] = filesUnder(path.join(count, stepFolderName(10))).filter((name) => name.endsWith(RUN_SUFFIX));
  const bytes = readFileSync(file);
  bytes[bytes.length >> 1] ^= 0x40;
  writeFileSync(file, bytes);
  const run = runCli(['4x4', '--quiet', '--scratch', path.dirname(path.dirname(count)), '--workers', '1']);
  t.is(run.stdout, '24318165\n');
  t.regex(
    run.stderr,
    new RegExp(
      `^gocount: not resuming from step 10: .*${path.basename(file)}.*\ngocount: steps 1–9 of 16 are complete in .*: resuming at step 10\n`,
    ),
  );
});

/** The arguments of a 7×7 count through files in `scratch`. */
const spilling7x7 = (scratch: string) => ['7x7', ...spilling, '--scratch', scratch, '--workers', '2'];

/** A 7×7 count stopped by a full disk, once for the two tests below: what it said, and the files it left. */
const stoppedByAFullDisk = once(() => {
  const scratch = mkdtempSync(path.join(shared, 'disk-full-'));
  const full = runCli(spilling7x7(scratch), { env: { GOCOUNT_DISK_FULL_AFTER: '1000000' } });
  return { scratch, full, left: filesUnder(scratch) };
});

test('disk full: a clear message, exit 1, no temporary file left, finished steps kept', (t) => {
  const { full, left } = stoppedByAFullDisk();
  t.is(full.status, 1);
  t.is(full.stdout, '');
  t.regex(
    full.stderr,
    /^gocount: disk full while writing .*\.run; finished steps are kept: free some space and run the same count again to resume\n$/,
  );
  t.deepEqual(
    left.filter((file) => file.endsWith('.tmp')),
    [],
  );
  t.true(left.some((file) => file.endsWith(MANIFEST_FILE)));
});

test('after a full disk the same count resumes exactly', (t) => {
  const again = runCli(spilling7x7(stoppedByAFullDisk().scratch));
  t.is(again.status, 0, again.stderr);
  t.is(again.stdout, `${L77}\n`);
});

test('a pass finished before a crash is not counted again; the next pass resumes from its last step', (t) => {
  const scratch = tempScratch(t);
  const args = ['5x5', '--residues-per-pass', '1', '--keep', '--scratch', scratch, '--workers', '1'];
  t.is(runCli(args).stdout, '414295148741\n');
  const counts = readdirSync(path.join(scratch, '5x5')).map((name) => path.join(scratch, '5x5', name));
  t.is(counts.length, 2);
  // Make the second pass look interrupted after step 10: no result, no later steps.
  const second = counts.find((dir) => JSON.parse(readFileSync(path.join(dir, COUNT_FILE), 'utf8')).moduli[0] === 4294967279)!;
  rmSync(path.join(second, RESULT_FILE));
  for (let step = 11; step <= 25; step++) rmSync(path.join(second, `step-${String(step).padStart(5, '0')}`), { recursive: true });
  const run = runCli(args);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '414295148741\n');
  t.regex(run.stderr, /pass 1 was finished before/);
  t.regex(run.stderr, /steps 1–10 of 25 are complete in .*: resuming at step 11/);
});

test('a step retired while the next one runs is renamed away at once, then removed without blocking its caller', async (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  const scratch = new ScratchFolder(runs, { width: 4, columns: 4, moduli: [FIXTURE_MODULUS] });
  const step = path.join(fixtureCount(runs, '4x4'), stepFolderName(7));
  const removal = scratch.removeStepLater(7);
  t.false(scratch.steps().includes(7), 'no listing sees the step once the call returns');
  t.false(existsSync(step));
  t.true(existsSync(tempPath(step)), 'its files are still going');
  await removal;
  t.false(existsSync(tempPath(step)));
  t.deepEqual(scratch.steps(), [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  await scratch.removeStepLater(7); // gone already: nothing to do
});

test('a kill while a retired step is being removed leaves its renamed folder: verify passes over it, and the resumed count clears it and stays exact', (t) => {
  const scratch = tempScratch(t);
  const args = ['5x5', '--keep', '--scratch', scratch, '--workers', '1'];
  t.is(runCli(args).stdout, '414295148741\n');
  const count = path.join(scratch, '5x5', readdirSync(path.join(scratch, '5x5'))[0]);
  rmSync(path.join(count, RESULT_FILE));
  for (let step = 11; step <= 25; step++) rmSync(path.join(count, stepFolderName(step)), { recursive: true });
  const doomed = tempPath(path.join(count, stepFolderName(9)));
  renameSync(path.join(count, stepFolderName(9)), doomed);
  rmSync(path.join(doomed, MANIFEST_FILE)); // half of its files gone
  t.like(JSON.parse(runCli(['verify', count, '--json']).stdout), { ok: true, problems: [] });
  const run = runCli(args);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '414295148741\n');
  t.regex(run.stderr, /steps 1–10 of 25 are complete in .*: resuming at step 11/);
  t.false(existsSync(doomed));
});

test('a folder of another count, format, ownership rule or worker count is refused with exit 2, not overwritten', (t) => {
  const scratch = tempScratch(t);
  t.is(runCli(['4x4', '--keep', '--scratch', scratch, '--workers', '1', '--memory', '300K', '--fan-in', '2']).status, 0);
  const count = path.join(scratch, '4x4', readdirSync(path.join(scratch, '4x4'))[0]);
  rmSync(path.join(count, RESULT_FILE));
  const workers = runCli(['4x4', '--scratch', scratch, '--workers', '2']);
  t.is(workers.status, 2);
  t.regex(workers.stderr, /--workers 2: step 16 in .* was written by 1 worker: resume it with 1, or leave the number out\n$/);

  const countFile = path.join(count, COUNT_FILE);
  const identity = JSON.parse(readFileSync(countFile, 'utf8'));
  writeFileSync(countFile, JSON.stringify({ ...identity, version: 99 }));
  const version = runCli(['4x4', '--scratch', scratch]);
  t.is(version.status, 2);
  t.regex(version.stderr, /holds format version 99, this gocount writes 3; remove it or choose another scratch folder\n$/);
  // Count folders of the older versions are refused too: 1 (before counts grew with the step) and
  // 2 (runs named by partition).
  for (const old of [1, 2]) {
    writeFileSync(countFile, JSON.stringify({ ...identity, version: old }));
    t.regex(
      runCli(['4x4', '--scratch', scratch]).stderr,
      new RegExp(`holds format version ${old}, this gocount writes 3; remove it or choose another scratch folder\n$`),
    );
  }
  // A count whose states were shared out by an earlier rule (one field left out, not up to four).
  writeFileSync(countFile, JSON.stringify({ ...identity, ownership: 'ownerOf-v2 mod partitions*workers' }));
  const ownership = runCli(['4x4', '--scratch', scratch]);
  t.is(ownership.status, 2);
  t.regex(
    ownership.stderr,
    /shares states out by ownerOf-v2 mod partitions\*workers, this gocount by windows-v1 over workers; remove it or choose another scratch folder\n$/,
  );
  writeFileSync(countFile, JSON.stringify({ ...identity, columns: 5 }));
  t.regex(runCli(['4x4', '--scratch', scratch]).stderr, /holds a 4-wide sweep of 5 columns, not 4 of 4/);
  rmSync(countFile);
  t.regex(runCli(['4x4', '--scratch', scratch]).stderr, /is not empty and has no readable count.json/);
  t.true(existsSync(path.join(count, stepFolderName(16), MANIFEST_FILE)), 'nothing was overwritten');

  const stranger = fixtureCount(path.join(scratch, 'elsewhere'), '3x3');
  mkdirSync(stranger, { recursive: true });
  writeFileSync(path.join(stranger, 'notes.txt'), 'mine');
  const refused = runCli(['3x3', '--scratch', path.join(scratch, 'elsewhere')]);
  t.is(refused.status, 2);
  t.is(readFileSync(path.join(stranger, 'notes.txt'), 'utf8'), 'mine');
});

/** A copy of the fixture's partitioned count folder of version 3, the test's own: its scratch folder and count folder. */
function partitionedVersion3(t: ExecutionContext): { copy: string; count: string } {
  const copy = path.join(tempScratch(t), 'v3');
  cpSync(fixtureRunsV3Partitioned, copy, { recursive: true });
  return { copy, count: fixtureCount(copy, '3x3') };
}

test('a partitioned count folder of version 3 is refused in one line naming both versions, and left as it is', async (t) => {
  const { copy, count } = partitionedVersion3(t);
  const files = filesUnder(count).map((file) => [file, readFileSync(file)]);
  const refusal = `scratch folder ${count} holds format version 3, this gocount writes 4; remove it or choose another scratch folder`;
  const refused = runCli(['3x3', '--partitions', '2', '--scratch', copy, '--memory', '8M']);
  t.is(refused.status, 2);
  t.is(refused.stderr, `gocount: ${refusal}\n`);
  // Without partitions the count takes those it recorded, and is refused the same way.
  await t.throwsAsync(countLegal({ m: 3, n: 3, scratch: copy, memory: '8M' }), { instanceOf: UsageError, message: refusal });
  t.deepEqual(
    filesUnder(count).map((file) => [file, readFileSync(file)]),
    files,
  );
});

test('a step written when every state carried residues for 3^step is refused in one line, and nothing of the folder is removed', (t) => {
  // 6×6: after 25 points a state carries one residue (growth.ts); an earlier gocount gave them two.
  const scratch = tempScratch(t);
  t.is(runCli(['6x6', '--keep', '--quiet', '--scratch', scratch]).status, 0);
  const count = path.join(scratch, '6x6', readdirSync(path.join(scratch, '6x6'))[0]);
  rmSync(path.join(count, RESULT_FILE));
  for (let step = 26; step <= 36; step++) rmSync(path.join(count, stepFolderName(step)), { recursive: true });
  const manifestFile = path.join(count, stepFolderName(25), MANIFEST_FILE);
  const manifest = readManifest(manifestFile);
  const wider = (sums: number[]) => [...sums, 0];
  writeManifest(manifestFile, {
    ...manifest,
    moduli: manifest.countModuli.slice(0, 2),
    sums: wider(manifest.sums),
    dropped: wider(manifest.dropped),
    runs: manifest.runs.map((run) => ({ ...run, sums: wider(run.sums) })),
    crc: undefined,
  });
  const files = filesUnder(count).map((file) => [file, readFileSync(file)]);
  const refused = runCli(['6x6', '--scratch', scratch]);
  t.is(refused.status, 2);
  t.is(
    refused.stderr,
    `gocount: step 25 in ${count} carries 2 residues a state where this gocount carries 1: an earlier gocount wrote it, and finishes it; or count again in another scratch folder\n`,
  );
  t.deepEqual(
    filesUnder(count).map((file) => [file, readFileSync(file)]),
    files,
  );
});

test('verify names a partitioned count folder of version 3, and does not check its steps', (t) => {
  const { copy, count } = partitionedVersion3(t);
  t.deepEqual(verifyPath(copy).problems, [
    {
      file: path.join(count, COUNT_FILE),
      problem: 'a partitioned count of format version 3, this gocount reads 4: its steps were not checked',
    },
  ]);
});

test('a count folder of version 3 of a count in one process resumes, its two workers’ states shared out by ownerOf, under windows', async (t) => {
  // A count in one process writes what version 3 did: its folder resumes, and stays version 3.
  const runs = copyFixtureRuns(tempScratch(t));
  const inProcess = fixtureCount(runs, '3x3');
  const written = JSON.parse(readFileSync(path.join(inProcess, COUNT_FILE), 'utf8'));
  t.like(written, { workers: 2, ownership: 'ownerOf-v3 over partitions*workers' });
  rmSync(path.join(inProcess, RESULT_FILE));
  for (let step = 6; step <= 9; step++) rmSync(path.join(inProcess, stepFolderName(step)), { recursive: true });
  const notes: string[] = [];
  const resumed = await countLegal({
    m: 3,
    n: 3,
    scratch: runs,
    workers: 2,
    memory: '8M',
    onProgress: (event) => event.type === 'note' && notes.push(event.message),
  });
  t.is(resumed.legal, 12675n);
  t.true(
    notes.some((note) => /steps 1–5 of 9 are complete in .*: resuming at step 6/.test(note)),
    notes.join('\n'),
  );
  t.is(JSON.parse(readFileSync(path.join(inProcess, COUNT_FILE), 'utf8')).version, 3);
});

test('a partitioned count folder written before windows (ownerOf, split runs of version 1) resumes inside a window, exact, and verifies clean', async (t) => {
  const copy = path.join(tempScratch(t), 'v4');
  cpSync(fixtureRunsV4Partitioned, copy, { recursive: true });
  const count = fixtureCount(copy, '4x4');
  t.like(JSON.parse(readFileSync(path.join(count, COUNT_FILE), 'utf8')), { version: 4, ownership: 'ownerOf-v3 over partitions*workers' });
  const splitVersion = (step: number) => {
    const dir = path.join(count, stepFolderName(step));
    const file = readdirSync(dir).find((name) => name.startsWith('split-'))!;
    return readFileSync(path.join(dir, file)).readUInt16LE(8);
  };
  t.is(splitVersion(9), 1);
  const notes: string[] = [];
  const resumed = await countLegal({
    m: 4,
    n: 4,
    scratch: copy,
    partitions: 2,
    workers: 2,
    launcher: 'local',
    memory: '8M',
    keep: true,
    onProgress: (event) => event.type === 'note' && notes.push(event.message),
  });
  t.is(resumed.legal, 24318165n);
  t.true(
    notes.some((note) => /steps 1–9 of 16 are complete in .*: resuming at step 10/.test(note)),
    notes.join('\n'),
  );
  // Its old files and the new ones, split by window, each checked by its own rule.
  t.is(splitVersion(10), SPLIT_VERSION);
  t.like(verifyPath(copy), { steps: 8, problems: [] });
});
