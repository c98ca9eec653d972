/**
 * The checks of files that other products write, which `verify` knows only through this list:
 * each product registers its own (lib/solve/files/file-checks.ts adds the solver's database,
 * checkpoint and table of earlier results; lib/index.ts registers them), so that verify imports
 * none of them.
 */

import type { Problem } from './problems.js';

/** The kinds of file a registered check knows: the solver's (VerifyReport.solveFile). */
export type FileKind = 'database' | 'checkpoint' | 'table';

export interface FileCheck {
  /** What the report calls a file of this kind. */
  readonly kind: FileKind;
  /** Whether a file starts as one of this kind does (or is one cut short). */
  starts(file: string): boolean;
  /** The file checked offline: its records (states) and every problem found; `progress` hears of the records checked. */
  check(file: string, progress: (done: number, total: number) => void): { states: number; problems: Problem[] };
}

const registered: FileCheck[] = [];

/** Adds a check, once per kind; a file is checked by the first registered whose `starts` takes it. */
export function registerFileCheck(check: FileCheck): void {
  if (!registered.some((known) => known.kind === check.kind)) registered.push(check);
}

/** The registered check of a file, or undefined when none takes it. */
export function fileCheckOf(file: string): FileCheck | undefined {
  return registered.find((check) => check.starts(file));
}
