/**
 * Task processes as children of the driver, started once a pass, as many at once as the cores
 * allow for their threads (cores / --threads). With more partitions than that, process k of
 * n serves parts k, k + n, k + 2n … one after another in each step, within the one memory budget
 * it was given: the parts take turns as they did when each step started its own processes.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fse from 'fs-extra';
import { DISK_FULL_EXIT, DRIVER_PID, Launcher, TaskFleet, TaskGroup, taskArguments } from './launcher.js';
import { unitsOf } from './task-layout.js';
import { taskLogName } from './task-status.js';

export function localLauncher(): Launcher {
  return { name: 'local', start: (group) => new LocalFleet(group) };
}

class LocalFleet implements TaskFleet {
  readonly units: number[][];
  private readonly group: TaskGroup;
  private readonly children: Array<{ child: ChildProcess; exited: Promise<void> } | undefined>;
  private readonly endedUnits = new Set<number>();
  private readonly diskFullUnits = new Set<number>();
  private readonly listeners = new Set<() => void>();

  constructor(group: TaskGroup) {
    this.group = group;
    this.units = unitsOf(group.partitions, Math.floor(os.availableParallelism() / group.threads));
    this.children = this.units.map(() => undefined);
    fse.ensureDirSync(group.logDir);
    this.units.forEach((_, unit) => this.launch(unit));
  }

  ended(): number[] {
    return [...this.endedUnits];
  }

  relaunch(unit: number): void {
    this.endedUnits.delete(unit);
    this.diskFullUnits.delete(unit);
    this.launch(unit);
  }

  kill(unit: number): void {
    // SIGKILL ends a stopped process too.
    this.children[unit]?.child.kill('SIGKILL');
  }

  endedDiskFull(unit: number): boolean {
    return this.diskFullUnits.has(unit);
  }

  onEnd(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    const running = this.children.filter((entry) => entry !== undefined);
    for (const { child } of running) {
      child.kill('SIGTERM');
      child.kill('SIGCONT'); // a stopped process takes its SIGTERM only once it runs
    }
    await Promise.all(running.map((entry) => entry.exited));
  }

  private launch(unit: number): void {
    const { group } = this;
    const parts = this.units[unit];
    const log = openSync(path.join(group.logDir, taskLogName(parts)), 'a');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, taskArguments(group, parts.join(',')), {
        stdio: ['ignore', log, log],
        env: { ...process.env, [DRIVER_PID]: String(process.pid) },
      });
    } finally {
      closeSync(log); // the child has its own copy
    }
    const exited = new Promise<void>((resolve) => {
      const ended = (code?: number | null) => {
        resolve();
        if (this.children[unit]?.child !== child) return;
        this.children[unit] = undefined;
        this.endedUnits.add(unit);
        if (code === DISK_FULL_EXIT) this.diskFullUnits.add(unit);
        for (const listener of this.listeners) listener();
      };
      child.on('exit', ended);
      child.on('error', () => ended());
    });
    this.children[unit] = { child, exited };
  }
}
