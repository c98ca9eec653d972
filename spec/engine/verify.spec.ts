import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import test, { type ExecutionContext } from 'ava';
import { decodeHeader, FORMAT_VERSION, RunHeader, trailerBytes } from '../../lib/format/layout.js';
import { writeManifest } from '../../lib/format/manifest.js';
import { RunWriter } from '../../lib/format/run-writer.js';
import { RunReader } from '../../lib/format/run-reader.js';
import { readWholeRun, SectionReader } from '../../lib/format/section-reader.js';
import { RunStore } from '../../lib/engine/run-store.js';
import { splitRule } from '../../lib/engine/step-routing.js';
import { RunFileError } from '../../lib/shared/errors.js';
import { checkSplitFile } from '../../lib/verify/split-check.js';
import {
  CHUNK_ENTRY_BYTES,
  decodeChunkEntry,
  decodeFooter,
  decodeSectionEntry,
  decodeSplitHeader,
  type SectionEntry,
  sectionEntryBytes,
  splitFooterBytes,
  type SplitFooter,
  type SplitHeader,
  SPLIT_VERSION,
} from '../../lib/format/split-layout.js';
import { verifyPath } from '../../lib/verify/verify.js';
import { copyFixtureRuns, filesUnder, fixtureCount, fixtureRuns } from '../support/fixture-runs.js';
import { COUNT_FILE, MANIFEST_FILE, moduliFolderName, runFileName, stepFolderName, tempPath } from '../../lib/format/folder-names.js';
import { runCli } from '../support/run-cli.js';
import { testRefusals } from '../support/refusals.js';
import { tempScratch } from '../support/scratch.js';
import { spilling } from '../support/spilling.js';
import { replayableRandom } from '../support/random.js';
import { referenceSum } from '../support/run-sum-reference.js';

const count4 = fixtureCount(fixtureRuns, '4x4');
const P = 4294967291;

test('verify: the committed fixtures are clean, exit 0, with a one-line summary', (t) => {
  const run = runCli(['verify', fixtureRuns]);
  t.is(run.status, 0);
  t.is(run.stdout, 'checked 2 counts, 27 steps, 37 run files, 1426 records: no problems\n');
  t.is(run.stderr, '');
});

test('verify takes a run file, a step folder, a manifest or a board folder, and --json', (t) => {
  t.is(runCli(['verify', path.join(count4, stepFolderName(6), runFileName(1))]).stdout, 'checked 1 run file, 93 records: no problems\n');
  t.is(runCli(['verify', path.join(count4, stepFolderName(6))]).stdout, 'checked 1 step, 1 run file, 93 records: no problems\n');
  t.is(runCli(['verify', path.join(count4, stepFolderName(6), MANIFEST_FILE)]).status, 0);
  t.is(runCli(['verify', path.join(fixtureRuns, '3x3')]).stdout, 'checked 1 count, 10 steps, 20 run files, 170 records: no problems\n');
  const json = JSON.parse(runCli(['verify', fixtureRuns, '--json']).stdout);
  t.like(json, { ok: true, counts: 2, steps: 27, files: 37, records: 1426, problems: [] });
});

test('every flipped byte in a run file is caught by verify, naming the file', (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  const files = filesUnder(runs).filter((file) => file.endsWith('.run'));
  const next = replayableRandom(t, `${files.length} run files`);
  const trials = 300;
  let caught = 0;
  for (let trial = 0; trial < trials; trial++) {
    const file = files[Math.floor(next() * files.length)];
    const original = readFileSync(file);
    const damaged = Buffer.from(original);
    const at = Math.floor(next() * damaged.length);
    damaged[at] ^= 1 + Math.floor(next() * 255);
    writeFileSync(file, damaged);
    const report = verifyPath(runs);
    if (report.problems.some((problem) => problem.file === file)) caught++;
    else t.fail(`flip at byte ${at} of ${file} went unnoticed`);
    writeFileSync(file, original);
  }
  t.is(caught, trials);
  t.deepEqual(verifyPath(runs).problems, []);
});

