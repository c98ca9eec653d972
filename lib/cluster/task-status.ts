/**
 * What a task process is doing, in a small file it rewrites: the step, the part it is expanding
 * (none while it waits for the next step), the states expanded so far, and when it last wrote.
 * The driver reads it for its progress; that the file is fresh shows the task is alive, waiting or
 * not. It is advice, not a record: rewritten in place at the same length (one write, no rename,
 * no sync, since it is written a few times a step), read leniently, and never verified.
 */

import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TaskStatus {
  /** The parts the process serves. */
  readonly parts: number[];
  readonly pid: number;
  readonly host: string;
  /** The step whose states it expands or, waiting, whose manifest it waits for. */
  readonly step: number;
  /** The part it is expanding; absent while it waits. */
  readonly part?: number;
  /** States of `part` expanded so far in `step`. */
  readonly states: number;
  /** Milliseconds since 1970, when it wrote the file. */
  readonly at: number;
}

/** A status is rewritten at most this often unless it changes what the task does. */
const WRITE_EVERY_MS = 1000;

/** The status file of the process that serves `parts`, beside its log. */
export function taskStatusPath(logDir: string, parts: readonly number[]): string {
  return path.join(logDir, `task-${parts.join(',')}.json`);
}

/** The log of the process that serves `parts`: task-3.log, or task-1,3.log for two. */
export function taskLogName(parts: readonly number[] | string): string {
  return `task-${typeof parts === 'string' ? parts : parts.join(',')}.log`;
}

export class TaskStatusFile {
  private readonly file: string;
  private readonly parts: number[];
  private fd = -1;
  /** Every write is padded to the longest so far: a reader never sees the tail of an older one. */
  private length = 0;
  private writtenAt = 0;
  private last: [step: number, part: number | undefined, states: number] = [0, undefined, 0];

  constructor(file: string, parts: readonly number[]) {
    this.file = file;
    this.parts = [...parts];
  }

  /** Writes the status; unless `force`, at most once a second. */
  write(step: number, part: number | undefined, states: number, force: boolean): void {
    const now = Date.now();
    this.last = [step, part, states];
    if (!force && now - this.writtenAt < WRITE_EVERY_MS) return;
    this.writtenAt = now;
    const status: TaskStatus = { parts: this.parts, pid: process.pid, host: os.hostname(), step, part, states, at: now };
    const text = JSON.stringify(status);
    this.length = Math.max(this.length, text.length + 1);
    try {
      if (this.fd < 0) this.fd = openSync(this.file, 'w');
      writeSync(this.fd, text.padEnd(this.length - 1) + '\n', 0);
    } catch {
      // advice only: a task that cannot write it still counts
    }
  }

  /**
   * Rewrites the last status with the time now, from a timer: the file stays fresh while the
   * process runs, whatever it does, and goes stale when it is stopped or hangs (the driver's
   * hang detection, driver.ts).
   */
  beatEvery(ms = WRITE_EVERY_MS): () => void {
    const timer = setInterval(() => this.write(...this.last, false), ms);
    timer.unref();
    return () => clearInterval(timer);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

/** A task's status; undefined when there is none or it is caught mid-write. */
export function readTaskStatus(file: string): TaskStatus | undefined {
  try {
    const status = JSON.parse(readFileSync(file, 'utf8')) as TaskStatus;
    return Number.isInteger(status?.step) && Number.isFinite(status.states) ? status : undefined;
  } catch {
    return undefined;
  }
}
