/** The committed run files of fixtures/runs (3×3 by two workers, 4×4 by one, both with --keep), and partitioned folders of versions 3 and 4. */
import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fixturesDir } from './paths.js';
import { moduliFolderName } from '../../lib/format/folder-names.js';

export const fixtureRuns = path.join(fixturesDir, 'runs');

/**
 * A partitioned count folder of count.json version 3, before split runs: 3×3 in 2 partitions
 * (gocount 3x3 --partitions 2 --memory 8M at 209769b), stopped by a task killed in step 6 after
 * writing its runs and before its done-marker (its log folder left out).
 */
export const fixtureRunsV3Partitioned = path.join(fixturesDir, 'runs-v3-partitioned');

/**
 * A partitioned count folder of count.json version 4 written before window ownership: 4×4 in 2
 * partitions of 2 workers (gocount 4x4 --partitions 2 --workers 2 --memory 8M --keep at 7e82748),
 * its states shared out by ownerOf in split runs of version 1. Kept of it: count.json (keep
 * false), step 9 alone, as a count stopped after it leaves it (row 1 of column 3: inside a
 * window of today's default rows), and the first 9 lines of its step log.
 */
export const fixtureRunsV4Partitioned = path.join(fixturesDir, 'runs-v4-partitioned');

/** The one modulus of the fixtures' counts: 3×3 and 4×4 need no other. */
export const FIXTURE_MODULUS = 4294967291;

/** A fixture count's folder under `runs` (fixtureRuns, or a copy of it). */
export function fixtureCount(runs: string, board: '3x3' | '4x4'): string {
  return path.join(runs, board, moduliFolderName([FIXTURE_MODULUS]));
}

/** Every file under dir, recursively, as paths. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** A copy of the fixtures' count folders in `scratch`, to damage freely. */
export function copyFixtureRuns(scratch: string): string {
  const copy = path.join(scratch, 'runs');
  cpSync(fixtureRuns, copy, { recursive: true });
  return copy;
}