/**
 * The states of the 4×4 fixture's step 11 as worker 1 of 3 in a partitioned count writes them: one
 * split run, in chunks of 64 bytes, so that each section spans several.
 */
async function splitRunOfFixture(t: ExecutionContext, workers = 3): Promise<{ file: string; records: number }> {
  const scratch = tempScratch(t);
  const store = new RunStore({
    width: 4,
    columns: 4,
    moduli: [P],
    scratchDir: scratch,
    fanIn: 4,
    worker: 1,
    workers,
    partitioned: true,
    ownerChunkBytes: 64,
    readBufferBytes: 1 << 12,
    writeBufferBytes: 1 << 16,
  });
  // Made by step 10, in the window of rows 2–3 of column 2, its buckets dealt out in turn.
  store.splitBy(splitRule(10, { width: 4, columns: 4, windowRows: 2, workers: 3 }));
  const reader = new RunReader(path.join(count4, stepFolderName(11), runFileName(1)), Buffer.alloc(1 << 12));
  const [run] = store.writeRun(11, 1, (sink) => {
    while (reader.next()) sink.append(reader.hi, reader.lo, reader.residues, 0);
  });
  await store.settleWrites();
  return { file: path.join(scratch, '4x4', moduliFolderName([P]), stepFolderName(11), run.file), records: reader.records };
}

/** A split run's sections: for each owner its index entry and its chunks' bytes, in stream order. */
function splitSections(file: Buffer): { header: SplitHeader; footer: SplitFooter; entries: SectionEntry[]; bytes: Buffer[] } {
  const header = decodeSplitHeader(file) as SplitHeader;
  const k = header.moduli.length;
  const footer = decodeFooter(file.subarray(file.length - splitFooterBytes(k)), k) as SplitFooter;
  const entries: SectionEntry[] = [];
  const bytes: Buffer[] = [];
  for (let g = 0; g < header.owners; g++) {
    const entry = decodeSectionEntry(file, footer.indexOffset + g * sectionEntryBytes(k), k);
    const chunks = Array.from({ length: entry.chunks }, (_, c) =>
      decodeChunkEntry(file, footer.indexOffset + header.owners * sectionEntryBytes(k) + (entry.firstChunk + c) * CHUNK_ENTRY_BYTES),
    );
    entries.push(entry);
    bytes.push(Buffer.concat(chunks.map((chunk) => file.subarray(chunk.offset, chunk.offset + chunk.bytes))));
  }
  return { header, footer, entries, bytes };
}

test('a split run ends with the run sum of its bytes and gives each section the run sum of its chunks in order, an empty one 0; one of version 2, with CRC-32s, is still read and verified', async (t) => {
  // Four owners, but the buckets dealt among three: worker 3's section is empty.
  const { file, records } = await splitRunOfFixture(t, 4);
  const whole = readFileSync(file);
  const { header, footer, entries, bytes } = splitSections(whole);
  t.is(header.version, SPLIT_VERSION);
  t.is(footer.crc, referenceSum(whole.subarray(0, whole.length - 4)));
  t.deepEqual(
    entries.map((entry) => entry.crc),
    bytes.map((section) => (section.length === 0 ? 0 : referenceSum(section))),
  );
  t.deepEqual(
    entries.map((entry) => entry.chunks === 0),
    [false, false, false, true],
  );

  // The same file as version 2 writes it: the header's version, the sections' and the file's CRC-32s.
  const older = Buffer.from(whole);
  older.writeUInt16LE(2, 8);
  const k = header.moduli.length;
  bytes.forEach((section, g) => older.writeUInt32LE(crc32(section), footer.indexOffset + g * sectionEntryBytes(k) + 16));
  older.writeUInt32LE(crc32(older.subarray(0, older.length - 4)), older.length - 4);
  writeFileSync(file, older);
  t.like(readWholeRun(file, Buffer.alloc(1 << 12)), { records });
  t.like(verifyPath(file), { files: 1, records, problems: [] });
  older.writeUInt32LE(1, footer.indexOffset + 16); // worker 0's CRC-32, the file's made to match
  older.writeUInt32LE(crc32(older.subarray(0, older.length - 4)), older.length - 4);
  writeFileSync(file, older);
  t.deepEqual(
    verifyPath(file).problems.map((p) => p.problem),
    [`worker 0's section: CRC-32 mismatch: the index says 0x00000001, its bytes give 0x${crc32(bytes[0]).toString(16).padStart(8, '0')}`],
  );
  older.writeUInt16LE(9, 8);
  writeFileSync(file, older);
  t.deepEqual(
    verifyPath(file).problems.map((p) => p.problem),
    ['split run file format version 9, this gocount reads versions 1, 2 and 3'],
  );
});

