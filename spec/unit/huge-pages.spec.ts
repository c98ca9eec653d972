import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// Each probe is a process of its own (spec/support/huge-pages-probe.ts says why).
const probe = fileURLToPath(new URL('../support/huge-pages-probe.js', import.meta.url));
const addon = fileURLToPath(new URL('../../lib/shared/huge-pages.node', import.meta.url));
const MiB = 1 << 20;

function measure(kind: string, setting?: string): { marked: number; hugePages: number } {
  const env = { ...process.env, GOCOUNT_HUGE_PAGES: setting ?? '' };
  return JSON.parse(execFileSync(process.execPath, [probe, kind], { env, encoding: 'utf8' })) as { marked: number; hugePages: number };
}

/** Whether this machine has a C compiler: the build makes the addon wherever it has one (and Node's headers). */
const hasCompiler = (): boolean => spawnSync(process.env.CC || 'cc', ['--version']).status === 0;

const linux = process.platform === 'linux';
const thp =
  linux && existsSync('/sys/kernel/mm/transparent_hugepage/enabled')
    ? readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8')
    : '';

test('the build made the huge-pages addon on Linux with a C compiler, and only on Linux', (t) => {
  if (!linux) return t.false(existsSync(addon));
  if (!hasCompiler()) return t.pass('no C compiler here');
  t.true(existsSync(addon), `${addon} is missing`);
});

for (const [kind, least] of [
  ['table', 4_000_000 * 3 * 4],
  ['run', 8_000_000 * 4 * 4],
  ['grouped', 2 * 4_000_000 * 4 * 4],
] as const) {
  test(`a ${kind === 'run' ? 'memory run' : kind === 'table' ? 'state table' : 'grouped run'} asks for huge pages for its ${(least / MiB).toFixed(0)} MiB and more, and not with GOCOUNT_HUGE_PAGES=off`, (t) => {
    if (!existsSync(addon)) return t.pass('no addon here: the build said why');
    const asked = measure(kind);
    t.true(asked.marked >= least - 4 * MiB, `${asked.marked} bytes marked`);
    t.is(measure(kind, 'off').marked, 0);
  });
}

test('a buffer marked and filled is backed by huge pages where the system lends them', (t) => {
  if (!existsSync(addon)) return t.pass('no addon here: the build said why');
  const { marked, hugePages } = measure('plain');
  t.true(marked >= 62 * MiB, `${marked} bytes marked`);
  if (thp.includes('[never]') || thp === '') return t.is(hugePages, 0);
  // A huge page is 2 MiB aligned: all but the ends of 64 MiB, unless the kernel found too few free.
  t.true(hugePages >= 32 * MiB, `${hugePages / MiB} MiB of huge pages`);
});
