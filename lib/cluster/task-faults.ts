/**
 * A hook for testing crashes: with GOCOUNT_KILL_TASK=S:J:FLAG in the environment, partition task J
 * of step S kills itself with SIGKILL after it has written its runs and before its done-marker,
 * as a crash at the worst moment would; it creates the file FLAG first and does not do it again
 * while FLAG exists, so the retry finishes. Unset, it costs nothing.
 */

import { existsSync, writeFileSync } from 'node:fs';

export function killTaskIfAsked(step: number, part: number): void {
  const fault = process.env.GOCOUNT_KILL_TASK;
  if (!fault) return;
  const [faultStep, faultPart, flag] = fault.split(':');
  if (Number(faultStep) !== step || Number(faultPart) !== part || !flag || existsSync(flag)) return;
  writeFileSync(flag, `killed task ${part} of step ${step}\n`);
  process.kill(process.pid, 'SIGKILL');
}
