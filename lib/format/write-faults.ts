/**
 * A hook for testing the disk-full path without a full disk: with GOCOUNT_DISK_FULL_AFTER=N in the
 * environment, every run-file write after the first N bytes (per thread) fails with ENOSPC, as a
 * full disk would. Unset, it costs one comparison a buffer flush.
 */

const limit = Number(process.env.GOCOUNT_DISK_FULL_AFTER ?? Infinity);
let written = 0;

export function chargeWrite(bytes: number): void {
  written += bytes;
  if (written > limit) throw Object.assign(new Error('ENOSPC: no space left on device (GOCOUNT_DISK_FULL_AFTER)'), { code: 'ENOSPC' });
}
