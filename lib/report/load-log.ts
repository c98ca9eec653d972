/**
 * Finding a count's per-step log from what the user points at: a count folder (its steps.jsonl),
 * a board or scratch folder above count folders (one folder per pass, their logs joined), or a
 * file written by --stats-json. Also whether a count is running in those folders, by their locks.
 */

import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import fse from 'fs-extra';
import { UsageError } from '../shared/errors.js';
import { isStale, readLockHolder } from '../folder/lock.js';
import { COUNT_FILE, LOCK_FILE } from '../format/folder-names.js';
import { findCountFolders, statUserPath } from '../format/find-counts.js';
import { parsePassResults, PassResultLine, STEP_LOG_FILE, STEP_LOG_FORMAT, StepLogEntry, stepLogEntries } from '../format/step-log.js';

export interface LoadedLog {
  readonly path: string;
  /** The log files read, in pass order. */
  readonly files: readonly string[];
  readonly entries: readonly StepLogEntry[];
  /** The result lines of the passes that finished (format/step-log.ts), in pass order. */
  readonly results: readonly PassResultLine[];
  /** Set when a count holds a lock on one of the folders: who holds it, and whether it still runs. */
  readonly lock?: { readonly holder: string; readonly alive: boolean };
}

export function loadStepLog(target: string): LoadedLog {
  const stat = statUserPath(target);
  if (stat.isFile()) return { path: target, files: [target], ...readLogFile(target) };
  const folders = findCountFolders(
    target,
    (dir) => fse.pathExistsSync(path.join(dir, COUNT_FILE)) || fse.pathExistsSync(path.join(dir, STEP_LOG_FILE)),
  );
  if (folders.length === 0) throw new UsageError(`${target}: holds no gocount count folder (${COUNT_FILE}) and is not a step log`);
  const logged = folders.filter((dir) => fse.pathExistsSync(path.join(dir, STEP_LOG_FILE)));
  if (logged.length === 0) throw new UsageError(`${target}: no step log (${STEP_LOG_FILE}) in ${describeFolders(target, folders)}`);
  const logs = logged
    .map((dir) => ({ file: path.join(dir, STEP_LOG_FILE), ...readLog(path.join(dir, STEP_LOG_FILE)) }))
    .sort((a, b) => firstPass(a.entries) - firstPass(b.entries));
  const entries = joinLogs(target, logs);
  if (entries.length === 0) throw new UsageError(`${target}: no finished step is logged in ${describeFolders(target, logged)}`);
  const results = logs.flatMap((log) => log.results).sort((a, b) => a.pass - b.pass);
  return { path: target, files: logs.map((log) => log.file), entries, results, lock: lockOf(folders) };
}

/** A file given by the user: refused without reading it whole unless it starts like a JSON line. */
function readLogFile(file: string): ReadLog {
  if (!startsWithBrace(file)) throw new UsageError(`${file}: not a gocount step log (it is not JSON lines)`);
  const log = readLog(file);
  if (log.entries.length === 0) throw new UsageError(`${file}: not a gocount step log (no line of format ${STEP_LOG_FORMAT})`);
  return log;
}

interface ReadLog {
  readonly entries: StepLogEntry[];
  readonly results: PassResultLine[];
}

/**
 * A log's entries and result lines, refused when its steps are of different counts (which would
 * pass for one); a result line of another count than its steps is passed over.
 */
function readLog(file: string): ReadLog {
  let text: string;
  try {
    text = fse.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  // stepLogEntries keeps one line a step, so each line is parsed alone to see every count's lines.
  const names = [...new Set(text.split('\n').flatMap((line) => stepLogEntries(line).map(countName)))];
  if (names.length > 1) throw new UsageError(`${file}: holds the steps of different counts (${names.join(', ')})`);
  return { entries: stepLogEntries(text), results: parsePassResults(text).filter((result) => countName(result) === names[0]) };
}

/**
 * The logs of the folders of one count, one folder per pass, in pass order. Folders of different
 * boards, or two logs of the same pass, are of different counts: which one is meant is for the user
 * to say, by naming its folder.
 */
function joinLogs(target: string, logs: ReadonlyArray<{ file: string } & ReadLog>): StepLogEntry[] {
  const boards = new Map<string, string[]>();
  for (const log of logs) {
    for (const board of new Set(log.entries.map(countName))) boards.set(board, [...(boards.get(board) ?? []), path.dirname(log.file)]);
  }
  if (boards.size > 1) {
    const listed = [...boards].map(([board, dirs]) => `${board} (${dirs.map((dir) => relative(target, dir)).join(', ')})`);
    throw new UsageError(`${target}: holds the logs of different counts: ${listed.join('; ')}; name one count's folder`);
  }
  const passOwner = new Map<number, string>();
  for (const log of logs) {
    for (const pass of new Set(log.entries.map((entry) => entry.pass))) {
      const other = passOwner.get(pass);
      const here = path.dirname(log.file);
      if (other !== undefined)
        throw new UsageError(
          `${target}: pass ${pass} is logged in two folders, ${relative(target, other)} and ${relative(target, here)}; name one count's folder`,
        );
      passOwner.set(pass, here);
    }
  }
  return logs.flatMap((log) => log.entries).sort((a, b) => a.pass - b.pass || a.step - b.step);
}

function firstPass(entries: readonly StepLogEntry[]): number {
  return entries.length > 0 ? entries[0].pass : Infinity;
}

/** What identifies a count in its log lines: board, and passes (a count of other moduli has others). */
function countName(entry: Pick<StepLogEntry, 'width' | 'columns' | 'passes'>): string {
  return `${entry.width}x${entry.columns}${entry.passes > 1 ? ` in ${entry.passes} passes` : ''}`;
}

/**
 * The lock a count holds on any of the folders. A holder on another host, or a lock not yet
 * readable, is taken to be running: only a dead process of this host is known to have stopped.
 */
function lockOf(folders: readonly string[]): LoadedLog['lock'] {
  for (const dir of folders) {
    if (!fse.pathExistsSync(path.join(dir, LOCK_FILE))) continue;
    const holder = readLockHolder(dir);
    if (!holder) return { holder: 'a process whose lock file is unreadable', alive: true };
    return { holder: `process ${holder.pid} on ${holder.host} since ${holder.started}`, alive: !isStale(holder) };
  }
  return undefined;
}

function describeFolders(target: string, folders: readonly string[]): string {
  if (folders.length === 1 && path.resolve(folders[0]) === path.resolve(target)) return 'this count folder';
  const names = folders.map((dir) => relative(target, dir));
  return names.length === 1 ? `its count folder ${names[0]}` : `its ${names.length} count folders (${names.join(', ')})`;
}

function relative(target: string, dir: string): string {
  return path.relative(target, dir) || target;
}

function startsWithBrace(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString('utf8').trimStart().startsWith('{');
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
