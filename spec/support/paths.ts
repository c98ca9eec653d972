/** Paths the specs read, from the compiled spec's place in dist/spec/support. */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const fixturesDir = path.join(repoRoot, 'fixtures');
export const sharedReference = path.join(repoRoot, '..', 'shared', 'reference', 'paper-tables.json');
export const cliPath = path.join(repoRoot, 'dist', 'cli', 'main.js');
