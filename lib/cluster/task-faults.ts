/**
 * Hooks for testing crashes and hangs. With GOCOUNT_KILL_TASK=S:J:FLAG in the environment,
 * partition task J of step S kills itself with SIGKILL after it has written its runs and before
 * its done-marker, as a crash at the worst moment would; with GOCOUNT_STOP_TASK=S:J:FLAG it stops
 * itself there with SIGSTOP, as a hung node or a stuck network mount would leave it. Either creates
 * the file FLAG first and does not do it again while FLAG exists, so the retry finishes. Unset,
 * they cost nothing.
 */

import { existsSync, writeFileSync } from 'node:fs';

export function faultTaskIfAsked(step: number, part: number): void {
  for (const [variable, signal] of [
    ['GOCOUNT_KILL_TASK', 'SIGKILL'],
    ['GOCOUNT_STOP_TASK', 'SIGSTOP'],
  ] as const) {
    const fault = process.env[variable];
    if (!fault) continue;
    const [faultStep, faultPart, flag] = fault.split(':');
    if (Number(faultStep) !== step || Number(faultPart) !== part || !flag || existsSync(flag)) continue;
    writeFileSync(flag, `${signal} to task ${part} of step ${step}\n`);
    process.kill(process.pid, signal);
  }
}
