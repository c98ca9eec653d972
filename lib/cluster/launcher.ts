/**
 * How the driver runs a pass's task processes: as child processes on this machine (`--launcher
 * local`, local-launcher.ts), or as one Slurm job array (`--launcher slurm`, slurm-launcher.ts).
 * Either way each process serves its parts for every step of the pass (task-loop.ts), and the
 * driver learns of a step's end from done-markers, not exit codes: it only asks the launcher
 * which processes have ended, to launch them again.
 */

import { fileURLToPath } from 'node:url';

export const LAUNCHERS = ['local', 'slurm'] as const;
export type LauncherName = (typeof LAUNCHERS)[number];

/** What every task process of a pass is given. */
export interface TaskGroup {
  /** The count folder. */
  readonly countDir: string;
  readonly partitions: number;
  /** Bytes of memory for each process. */
  readonly memory: number;
  readonly fanIn: number;
  /** Threads of each process, which serve its parts' workers: the cores it asks for. */
  readonly threads: number;
  /** Where each process's output goes (task-J.log) and its status file. */
  readonly logDir: string;
  /** What the launcher has to say (a Slurm array that waits in the queue). */
  readonly note: (message: string) => void;
}

/** A pass's task processes: each serves the parts of its unit, one after another in every step. */
export interface TaskFleet {
  /** The parts each process serves, by unit. */
  readonly units: ReadonlyArray<readonly number[]>;
  /** The units whose process has ended (exited, killed, left Slurm's queue) since it was launched. */
  ended(): number[];
  /** Launches the process of `unit` again. */
  relaunch(unit: number): void;
  /** Ends the process of `unit`, hung or with damaged output: killed (local) or cancelled (Slurm); it then shows as ended. */
  kill(unit: number): void;
  /** Whether the process of `unit` ended with DISK_FULL_EXIT, where the launcher learns exit codes (local). */
  endedDiskFull(unit: number): boolean;
  /** Calls `listener` whenever a process ends; returns what removes it. */
  onEnd(listener: () => void): () => void;
  /** Stops every process still there: killed and waited for (local), or cancelled (Slurm). */
  stop(): Promise<void>;
}

/**
 * Resolves once every process of `fleet` has ended, or after `ms` (false then). After a pass's last
 * step each task process ends on its own, its last line in its log: a stop at once (SIGTERM,
 * scancel) could cut that line off.
 */
export function fleetEnded(fleet: TaskFleet, ms: number): Promise<boolean> {
  const all = () => fleet.ended().length === fleet.units.length;
  if (all()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ended: boolean) => {
      clearTimeout(timer);
      stopListening();
      resolve(ended);
    };
    const timer = setTimeout(() => done(false), ms);
    const stopListening = fleet.onEnd(() => all() && done(true));
  });
}

export interface Launcher {
  readonly name: LauncherName;
  /** Starts the pass's task processes. */
  start(group: TaskGroup): TaskFleet;
}

/** The gocount command that runs the tasks: this installation's, with this Node. */
const CLI_MAIN = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** The command line of the process that serves `parts` (a comma-separated list, or the shell's $SLURM_ARRAY_TASK_ID). */
export function taskArguments(group: TaskGroup, parts: string): string[] {
  const { countDir, memory, fanIn, threads } = group;
  return [CLI_MAIN, 'task', countDir, '--part', parts, '--memory', String(memory), '--fan-in', String(fanIn), '--threads', String(threads)];
}

/** The exit code of a task process that stopped on a full disk: the driver then stops too, without retries. */
export const DISK_FULL_EXIT = 28;

/** Set by the local launcher: the driver's pid, which its tasks watch (stopWithDriver). */
export const DRIVER_PID = 'GOCOUNT_DRIVER_PID';

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
