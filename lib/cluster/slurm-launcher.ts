/**
 * Task processes as one Slurm job array per pass: element J serves part J for every step, with the
 * task's memory (--mem) and cores (--cpus-per-task). The driver polls squeue for the elements
 * still queued or running, and submits an element again (a one-element array) when it has left the
 * queue. The job script runs this Node and this gocount, so the shared folder must hold the
 * installation too, or every node must have it at the same path. All P elements must run at once:
 * a step waits for every part.
 */

import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import fse from 'fs-extra';
import { UsageError } from '../shared/errors.js';
import { writeFileAtomically } from '../format/atomic.js';
import { Launcher, TaskFleet, TaskGroup, taskArguments } from './launcher.js';
import { taskLogName } from './task-status.js';

/** Slurm's --mem covers the whole process: the budget plus Node's own (see README, "Memory"). */
export const SLURM_MEMORY_OVERHEAD_MIB = 160;

/** squeue is asked this often at first, then less often, up to SLOWEST_POLL_MS. */
const FIRST_POLL_MS = 250;
const SLOWEST_POLL_MS = 5000;
/** An element queued this long while others run is worth a note: the count waits for it. */
const QUEUED_NOTE_MS = 5 * 60_000;

export function slurmLauncher(): Launcher {
  const probe = spawnSync('sbatch', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new UsageError(
      '--launcher slurm: sbatch is not available here (is Slurm installed, and SLURM_CONF set?)',
      'GOCOUNT_INVALID_OPTION',
    );
  return { name: 'slurm', start: (group) => new SlurmFleet(group) };
}

/** The job name of a count folder's tasks: a driver started again cancels its predecessor's by it. */
export function slurmJobName(countDir: string): string {
  return `gocount-${createHash('sha256').update(countDir).digest('hex').slice(0, 10)}`;
}

class SlurmFleet implements TaskFleet {
  readonly units: number[][];
  private readonly group: TaskGroup;
  private readonly name: string;
  private readonly script: string;
  /** The job of each part's element, and when it was submitted. */
  private readonly jobs: Array<{ job: string; at: number }> = [];
  private readonly endedUnits = new Set<number>();
  private readonly listeners = new Set<() => void>();
  private timer?: NodeJS.Timeout;
  private pollMs = FIRST_POLL_MS;
  private stopped = false;
  private noted = false;

  constructor(group: TaskGroup) {
    this.group = group;
    this.units = Array.from({ length: group.partitions }, (_, part) => [part]);
    this.name = slurmJobName(group.countDir);
    fse.ensureDirSync(group.logDir);
    this.script = path.join(group.logDir, 'tasks.sbatch');
    const command = [process.execPath, ...taskArguments(group, '$SLURM_ARRAY_TASK_ID')].map(shellWord).join(' ');
    writeFileAtomically(this.script, `#!/bin/sh\nexec ${command}\n`);
    // Elements still queued or running belong to a driver that was stopped: only one driver runs a
    // count, so they go before the same tasks are submitted again.
    spawnSync('scancel', [`--name=${this.name}`], { stdio: 'ignore' });
    this.submit(this.units.map((_, part) => part));
    this.schedulePoll();
  }

  ended(): number[] {
    return [...this.endedUnits];
  }

  relaunch(unit: number): void {
    this.endedUnits.delete(unit);
    this.submit([unit]);
    this.pollMs = FIRST_POLL_MS;
    this.schedulePoll();
  }

  kill(unit: number): void {
    const element = this.jobs[unit];
    if (element) spawnSync('scancel', [`${element.job}_${unit}`], { stdio: 'ignore' });
  }

  /** Slurm keeps exit codes in its accounting, which not every cluster runs: the driver looks at the disk itself. */
  endedDiskFull(): boolean {
    return false;
  }

  onEnd(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    spawnSync('scancel', [`--name=${this.name}`], { stdio: 'ignore' });
  }

  private submit(parts: number[]): void {
    const { group } = this;
    const memoryMiB = Math.ceil(group.memory / 2 ** 20) + SLURM_MEMORY_OVERHEAD_MIB;
    const args = [
      '--parsable',
      `--array=${parts.join(',')}`,
      `--job-name=${this.name}`,
      `--mem=${memoryMiB}M`,
      `--cpus-per-task=${group.threads}`,
      `--output=${path.join(group.logDir, taskLogName('%a'))}`,
      '--open-mode=append',
      this.script,
    ];
    const submitted = spawnSync('sbatch', args, { encoding: 'utf8' });
    const job = /^(\d+)/.exec(submitted.stdout ?? '')?.[1];
    if (submitted.status !== 0 || !job) {
      const why = (submitted.stderr || submitted.error?.message || 'no job id').trim().split('\n')[0];
      throw new UsageError(`sbatch refused the tasks ${parts.join(', ')}: ${why}`, 'GOCOUNT_TASKS_FAILED');
    }
    const at = Date.now();
    for (const part of parts) this.jobs[part] = { job, at };
  }

  private schedulePoll(): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.timer = setTimeout(() => this.poll(), this.pollMs);
    this.timer.unref();
  }

  /** Asks squeue which elements are queued or running; those gone since their submission have ended. */
  private poll(): void {
    const asked = Date.now();
    execFile('squeue', ['-h', '-r', `--name=${this.name}`, '-o', '%F %K %t'], { encoding: 'utf8' }, (error, stdout) => {
      if (this.stopped) return;
      this.pollMs = Math.min(SLOWEST_POLL_MS, this.pollMs * 2);
      // No answer is no news: Slurm's controller may be busy for a moment.
      if (!error) this.judge(asked, stdout);
      this.schedulePoll();
    });
  }

  private judge(asked: number, listing: string): void {
    const listed = new Map<string, string>();
    for (const line of listing.split('\n')) {
      const [job, element, state] = line.trim().split(/\s+/);
      if (job && element) listed.set(`${job}_${element}`, state);
    }
    let changed = false;
    const queued: number[] = [];
    this.jobs.forEach(({ job, at }, part) => {
      const state = listed.get(`${job}_${part}`);
      if (state === 'PD' && asked - at > QUEUED_NOTE_MS) queued.push(part);
      // A listing asked for before the element's submission says nothing about it.
      if (state !== undefined || at >= asked || this.endedUnits.has(part)) return;
      this.endedUnits.add(part);
      changed = true;
    });
    if (queued.length > 0 && queued.length < this.jobs.length && !this.noted) {
      this.noted = true;
      this.group.note(
        `Slurm has kept task ${queued.join(', ')} queued for ${QUEUED_NOTE_MS / 60_000} minutes while others run: ` +
          `every step waits for all ${this.jobs.length} tasks, so the cluster must run them at once`,
      );
    }
    if (changed) for (const listener of this.listeners) listener();
  }
}

/** A word the shell takes as it is; $SLURM_ARRAY_TASK_ID is left for the shell to expand. */
function shellWord(word: string): string {
  if (word === '$SLURM_ARRAY_TASK_ID') return '"$SLURM_ARRAY_TASK_ID"';
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
