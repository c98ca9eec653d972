/**
 * What the driver checks of a task's runs before it commits a step: each run its done-marker names
 * is there, of the size the marker records, and its bytes give the checksum the marker records (the
 * file's own last four bytes: a run sum or, in older versions, a CRC-32). A run damaged or
 * lost after its task wrote it (a disk error, a stray command, a file system restored from a copy)
 * is found here, while the step before it is still on disk to count it again, not by the next
 * step's readers once that step is gone.
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { checksumOfAnyRun } from '../format/split-layout.js';
import { checksumFileBytes } from '../format/run-sum.js';
import type { RunSummary } from '../format/run-writer.js';
import { counted } from '../shared/plural.js';

/** Why a run named by a done-marker is not as the marker records it, or undefined when it is. */
export function runProblem(stepDir: string, run: RunSummary, buffer: Buffer): string | undefined {
  let fd: number;
  try {
    fd = openSync(path.join(stepDir, run.file), 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `run ${run.file} is missing` : `run ${run.file} cannot be read (${code})`;
  }
  try {
    const size = fstatSync(fd).size;
    if (size !== run.bytes) return `run ${run.file} has ${counted(size, 'byte')}, its done-marker says ${run.bytes}`;
    const head = Buffer.alloc(10);
    const checksum = checksumOfAnyRun(head.subarray(0, readSync(fd, head, 0, head.length, 0)));
    if (!checksumFileBytes(fd, size - 4, buffer, checksum)) return `run ${run.file} ends early`;
    readSync(fd, buffer, 0, 4, Math.max(0, size - 4));
    if (checksum.value() !== run.crc || buffer.readUInt32LE(0) !== run.crc) return `run ${run.file} is damaged (${checksum.name} mismatch)`;
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The first problem among the runs of one done-marker. */
export function markerRunsProblem(stepDir: string, runs: readonly RunSummary[], buffer: Buffer): string | undefined {
  for (const run of runs) {
    const problem = runProblem(stepDir, run, buffer);
    if (problem) return problem;
  }
  return undefined;
}
