/**
 * Run as a process of its own by spec/unit/huge-pages.spec.ts, so that no other test's buffers
 * count: builds one large buffer of the kind named (`table`, `run`, `grouped`, or `plain`, a
 * buffer advised directly and then filled), and prints how many bytes of this process's mappings
 * carry the huge-pages mark (VmFlags `hg` in /proc/self/smaps) before and after, and, for `plain`,
 * how many of its bytes are backed by huge pages once filled.
 */

import { readFileSync } from 'node:fs';
import { adviseHugePages } from '../../lib/shared/huge-pages.js';
import { StateTable } from '../../lib/engine/state-table.js';
import { MemoryRun } from '../../lib/engine/memory-run.js';
import { GroupedRun } from '../../lib/engine/grouped-run.js';

/** Bytes of this process's mappings marked for huge pages (VmFlags `hg`), and bytes of anonymous huge pages. */
function mappings(): { marked: number; hugePages: number } {
  let marked = 0;
  let hugePages = 0;
  let size = 0;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const [key, value] = line.split(/:\s+/);
    if (key === 'Size') size = 1024 * Number.parseInt(value, 10);
    else if (key === 'AnonHugePages') hugePages += 1024 * Number.parseInt(value, 10);
    else if (key === 'VmFlags' && value.split(' ').includes('hg')) marked += size;
  }
  return { marked, hugePages };
}

const MiB = 1 << 20;
const before = mappings();
const kept: unknown[] = [];
switch (process.argv[2]) {
  case 'table':
    kept.push(new StateTable(4_000_000, [4294967291, 4294967279], 13));
    break;
  case 'run':
    kept.push(new MemoryRun(8_000_000, 2));
    break;
  case 'grouped':
    kept.push(new GroupedRun(4_000_000, 2, 64));
    break;
  case 'plain': {
    const words = new Uint32Array((64 * MiB) / 4);
    adviseHugePages(words.buffer);
    for (let i = 0; i < words.length; i += 1024) words[i] = i;
    kept.push(words);
    break;
  }
  default:
    throw new Error(`unknown kind ${process.argv[2]}`);
}
const after = mappings();
process.stdout.write(`${JSON.stringify({ marked: after.marked - before.marked, hugePages: after.hugePages - before.hugePages })}\n`);
