/**
 * Which task processes show no sign of life. A live task process rewrites its status file every
 * second, whatever it is doing (task-status.ts); the driver notes, by its own clock, when each
 * file's content last changed. The task's clock is never compared with the driver's, so clocks
 * that differ between nodes do not matter. A process counts only once it has written since its
 * launch: one still queued by Slurm, or still starting, is not hung.
 */

import { readTaskStatus } from './task-status.js';

export class HangWatch {
  private readonly files: readonly string[];
  /** Per unit: the status time last read (−1: none), when that changed, and whether it changed since the launch. */
  private readonly lastAt: number[];
  private readonly changedAt: number[];
  private readonly alive: boolean[];

  /** `files`: the status file of each unit's process. */
  constructor(files: readonly string[]) {
    this.files = files;
    this.lastAt = files.map(() => -1);
    this.changedAt = files.map(() => performance.now());
    this.alive = files.map(() => false);
    files.forEach((_, unit) => this.launched(unit));
  }

  /** The process of `unit` was launched (again): what its file holds now is the last one's. */
  launched(unit: number): void {
    this.lastAt[unit] = readTaskStatus(this.files[unit])?.at ?? -1;
    this.changedAt[unit] = performance.now();
    this.alive[unit] = false;
  }

  /** Seconds since the status of `unit` last changed, once it has changed since the launch; else 0. */
  silentFor(unit: number): number {
    const status = readTaskStatus(this.files[unit]);
    const now = performance.now();
    if (status !== undefined && status.at !== this.lastAt[unit]) {
      this.lastAt[unit] = status.at;
      this.changedAt[unit] = now;
      this.alive[unit] = true;
    }
    return this.alive[unit] ? (now - this.changedAt[unit]) / 1000 : 0;
  }
}
