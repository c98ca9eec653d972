/**
 * How the driver runs the tasks of one step: as child processes on this machine (`--launcher local`),
 * or as a Slurm job array (`--launcher slurm`). Either way a launch resolves once every task has
 * ended, whatever its exit code: the driver then counts done-markers, not exit codes (an array has
 * no single exit code worth trusting, and a killed task may have been requeued by Slurm).
 */

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { openSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fse from 'fs-extra';
import { UsageError } from '../errors.js';
import { writeFileAtomically } from '../format/atomic.js';

export const LAUNCHERS = ['local', 'slurm'] as const;
export type LauncherName = (typeof LAUNCHERS)[number];

export interface TaskBatch {
  /** The count folder. */
  readonly countDir: string;
  /** The tasks expand the states after `step` points. */
  readonly step: number;
  readonly parts: readonly number[];
  /** Bytes of memory for each task. */
  readonly memory: number;
  readonly fanIn: number;
  /** Worker threads of each task: the cores it asks for. */
  readonly workers: number;
  /** Where each task's output goes: step-S-part-J.log. */
  readonly logDir: string;
}

export interface Launcher {
  readonly name: LauncherName;
  run(batch: TaskBatch): Promise<void>;
}

export function makeLauncher(name: LauncherName): Launcher {
  return name === 'slurm' ? slurmLauncher() : localLauncher();
}

/** The gocount command that runs the tasks: this installation's, with this Node. */
const CLI_MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

export function taskArguments(batch: TaskBatch, part: number | string): string[] {
  return [
    CLI_MAIN,
    'task',
    batch.countDir,
    '--step',
    String(batch.step),
    '--part',
    String(part),
    '--memory',
    String(batch.memory),
    '--fan-in',
    String(batch.fanIn),
  ];
}

export function taskLogPath(batch: TaskBatch, part: number | string): string {
  return path.join(batch.logDir, `step-${batch.step}-part-${part}.log`);
}

/** Set by the local launcher: the driver's pid, which its tasks watch (stopWithDriver). */
const DRIVER_PID = 'GOCOUNT_DRIVER_PID';

/**
 * A task the local launcher started stops when its driver is gone (killed, say), so that a driver
 * started again never runs beside an orphan of the same task; the task's rerun cleans up after it.
 */
export function stopWithDriver(): void {
  const driver = Number(process.env[DRIVER_PID]);
  if (!driver) return;
  setInterval(() => {
    if (process.ppid !== driver) process.kill(process.pid, 'SIGKILL');
  }, 250).unref();
}

/** Tasks as child processes, as many at once as the cores allow for their worker threads. */
function localLauncher(): Launcher {
  return {
    name: 'local',
    async run(batch) {
      fse.ensureDirSync(batch.logDir);
      const slots = Math.max(1, Math.floor(os.availableParallelism() / batch.workers));
      const queue = [...batch.parts];
      const next = async (): Promise<void> => {
        for (let part = queue.shift(); part !== undefined; part = queue.shift()) await runChild(batch, part);
      };
      await Promise.all(Array.from({ length: Math.min(slots, queue.length) }, next));
    },
  };
}

async function runChild(batch: TaskBatch, part: number): Promise<void> {
  const log = openSync(taskLogPath(batch, part), 'a');
  try {
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, taskArguments(batch, part), {
        stdio: ['ignore', log, log],
        env: { ...process.env, [DRIVER_PID]: String(process.pid) },
      });
      child.on('error', () => resolve());
      child.on('close', () => resolve());
    });
  } finally {
    closeSync(log);
  }
}

/**
 * One job array per step: sbatch --array=<parts> with the task's memory (--mem) and cores
 * (--cpus-per-task), then squeue until the array is over. The job script runs this Node and this gocount, so the shared folder must hold
 * the installation too, or every node must have it at the same path.
 */
function slurmLauncher(): Launcher {
  const probe = spawnSync('sbatch', ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new UsageError(
      '--launcher slurm: sbatch is not available here (is Slurm installed, and SLURM_CONF set?)',
      'GOCOUNT_INVALID_OPTION',
    );
  return {
    name: 'slurm',
    async run(batch) {
      fse.ensureDirSync(batch.logDir);
      const script = path.join(batch.logDir, `step-${batch.step}.sbatch`);
      const command = [process.execPath, ...taskArguments(batch, '$SLURM_ARRAY_TASK_ID')].map(shellWord).join(' ');
      writeFileAtomically(script, `#!/bin/sh\nexec ${command}\n`);
      const memoryMiB = Math.ceil(batch.memory / 2 ** 20) + SLURM_MEMORY_OVERHEAD_MIB;
      // Tasks of this step still queued or running belong to a driver that was stopped: only one
      // driver runs a count, so they go before the same tasks are submitted again.
      const name = `gocount-${createHash('sha256').update(batch.countDir).digest('hex').slice(0, 10)}-step-${batch.step}`;
      spawnSync('scancel', [`--name=${name}`], { stdio: 'ignore' });
      const args = [
        '--parsable',
        `--array=${batch.parts.join(',')}`,
        `--job-name=${name}`,
        `--mem=${memoryMiB}M`,
        `--cpus-per-task=${batch.workers}`,
        `--output=${taskLogPath(batch, '%a')}`,
        script,
      ];
      const submitted = spawnSync('sbatch', args, { encoding: 'utf8' });
      const job = /^(\d+)/.exec(submitted.stdout ?? '')?.[1];
      if (submitted.status !== 0 || !job) {
        const why = (submitted.stderr || submitted.error?.message || 'no job id').trim().split('\n')[0];
        throw new UsageError(`sbatch refused the tasks of step ${batch.step}: ${why}`, 'GOCOUNT_TASKS_FAILED');
      }
      await untilGone(job);
    },
  };
}

/**
 * Waits until Slurm no longer lists the job's array tasks as pending or running. Polling squeue
 * briefly is much quicker than sbatch --wait, whose checks come seconds apart.
 */
async function untilGone(job: string): Promise<void> {
  for (let wait = 50; ; wait = Math.min(1000, wait * 2)) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    const queue = spawnSync('squeue', ['-h', '-j', job, '-o', '%i'], { encoding: 'utf8' });
    // Once the job is over it leaves the queue; an id Slurm no longer knows is over too.
    if (queue.status !== 0 || queue.stdout.trim() === '') return;
  }
}

/** Slurm's --mem covers the whole process: the budget plus Node's own (see README, "Memory"). */
export const SLURM_MEMORY_OVERHEAD_MIB = 160;

/** A word the shell takes as it is; $SLURM_ARRAY_TASK_ID is left for the shell to expand. */
function shellWord(word: string): string {
  if (word === '$SLURM_ARRAY_TASK_ID') return '"$SLURM_ARRAY_TASK_ID"';
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
