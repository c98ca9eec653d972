/** The committed run files of fixtures/runs (3×3 by two workers, 4×4 by one, both with --keep). */
import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fixturesDir } from './paths.js';

export const fixtureRuns = path.join(fixturesDir, 'runs');

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
