/**
 * A real file system of a few MiB for one test: a tmpfs mounted on a fresh folder, unmounted after
 * the test. Mounting needs root, as CI has; elsewhere the tests that need one are skipped, and say so.
 */
import type { ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { tempScratch } from './scratch.js';

export const canMount = process.getuid?.() === 0 && process.platform === 'linux';

export function smallFileSystem(t: ExecutionContext, size: string): string {
  const dir = tempScratch(t);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) throw new Error(`cannot mount a tmpfs of ${size} on ${dir}: ${mounted.stderr}`);
  // Registered after tempScratch's removal, so run before it: teardowns run last first.
  t.teardown(() => void spawnSync('umount', [dir]));
  return dir;
}
