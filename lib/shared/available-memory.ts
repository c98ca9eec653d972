/**
 * The memory this process may use: the physical memory, or its control group's limit when that is
 * lower (a container, a Slurm job, a systemd slice). `--memory 50%` and the over-budget warning
 * are measured against it.
 */

import { readFileSync } from 'node:fs';
import os from 'node:os';

/** cgroup v2, then v1; "max" or a figure near 2^63 means no limit. */
const CGROUP_LIMITS = ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes'];

export interface AvailableMemory {
  readonly bytes: number;
  /** "physical memory" or the file of the cgroup limit that set it. */
  readonly source: string;
}

export function availableMemory(files: readonly string[] = CGROUP_LIMITS): AvailableMemory {
  const physical = os.totalmem();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch {
      continue;
    }
    const limit = Number(text);
    if (Number.isSafeInteger(limit) && limit > 0 && limit < physical) return { bytes: limit, source: `the cgroup limit in ${file}` };
  }
  return { bytes: physical, source: 'physical memory' };
}
