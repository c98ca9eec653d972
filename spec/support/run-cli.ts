/** Runs the built command in a child process and collects what it printed. */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliPath } from './paths.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A command line's result in a process of many: also what it printed after it exited ('' unless it misbehaved). */
export type CliLineResult = CliResult & { late: string };

export function runCli(args: string[], options: { cwd?: string; timeout?: number; env?: Record<string, string> } = {}): CliResult {
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    timeout: options.timeout ?? 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const commandLines = path.join(path.dirname(fileURLToPath(import.meta.url)), 'command-lines.js');

/**
 * The results of command lines run one after another in one process (spec/support/command-lines.ts),
 * in their order, each with what it printed after it exited (`late`, '' unless it misbehaved): for
 * tables of refused command lines, a process for the table instead of one a line.
 */
export function runCliLines(lines: string[][]): CliLineResult[] {
  const run = spawnSync(process.execPath, [commandLines, JSON.stringify(lines)], { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`the command lines' process exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/**
 * runCli without blocking: a spec whose tests run counts in this process, or watch their timers,
 * keeps its event loop free while the command runs.
 */
export function runCliAsync(
  args: string[],
  options: { env?: Record<string, string>; timeout?: number; stdout?: number; script?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    // `stdout`: a file descriptor the command writes to instead of a pipe (its stdout then reads '').
    // `script`: another of dist/cli's scripts (bench.js) instead of the gocount command.
    const child = spawn(process.execPath, [options.script ?? cliPath, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * Starts the command and kills it with SIGKILL after `when` ms, or as soon as `when()` holds (asked
 * every 5 ms); resolves whether it was still running then.
 */
export function killAfter(args: string[], when: number | (() => boolean)): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { stdio: 'ignore' });
    const kill = () => child.kill('SIGKILL');
    const timer = typeof when === 'number' ? setTimeout(kill, when) : setInterval(() => when() && kill(), 5);
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      resolve(signal === 'SIGKILL' && code === null);
    });
  });
}
