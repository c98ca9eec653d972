/**
 * What several tests of a file share, made once: the costly setup (a count, a solve) behind tests
 * that check one behaviour each, which would otherwise each make it again.
 */
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `make`, run by the first test that asks and remembered for the others: what it returned, or
 * what it threw, thrown again to each (a promise it returned that rejects is remembered as it is).
 */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | { error: unknown } | undefined;
  return () => {
    if (made === undefined) {
      try {
        made = { value: make() };
      } catch (error) {
        made = { error };
      }
    }
    if ('error' in made) throw made.error;
    return made.value;
  };
}

/**
 * A scratch folder for what the tests of a file share (what `once` makes), removed after them
 * all; call it where the file declares its tests.
 */
export function sharedScratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gocount-spec-'));
  test.after.always(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
