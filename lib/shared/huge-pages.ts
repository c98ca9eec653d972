/**
 * Transparent huge pages for the large buffers gocount reads and writes at random (the state
 * tables, the in-memory runs): lib/shared/huge-pages.c, built into dist/ where a C compiler and
 * Node's headers were found, marks them with madvise(MADV_HUGEPAGE). Where it was not built, or on
 * a system without transparent huge pages, buffers keep the pages they get: counts are the same,
 * only slower where tables take gigabytes (docs/performance.md).
 */

import { createRequire } from 'node:module';

/** Buffers smaller than this keep small pages: a huge page half used would only add to the RSS. */
export const HUGE_PAGES_FROM_BYTES = 32 << 20;

interface HugePagesAddon {
  advise(bytes: Uint8Array): number;
}

let addon: HugePagesAddon | null | undefined;

function load(): HugePagesAddon | null {
  if (addon === undefined) {
    try {
      addon =
        process.platform === 'linux' && process.env.GOCOUNT_HUGE_PAGES !== 'off'
          ? (createRequire(import.meta.url)('./huge-pages.node') as HugePagesAddon)
          : null;
    } catch {
      addon = null;
    }
  }
  return addon;
}

/**
 * Asks for huge pages for the whole pages of `buffer`, if it is at least HUGE_PAGES_FROM_BYTES;
 * true when the kernel took the request. Pages already touched keep their size until the kernel's
 * khugepaged merges them, so ask before filling.
 */
export function adviseHugePages(buffer: ArrayBufferLike): boolean {
  if (buffer.byteLength < HUGE_PAGES_FROM_BYTES) return false;
  const advise = load();
  return advise !== null && advise.advise(new Uint8Array(buffer)) === 0;
}