test("every flipped byte in a split run file is caught by verify, naming it, and by the engine's reader", async (t) => {
  const { file, records } = await splitRunOfFixture(t);
  t.like(verifyPath(file), { files: 1, records, problems: [] });
  t.deepEqual(checkSplitFile(file, { width: 4, columns: 4, step: 11, moduli: [P], owners: 3 }).problems, []);
  const original = readFileSync(file);
  const next = replayableRandom(t, `${original.length} bytes`);
  const trials = 300;
  let caught = 0;
  for (let trial = 0; trial < trials; trial++) {
    const damaged = Buffer.from(original);
    const at = Math.floor(next() * damaged.length);
    damaged[at] ^= 1 + Math.floor(next() * 255);
    writeFileSync(file, damaged);
    const { problems } = verifyPath(file);
    if (problems.length > 0 && problems.every((problem) => problem.file === file)) caught++;
    else t.fail(`flip at byte ${at} went unnoticed: ${JSON.stringify(problems)}`);
    t.throws(() => readWholeRun(file, Buffer.alloc(1 << 12)), { instanceOf: RunFileError }, `byte ${at}`);
  }
  t.is(caught, trials);
});

test('a changed byte in a manifest is caught by its CRC', (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  const manifestFile = path.join(fixtureCount(runs, '4x4'), stepFolderName(7), MANIFEST_FILE);
  const text = readFileSync(manifestFile, 'utf8');
  writeFileSync(manifestFile, text.replace('"records": ', '"records": 1'));
  t.deepEqual(
    verifyPath(runs).problems.map((p) => p.problem),
    ['CRC-32 of the manifest does not match its content'],
  );
});

test('a .run file without its magic is a damaged run file', (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  const runFile = path.join(fixtureCount(runs, '4x4'), stepFolderName(7), runFileName(1));
  const bytes = readFileSync(runFile);
  bytes[0] ^= 0x20;
  writeFileSync(runFile, bytes);
  const run = runCli(['verify', runFile]);
  t.is(run.status, 1);
  t.regex(run.stdout, /run-00001\.run: not a gocount run file \(bad magic\)/);
});

test('verify reports a broken conservation law, missing, extra and temporary files (and folders named as runs), and unfinished steps', (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  const count = fixtureCount(runs, '4x4');
  const manifestFile = path.join(count, stepFolderName(5), MANIFEST_FILE);
  // A manifest whose CRC matches but whose numbers are wrong, as a faulty program would write it.
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  manifest.dropped[0] += 1;
  writeManifest(manifestFile, { ...manifest, crc: undefined });
  rmSync(path.join(count, stepFolderName(9), runFileName(1)));
  writeFileSync(path.join(count, stepFolderName(10), runFileName(2)), 'stray');
  mkdirSync(path.join(count, stepFolderName(10), runFileName(3))); // a folder named as a run
  writeFileSync(path.join(count, stepFolderName(11), tempPath(runFileName(2))), 'half');
  rmSync(path.join(count, stepFolderName(12), MANIFEST_FILE));
  const run = runCli(['verify', runs]);
  t.is(run.status, 1);
  const lines = run.stdout.trim().split('\n');
  t.deepEqual(lines.slice(0, -1).sort(), [
    `${count}/step-00005: conservation fails from step 4: 3 × its sum ≠ this step's sum + the dropped sum, modulo ${P}`,
    `${count}/step-00009/manifest.json: lists run-00001.run, which is missing`,
    `${count}/step-00010/run-00002.run: run file not listed in the manifest`,
    `${count}/step-00010/run-00003.run: run file not listed in the manifest`,
    `${count}/step-00011/run-00002.run.tmp: temporary file left by an interrupted write`,
    `${count}/step-00012/manifest.json: no manifest: this step was never completed`,
  ]);
  t.is(lines.at(-1), 'checked 2 counts, 27 steps, 35 run files, 1164 records: 6 problems');
});

