// What a count leaves on disk: a kept folder is never removed by a later count, a side file that
// cannot be written never stops one, and nothing it created and did not finish stays behind.
import test from 'ava';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AbortedError, countLegal } from '../../lib/index.js';
import { COUNT_FILE } from '../../lib/format/folder-names.js';
import { copyFixtureRuns, filesUnder, fixtureCount } from '../support/fixture-runs.js';
import { runCli } from '../support/run-cli.js';
import { tempScratch } from '../support/scratch.js';

const L44 = 24318165n;
const L77 = 83677847847984287628595n;
/** Small enough a budget that every step of 7×7 goes to files: there is always a step to resume from. */
const spilling = { m: 7, n: 7, memory: '300K', fanIn: 4, workers: 1 } as const;

const countFileOf = (scratch: string) => {
  const board = path.join(scratch, '7x7');
  return path.join(board, readdirSync(board)[0], COUNT_FILE);
};

test('a kept count is left as it is by a later count without --keep, which prints the number and says why the files stay', async (t) => {
  const scratch = tempScratch(t);
  await countLegal({ ...spilling, scratch, keep: true });
  const before = filesUnder(scratch);
  t.true(before.length > 49, 'every step is kept');
  const notes: string[] = [];
  const again = await countLegal({ ...spilling, scratch, onProgress: (event) => event.type === 'note' && notes.push(event.message) });
  t.is(again.legal, L77);
  t.deepEqual(filesUnder(scratch), before);
  t.true(
    notes.some((note) => /^the count's files stay in .*7x7\/moduli-\d+-[0-9a-f]+: it was counted with --keep$/.test(note)),
    notes.join('\n'),
  );
  t.is(JSON.parse(readFileSync(countFileOf(scratch), 'utf8')).keep, true);
});

test('a count resumed with --keep keeps its folder from then on; one finished without it, resumed or not, removes its folder', async (t) => {
  const scratch = tempScratch(t);
  const stop = new AbortController();
  const stopAt = (controller: AbortController, step: number) => (event: { type: string; report?: { step: number } }) => {
    if (event.type === 'step-end' && event.report!.step === step) controller.abort();
  };
  await t.throwsAsync(countLegal({ ...spilling, scratch, signal: stop.signal, onProgress: stopAt(stop, 10) }), {
    instanceOf: AbortedError,
  });
  t.is(JSON.parse(readFileSync(countFileOf(scratch), 'utf8')).keep, false);
  t.is((await countLegal({ ...spilling, scratch, keep: true })).legal, L77);
  t.is(JSON.parse(readFileSync(countFileOf(scratch), 'utf8')).keep, true);
  t.is((await countLegal({ ...spilling, scratch })).legal, L77);
  t.true(existsSync(countFileOf(scratch)), 'still kept');

  const unkept = tempScratch(t);
  const again = new AbortController();
  await t.throwsAsync(countLegal({ ...spilling, scratch: unkept, signal: again.signal, onProgress: stopAt(again, 10) }));
  t.true(readdirSync(unkept).length > 0);
  t.is((await countLegal({ ...spilling, scratch: unkept })).legal, L77);
  t.deepEqual(readdirSync(unkept), [], 'the resumed count removed what it finished');
});

test('a count folder from before count.json recorded keep, with its steps kept, is left as it is by a later count', async (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  const before = filesUnder(runs);
  const result = await countLegal({ m: 4, n: 4, workers: 1, scratch: runs });
  t.is(result.legal, L44);
  t.deepEqual(filesUnder(runs), before);
  t.is(JSON.parse(readFileSync(path.join(fixtureCount(runs, '4x4'), COUNT_FILE), 'utf8')).keep, undefined, 'count.json untouched');
});

test('a step log that cannot be written once the count has begun costs one warning, not the count', async (t) => {
  // /dev/full takes the empty log the count writes first, then refuses every byte: a full disk.
  const notes: string[] = [];
  const result = await countLegal({
    m: 4,
    n: 4,
    workers: 1,
    scratch: tempScratch(t),
    statsJson: '/dev/full',
    onProgress: (event) => event.type === 'note' && notes.push(event.message),
  });
  t.is(result.legal, L44);
  t.deepEqual(notes, ['cannot write the step log /dev/full: no space left on device (ENOSPC); the count goes on without it']);
});

test('the command with --stats-json on a full disk prints the number, one warning line, and exits 0', (t) => {
  // --quiet: a progress line, which a count slowed past 2 s by a busy machine prints, is not in question here; warnings still print.
  const run = runCli(['3x3', '--stats-json', '/dev/full', '--quiet', '--scratch', tempScratch(t)]);
  t.is(run.status, 0, run.stderr);
  t.is(run.stdout, '12675\n');
  t.is(run.stderr, 'gocount: cannot write the step log /dev/full: no space left on device (ENOSPC); the count goes on without it\n');
});

test('a scratch path too long for the file system leaves no folder behind, and the message shows it shortened', async (t) => {
  const scratch = tempScratch(t);
  // 4,065 characters: the folders can be made, the count's files under them cannot.
  let deep = path.join(scratch, ...Array.from({ length: 19 }, () => 'd'.repeat(200)));
  deep = path.join(deep, 'e'.repeat(4065 - deep.length - 1));
  t.is(deep.length, 4065);
  const error = await t.throwsAsync(countLegal({ m: 9, n: 9, memory: '8M', workers: 1, scratch: deep }));
  t.deepEqual(readdirSync(scratch), []);
  const long = /[^\s]{201,}/.exec(error!.message);
  t.is(long, null, `a path of over 200 characters in: ${error!.message.slice(0, 300)}`);
  t.regex(error!.message, new RegExp(`${scratch.slice(0, 30)}[^\\s]*d…e+/9x9/`));
});

test('a count stopped before its first step on disk removes its folder and the folders it made for it', async (t) => {
  const scratch = tempScratch(t);
  const stop = new AbortController();
  stop.abort();
  await t.throwsAsync(countLegal({ m: 3, n: 3, workers: 1, scratch: path.join(scratch, 'new', 'sub'), signal: stop.signal }), {
    instanceOf: AbortedError,
  });
  t.deepEqual(readdirSync(scratch), []);
  // A folder the user made stays, emptied of what the count put in it.
  mkdirSync(path.join(scratch, 'mine'));
  await t.throwsAsync(countLegal({ m: 3, n: 3, workers: 1, scratch: path.join(scratch, 'mine'), signal: stop.signal }), {
    instanceOf: AbortedError,
  });
  t.deepEqual(readdirSync(scratch), ['mine']);
  t.deepEqual(readdirSync(path.join(scratch, 'mine')), []);
});

test('the folders an interrupted count made are removed by the count that resumes and finishes it', async (t) => {
  const scratch = tempScratch(t);
  const inner = path.join(scratch, 'made', 'by', 'count');
  const stop = new AbortController();
  await t.throwsAsync(
    countLegal({
      ...spilling,
      scratch: inner,
      signal: stop.signal,
      onProgress: (event) => event.type === 'step-end' && event.report.step === 10 && stop.abort(),
    }),
    { instanceOf: AbortedError },
  );
  t.deepEqual(readdirSync(scratch), ['made']);
  t.is((await countLegal({ ...spilling, scratch: inner })).legal, L77);
  t.deepEqual(readdirSync(scratch), []);
});
