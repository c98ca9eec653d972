/** Runs the built command in a child process and collects what it printed. */
import { spawnSync } from 'node:child_process';
import { cliPath } from './paths.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { cwd?: string; timeout?: number } = {}): CliResult {
  const result = spawnSync(process.execPath, [cliPath, ...args], {
    encoding: 'utf8',
    cwd: options.cwd,
    timeout: options.timeout ?? 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