test('a count whose steps carry more residues as they grow, and fewer after a column, verifies clean, and its checks hold across both', (t) => {
  // 6×6: a state after 23 points counts below the first modulus, the states after 24 (a column's end) sum to
  // L(6, 4) above it, a state after 25 counts below it again, one after 26 above (growth.ts).
  const scratch = tempScratch(t);
  t.is(runCli(['6x6', '--keep', '--workers', '2', '--quiet', '--scratch', scratch]).stdout, '62567386502084877\n');
  const count = path.join(scratch, '6x6', readdirSync(path.join(scratch, '6x6'))[0]);
  const manifestOf = (step: number) => JSON.parse(readFileSync(path.join(count, stepFolderName(step), MANIFEST_FILE), 'utf8'));
  t.deepEqual(
    [23, 24, 25, 26].map((step) => manifestOf(step).moduli.length),
    [1, 2, 1, 2],
  );
  t.is(manifestOf(25).columnSums[3].length, 2, 'column sums are lifted to every modulus');
  t.regex(runCli(['verify', count]).stdout, /: no problems\n$/);

  // The dropped sum across the narrowing and across the growth is checked, on the modulus both steps carry.
  for (const step of [25, 26]) {
    const after = manifestOf(step);
    const manifestFile = path.join(count, stepFolderName(step), MANIFEST_FILE);
    const dropped = [(after.dropped[0] + 1) % after.moduli[0], ...after.dropped.slice(1)];
    writeManifest(manifestFile, { ...after, dropped, crc: undefined });
    t.regex(
      runCli(['verify', count]).stdout,
      new RegExp(`step-000${step}: conservation fails from step ${step - 1}: .* modulo ${after.moduli[0]}\n`),
    );
    writeManifest(manifestFile, { ...after, crc: undefined });
  }
  // A step that carries one residue too few is refused.
  const step26 = manifestOf(26);
  const first = (residues: number[]) => residues.slice(0, 1);
  const runs = step26.runs.map((run: { sums: number[] }) => ({ ...run, sums: first(run.sums) }));
  const fewer = { ...step26, moduli: first(step26.moduli), sums: first(step26.sums), dropped: first(step26.dropped), runs, crc: undefined };
  writeManifest(path.join(count, stepFolderName(26), MANIFEST_FILE), fewer);
  t.regex(
    runCli(['verify', count]).stdout,
    /step-00026\/manifest.json: carries residues for 1 moduli; step 26 needs the fewest leading ones whose product exceeds what one of its states may count/,
  );
});

test('verify checks that every state is a valid border state for its step, and in increasing order', (t) => {
  const dir = tempScratch(t);
  const write = (name: string, step: number, states: [number, number][]) => {
    const file = path.join(dir, name);
    const writer = new RunWriter(file, { version: FORMAT_VERSION, width: 4, columns: 4, step, run: 1, moduli: [P] }, Buffer.alloc(1 << 16));
    for (const [hi, lo] of states) writer.append(hi, lo, Uint32Array.of(1), 0);
    writer.finish();
    return file;
  };
  // At step 6 of a 4×4 sweep, no field is an edge; 0x253 is ".XO." (fixture record 3).
  t.deepEqual(verifyPath(write('good.run', 6, [[0, 0x253]])).problems, []);
  // 0x48 is "..##", a state of step 2 (same y): canonical, but its edges are impossible at step 6.
  const edge = verifyPath(write('edge.run', 6, [[0, 0x48]])).problems;
  t.is(edge.length, 1);
  t.regex(edge[0].problem, /state hi=0x0 lo=0x48 has an edge at field 2, impossible after this step/);
  t.is(edge[0].record, 1);
  const messy = verifyPath(
    write('messy.run', 6, [
      [0, 0x253],
      [0, 0x277],
    ]),
  ).problems;
  t.regex(messy[0].problem, /state hi=0x0 lo=0x277 is not a canonical border state/);
  t.is(messy[0].record, 2);
  const twice = verifyPath(
    write('twice.run', 6, [
      [0, 0x253],
      [0, 0x253],
    ]),
  ).problems;
  t.deepEqual(
    twice.map((p) => [p.record, p.problem]),
    [[2, 'state is not above the one before; later records not checked']],
  );
});

