/** A fresh scratch folder per test, removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ExecutionContext } from 'ava';

export function tempScratch(t: ExecutionContext): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gocount-spec-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
