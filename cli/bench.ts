#!/usr/bin/env node
/**
 * `npm run bench`: counts 9×9 and 11×11 (and 13×13 with --with-13) with the built command, each in a
 * child process, and prints wall time, states expanded per second, peak RSS, redundancy and bytes
 * written, and whether the count matches the paper's Table 3. A benchmark, not a test.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { formatBytes, formatCount, formatDuration } from '../lib/units.js';

const TABLE_3: Record<string, string> = {
  '9x9': '103919148791293834318983090438798793469',
  '11x11': '793474866816582266820936671790189132321673383112185151899',
  '13x13': '37249792307686396442294904767024517674249157948208717533254799550970595875237705',
};

const args = yargs(hideBin(process.argv))
  .scriptName('npm run bench --')
  .option('with-13', { type: 'boolean', default: false, describe: 'also count 13×13 (long: see README)' })
  .option('boards', { type: 'string', describe: 'comma-separated boards instead, like 7x7,9x9' })
  .option('memory', { type: 'string', describe: 'passed to gocount --memory' })
  .option('residues-per-pass', { type: 'number', describe: 'passed to gocount --residues-per-pass' })
  .option('workers', { type: 'number', describe: 'passed to gocount --workers' })
  .strict()
  .help()
  .parseSync();

const boards = args.boards ? args.boards.split(',') : ['9x9', '11x11', ...(args['with-13'] ? ['13x13'] : [])];
const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.js');
const memory = args.memory;

console.log(`gocount bench on ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} cores, node ${process.version}`);
console.log('board    wall time   states/s   expanded   peak RSS  redundancy   written   exact');
for (const board of boards) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'gocount-bench-'));
  const flags = [board, '--stats', '--json', '--quiet', '--scratch', scratch];
  if (memory) flags.push('--memory', memory);
  if (args['residues-per-pass']) flags.push('--residues-per-pass', String(args['residues-per-pass']));
  if (args.workers) flags.push('--workers', String(args.workers));
  const started = performance.now();
  const child = spawnSync(process.execPath, [cli, ...flags], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = (performance.now() - started) / 1000;
  rmSync(scratch, { recursive: true, force: true });
  if (child.status !== 0) {
    console.log(`${board.padEnd(8)} failed (exit ${child.status}): ${child.stderr.trim().split('\n').pop()}`);
    process.exitCode = 1;
    continue;
  }
  const out = JSON.parse(child.stdout);
  const stats = out.stats;
  const exact = TABLE_3[board] === undefined ? 'n/a' : TABLE_3[board] === out.legal ? 'yes' : 'NO';
  if (exact === 'NO') process.exitCode = 1;
  console.log(
    [
      board.padEnd(8),
      formatDuration(wall).padStart(9),
      formatCount(stats.statesPerSecond).padStart(10),
      formatCount(stats.statesExpanded).padStart(10),
      formatBytes(stats.peakRss).padStart(10),
      stats.redundancy.toFixed(3).padStart(11),
      formatBytes(stats.bytesWritten).padStart(9),
      exact.padStart(7),
    ].join(' '),
  );
}