test('inspect prints the header, trailer and rendered records, --first of them from --skip on', (t) => {
  const file = path.join(count4, stepFolderName(6), runFileName(1));
  const run = runCli(['inspect', file, '--first', '3', '--skip', '2']);
  t.is(run.status, 0);
  t.is(
    run.stdout,
    [
      `file     ${file} (528 bytes)`,
      'format   gocount run file, version 2',
      'sweep    4 wide, 4 columns',
      'step     6 points placed (column 2, next point at y = 2)',
      'run      1',
      'moduli   4294967291',
      'trailer  93 records, residue sums 657, CRC-32 0x8db9b002',
      '',
      '  record  state  code                      residues',
      '       3  .XO.   hi=0x0 lo=0x253           18',
      '       4  .O..   hi=0x0 lo=0x259           18',
      '       5  .OO.   hi=0x0 lo=0x25b           16',
      '',
    ].join('\n'),
  );
});

test('inspect --json gives the header, trailer and records', (t) => {
  const file = path.join(count4, stepFolderName(6), runFileName(1));
  const json = JSON.parse(runCli(['inspect', file, '--first', '1', '--json']).stdout);
  t.like(json, { header: { width: 4, columns: 4, step: 6, moduli: [P] }, trailer: { records: 93 } });
  t.deepEqual(json.records[0].residues.length, 1);
});

test("verify checks each state of a split run against its header's owner table: a table changed (its checksum made to match) names the owner", async (t) => {
  const { file } = await splitRunOfFixture(t);
  const changed = readFileSync(file);
  // The table follows the header's owners, writer and window words (bytes 24–35): every bucket to the next owner of 3.
  for (let b = 0; b < 4096; b++) changed.writeUInt16LE((changed.readUInt16LE(36 + 2 * b) + 1) % 3, 36 + 2 * b);
  changed.writeUInt32LE(referenceSum(changed.subarray(0, changed.length - 4)), changed.length - 4);
  writeFileSync(file, changed);
  t.deepEqual(
    verifyPath(file).problems.map((p) => p.problem),
    [0, 1, 2].map((g) => `worker ${g}'s section, record 1: state is worker ${(g + 1) % 3}'s; later records of the section not checked`),
  );
});

test("inspect shows a split run's sections, and their records numbered within each", async (t) => {
  const { file } = await splitRunOfFixture(t);
  const run = runCli(['inspect', file, '--first', '3', '--skip', '35']);
  t.is(run.status, 0, run.stderr);
  t.is(
    run.stdout,
    [
      `file     ${file} (9501 bytes)`,
      'format   gocount split run file, version 3',
      'sweep    4 wide, 4 columns',
      'step     11 points placed (column 3, next point at y = 3)',
      'run      1',
      'owners   3, written by worker 1',
      "window   rows 2–3 of an inner column; each state is the owner of its key's bucket, of 4096 in the header",
      'moduli   4294967291',
      'footer   159 records, residue sums 137261, run sum 0x71d66374; index at byte 9053, 17 chunks',
      '',
      'worker    records   chunks        bytes  run sum',
      '     0         37        4          192  0xf5203970',
      '     1        107       11          551  0x95a01793',
      '     2         15        2           78  0x3e41afc7',
      '',
      'worker    record  state  code                      residues',
      '     0        36  aaab   hi=0x0 lo=0xfec           60',
      '     0        37  aaaa   hi=0x0 lo=0xffd           30',
      '     1         1  ....   hi=0x0 lo=0x249           1923',
      '',
    ].join('\n'),
  );
});

