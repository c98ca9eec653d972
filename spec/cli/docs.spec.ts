// The README and docs/*.md against the repository and the code: links and paths that stay inside
// the repository, the count folders' numbers of moduli, the toolkit's number of commands, and the
// fields of the --stats examples (the README's and docs/usage.md's).
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatCostTable, formatStepTable, formatSummary } from '../../cli/stats-tables.js';
import type { CountStats } from '../../lib/observe/stats.js';
import { moduliFor } from '../../lib/residues/moduli.js';
import { repoRoot } from '../support/paths.js';

const DOCS = ['README.md', ...readdirSync(path.join(repoRoot, 'docs')).flatMap((name) => (name.endsWith('.md') ? [`docs/${name}`] : []))];
const text = (file: string) => readFileSync(path.join(repoRoot, file), 'utf8');
const README = text('README.md');

test('the links and the paths up of the docs name files inside the repository', (t) => {
  const bad: string[] = [];
  let seen = 0;
  const found = (file: string, target: string) => {
    const resolved = path.resolve(repoRoot, path.dirname(file), target);
    return resolved.startsWith(`${repoRoot}${path.sep}`) && existsSync(resolved);
  };
  for (const file of DOCS) {
    for (const [, link] of text(file).matchAll(/\]\(([^)#\s]+)[^)]*\)/g)) {
      if (/^[a-z]+:/.test(link)) continue;
      seen++;
      if (!found(file, link)) bad.push(`${file}: ${link}`);
    }
    // A path up in backquotes ("`../shared/…`") is no link, but sends the reader there all the same.
    for (const [, quoted] of text(file).matchAll(/`(\.\.\/[^`\s]*)`/g)) if (!found(file, quoted)) bad.push(`${file}: ${quoted}`);
  }
  t.true(seen > 10, `${seen} links`);
  t.deepEqual(bad, []);
});

test("the count folders the docs name carry their board's number of moduli", (t) => {
  const wrong: string[] = [];
  let seen = 0;
  for (const file of DOCS) {
    for (const [folder, m, n, k] of text(file).matchAll(/(\d+)x(\d+)\/moduli-(\d+)-/g)) {
      seen++;
      const moduli = moduliFor(Number(m) * Number(n)).length;
      if (Number(k) !== moduli) wrong.push(`${file}: ${folder} (${m}x${n} takes ${moduli})`);
    }
  }
  t.true(seen > 5, `${seen} folders`);
  t.deepEqual(wrong, []);
});

test("the README's toolkit counts its commands right", (t) => {
  const section = /\n## The toolkit\n([\s\S]*?)\n## /.exec(README)![1];
  const said = /^(\w+) more commands/m.exec(section)![1].toLowerCase();
  const listed = section.match(/^\| `gocount \w+/gm)!.length;
  t.is(['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'].indexOf(said) + 1, listed);
});

test('the --stats examples of the README and docs/usage.md have the fields --stats prints', (t) => {
  // Figures vary from run to run; their places, words and order do not.
  const shape = (line: string) => line.replace(/\d[\d.hms]*([kMGT](?=[\s/),]|$))?( [KMGT]iB| B)?/g, '#');
  const stats: CountStats = {
    seconds: 4.7,
    statesExpanded: 7.4e6,
    statesPerSecond: 1.6e6,
    maxStates: 156_500,
    runsWritten: 146,
    bytesWritten: 89 << 20,
    redundancy: 1.014,
    peakRss: 122 << 20,
    userSeconds: 3.6,
    systemSeconds: 0.3,
    nsPerState: { read: 74, expand: 159, aggregate: 69, sort: 49, write: 127, drain: 1 },
    probesPerSuccessor: 0,
  };
  const summaries = (file: string) =>
    text(file)
      .split('\n')
      .filter((line) => line.startsWith('wall time '));
  // The README shows one summary, under its 9x9 example; docs/usage.md shows that example's tables.
  t.is(summaries('README.md').length, 1);
  t.true(summaries('docs/usage.md').length > 0);
  for (const line of [...summaries('README.md'), ...summaries('docs/usage.md')]) t.is(shape(line), shape(formatSummary(stats)));
  const example = /`gocount 9x9 --memory 8M --stats`[^`]*```\n(.*)\n/.exec(README);
  t.is(example?.[1], formatStepTable([], 9));
  // docs/usage.md's copy of that example starts with the cost model's title and header.
  const costModel = /`gocount 9x9 --memory 8M --stats`[^`]*```\n(.*\n.*)\n/.exec(text('docs/usage.md'));
  t.is(costModel?.[1], formatCostTable([]).split('\n').slice(0, 2).join('\n'));
});