test('a count folder moved or archived without its board folder verifies clean, by its folder or its count.json', (t) => {
  const scratch = tempScratch(t);
  const moved = path.join(scratch, 'archive', path.basename(count4));
  cpSync(count4, moved, { recursive: true });
  for (const target of [moved, path.join(moved, COUNT_FILE), path.join(scratch, 'archive')]) {
    const run = runCli(['verify', target]);
    t.is(run.stdout, 'checked 1 count, 17 steps, 17 run files, 1256 records: no problems\n', target);
    t.is(run.status, 0);
  }
  // Under a board folder of another size, the name no longer matches what count.json says.
  const misplaced = path.join(scratch, '5x5', path.basename(count4));
  cpSync(count4, misplaced, { recursive: true });
  t.regex(runCli(['verify', misplaced]).stdout, /count.json: describes another count than its folder's name/);
});

test('inspect of a run file cut short exits 1 whatever --first asks for', (t) => {
  const file = path.join(tempScratch(t), runFileName(1));
  const whole = readFileSync(path.join(count4, stepFolderName(6), runFileName(1)));
  writeFileSync(file, whole.subarray(0, whole.length - 10));
  for (const first of ['1', '10', '1000']) {
    const run = runCli(['inspect', file, '--first', first]);
    t.is(run.status, 1, `--first ${first}`);
    t.regex(run.stderr, /^gocount: .+\n$/);
  }
});

test('inspect of a run file with a byte changed past the records it prints exits 1 with the problem', (t) => {
  const file = path.join(tempScratch(t), runFileName(1));
  const whole = readFileSync(path.join(count4, stepFolderName(6), runFileName(1)));
  const changed = Buffer.from(whole);
  // A residue byte of the last record: its state still decodes, so only the sums and the CRC-32 tell.
  const k = (decodeHeader(whole) as RunHeader).moduli.length;
  changed[changed.length - trailerBytes(k) - 1] ^= 1;
  writeFileSync(file, changed);
  const run = runCli(['inspect', file, '--first', '1']);
  t.is(run.status, 1);
  t.regex(run.stdout, /^ {7}1 {2}/m, 'the record asked for is printed');
  t.regex(run.stderr, /^gocount: .*: (residue sum \d+ is|CRC-32 mismatch)[^\n]*\n$/);
});

test('inspect --skip past the last record says so, with the number of records the file holds', async (t) => {
  const file = path.join(count4, stepFolderName(6), runFileName(1));
  for (const skip of ['93', '1000']) {
    const run = runCli(['inspect', file, '--skip', skip]);
    t.is(run.status, 0);
    t.is(
      run.stdout.split('\n').slice(6).join('\n'),
      `trailer  93 records, residue sums 657, CRC-32 0x8db9b002\n\n--skip ${skip} is past the last record: the file holds 93 records\n`,
    );
  }
  const { file: split } = await splitRunOfFixture(t);
  t.regex(runCli(['inspect', split, '--skip', '159']).stdout, /\n\n--skip 159 is past the last record: the file holds 159 records\n$/);
  t.regex(
    runCli(['inspect', file, '--skip', '92']).stdout,
    /\n {6}93 {2}aaaa {3}hi=0x0 lo=0xbff {11}2\n$/,
    'the last record is still printed',
  );
});

test("a CRC-32 prints in hex, 8 digits, in inspect's and verify's lines alike", async (t) => {
  const file = path.join(tempScratch(t), runFileName(1));
  const changed = readFileSync(path.join(count4, stepFolderName(6), runFileName(1)));
  changed.writeUInt32LE(1, changed.length - 4); // the trailer's CRC-32
  writeFileSync(file, changed);
  const mismatch = 'CRC-32 mismatch: trailer says 0x00000001, content gives 0x8db9b002';
  const inspected = runCli(['inspect', file, '--first', '0']);
  t.is(inspected.status, 1);
  t.is(inspected.stderr, `gocount: ${file}: ${mismatch}\n`);
  t.is(runCli(['verify', file]).stdout, `${file}: ${mismatch}\nchecked 1 run file, 93 records: 1 problem\n`);
  // A split run: its footer's run sum and a section's in the index, as the engine's reader reports them.
  const { file: split } = await splitRunOfFixture(t);
  const whole = readFileSync(split);
  const footerCrc = Buffer.from(whole);
  footerCrc.writeUInt32LE(1, footerCrc.length - 4);
  writeFileSync(split, footerCrc);
  t.throws(() => readWholeRun(split, Buffer.alloc(1 << 12)), {
    message: `${split}: run sum mismatch: the footer says 0x00000001, content gives 0x71d66374`,
  });
  const sectionCrc = Buffer.from(whole);
  const indexOffset = sectionCrc.readUInt32LE(sectionCrc.lastIndexOf('GOCNTIDX') + 8);
  sectionCrc.writeUInt32LE(1, indexOffset + 16); // worker 0's entry: first chunk, chunks, records (2 × u32), run sum
  writeFileSync(split, sectionCrc);
  const section = new SectionReader(split, 0, Buffer.alloc(1 << 12));
  t.throws(
    () => {
      while (section.next());
    },
    { message: `${split}: worker 0's section: run sum mismatch: the index says 0x00000001, its bytes give 0xf5203970` },
  );
});

const badInput: Array<[string[], RegExp]> = [
  [['verify', 'package.json'], /package.json: not a gocount run file \(it does not start with GOCNTRUN or GOCNTSPL\)/],
  [['verify', 'no/such/place'], /no\/such\/place: no such file or folder/],
  [['verify', 'lib'], /lib: holds no gocount count folder/],
  [['inspect', 'package.json'], /package.json: not a gocount run file/],
  [['inspect', 'no/such.run'], /no\/such.run: no such file/],
  [['inspect', path.join(count4, stepFolderName(6), runFileName(1)), '--first', '-1'], /--first -1: must be a whole number/],
];

testRefusals(badInput);

test('verify exits 3 for a count stopped before its end (a step without its manifest yet), 1 once anything is damaged', (t) => {
  const scratch = tempScratch(t);
  // A disk that fills while a step is written: a clean stop, which the same count resumes.
  const full = runCli(['7x7', ...spilling, '--workers', '1', '--scratch', scratch], { env: { GOCOUNT_DISK_FULL_AFTER: '1000000' } });
  t.is(full.status, 1, full.stderr);
  const stopped = runCli(['verify', scratch]);
  t.is(stopped.status, 3, stopped.stdout);
  t.regex(stopped.stdout, /step-\d+\/manifest\.json: no manifest: this step was never completed\n/);
  t.regex(stopped.stdout, /: no damage; a count is running here, or was stopped before its end and resumes when run again\n$/);
  const json = JSON.parse(runCli(['verify', scratch, '--json']).stdout);
  t.like(json, { ok: false, status: 'unfinished' });
  t.true(json.problems.every((problem: { unfinished?: boolean }) => problem.unfinished));

  // The complete step before it, damaged: exit 1, and the unfinished step is still named.
  const count = path.join(scratch, '7x7', readdirSync(path.join(scratch, '7x7'))[0]);
  const complete = readdirSync(count).filter((name) => existsSync(path.join(count, name, MANIFEST_FILE)));
  const run = filesUnder(path.join(count, complete.at(-1)!)).find((file) => file.endsWith('.run'))!;
  const bytes = readFileSync(run);
  bytes[bytes.length >> 1] ^= 0xff;
  writeFileSync(run, bytes);
  const damaged = runCli(['verify', scratch]);
  t.is(damaged.status, 1, damaged.stdout);
  t.like(verifyPath(scratch), { status: 'damaged' });
});

test('a step without its manifest before a complete step is damage, not a count stopped midway', (t) => {
  const runs = copyFixtureRuns(tempScratch(t));
  rmSync(path.join(fixtureCount(runs, '4x4'), stepFolderName(12), MANIFEST_FILE));
  const report = verifyPath(runs);
  t.is(report.status, 'damaged');
  t.deepEqual(
    report.problems.map((problem) => [path.basename(path.dirname(problem.file)), problem.unfinished]),
    [['step-00012', false]],
  );
});
