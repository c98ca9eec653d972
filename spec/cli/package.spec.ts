// The package as others get it: packed by npm, installed into a new project, imported by name from
// plain JavaScript (the README's example among it) and from type-checked TypeScript, and required
// from CommonJS; its licence and its source maps' files come with it.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/paths.js';
import { tempScratch } from '../support/scratch.js';

const L55 = '414295148741';
const L33 = '12675';

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The source map references in the installed package (`file: reference`), and those naming a file it lacks. */
function mapReferences(packageDir: string): { all: string[]; dangling: string[] } {
  const all: string[] = [];
  const dangling: string[] = [];
  const check = (name: string, reference: string) => {
    all.push(`${name}: ${reference}`);
    if (!existsSync(path.resolve(packageDir, path.dirname(name), reference))) dangling.push(`${name}: ${reference}`);
  };
  for (const name of readdirSync(packageDir, { recursive: true, encoding: 'utf8' })) {
    const text = name.endsWith('.js') || name.endsWith('.map') ? readFileSync(path.join(packageDir, name), 'utf8') : '';
    const url = name.endsWith('.js') ? /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text) : null;
    if (url) check(name, url[1]);
    if (name.endsWith('.map')) {
      const map = JSON.parse(text) as { sourceRoot?: string; sources: string[] };
      for (const source of map.sources) check(name, path.join(map.sourceRoot ?? '', source));
    }
  }
  return { all, dangling };
}

test('the packed package installs into a new project and counts from JavaScript, TypeScript and CommonJS', (t) => {
  const dir = tempScratch(t);
  const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], repoRoot);
  t.is(packed.status, 0, packed.output);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  t.truthy(tarball, packed.output);

  const project = path.join(dir, 'consumer');
  const scratch = path.join(dir, 'scratch');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball!)], project);
  t.is(installed.status, 0, installed.output);

  const shipped = path.join(project, 'node_modules', 'gocount');
  t.regex(readFileSync(path.join(shipped, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) 2026 the gocount contributors\n/);
  const maps = mapReferences(shipped);
  t.true(maps.all.length > 100, maps.all.join('\n'));
  t.deepEqual(maps.dangling, []);

  // CommonJS requires the ES module (Node ≥ 20.19), with nothing on stderr.
  writeFileSync(
    path.join(project, 'count.cjs'),
    `const { countLegal, GocountError } = require('gocount');
countLegal({ m: 3, n: 3, memory: '64M', workers: 1, scratch: ${JSON.stringify(scratch)} }).then((result) =>
  console.log(JSON.stringify({ legal: result.legal.toString(), typeofLegal: typeof result.legal, errors: typeof GocountError })),
);
`,
  );
  const cjs = run('node', ['count.cjs'], project);
  t.is(cjs.status, 0, cjs.output);
  t.is(cjs.output, `${JSON.stringify({ legal: L33, typeofLegal: 'bigint', errors: 'function' })}\n`);

  writeFileSync(
    path.join(project, 'count.mjs'),
    `import { countLegal, InvalidOptionError } from 'gocount';
const result = await countLegal({ m: 5, n: 5, memory: '64M', workers: 1, scratch: ${JSON.stringify(scratch)} });
let refused = '';
try {
  await countLegal({ m: 5, n: 5, fanIn: 1 });
} catch (error) {
  refused = error instanceof InvalidOptionError ? error.code + ' ' + error.option : String(error);
}
console.log(JSON.stringify({ legal: result.legal.toString(), typeofLegal: typeof result.legal, refused }));
`,
  );
  const js = run('node', ['count.mjs'], project);
  t.is(js.status, 0, js.output);
  t.deepEqual(JSON.parse(js.output), { legal: L55, typeofLegal: 'bigint', refused: 'GOCOUNT_INVALID_OPTION fanIn' });

  // The README's library example, as written there.
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const example = /<!-- library-example -->\n```js\n([\s\S]*?)```/.exec(readme);
  t.truthy(example, 'README.md has the library example');
  writeFileSync(path.join(project, 'example.mjs'), example![1]);
  const fromReadme = run('node', ['example.mjs'], project);
  t.is(fromReadme.status, 0, fromReadme.output);
  t.regex(fromReadme.output, new RegExp(`^L\\(5,5\\) = ${L55}$`, 'm'));
  // Its progress handler sees the last step, 25, by the step log's numbering.
  t.regex(fromReadme.output, /^last step: 14 states$/m);

  const typeRoots = path.join(repoRoot, 'node_modules', '@types');
  const tsconfig = {
    compilerOptions: {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      strict: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [typeRoots],
    },
  };
  // count.ts is checked; count.cts, CommonJS, is compiled to out/count.cjs and run.
  const emitting = { ...tsconfig.compilerOptions, noEmit: false, outDir: 'out' };
  writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: emitting, files: ['count.ts', 'count.cts'] }));
  writeFileSync(
    path.join(project, 'count.ts'),
    `import { countLegal, type CountResult, type ProgressEvent } from 'gocount';
const steps: number[] = [];
const onProgress = (event: ProgressEvent) => {
  if (event.type === 'step-end') steps.push(event.report.step);
};
const result: CountResult = await countLegal({ m: 5, n: 5, memory: 64 << 20, workers: 1, onProgress });
const legal: bigint = result.legal;
console.log(legal, steps.length);
`,
  );
  writeFileSync(
    path.join(project, 'count.cts'),
    `import { countLegal, type CountResult } from 'gocount';
countLegal({ m: 3, n: 3, memory: '64M', workers: 1, scratch: ${JSON.stringify(scratch)} }).then((result: CountResult) => {
  const legal: bigint = result.legal;
  console.log(String(legal));
});
`,
  );
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = run('node', [tsc, '-p', 'tsconfig.json'], project);
  t.is(checked.status, 0, checked.output);
  const cts = run('node', [path.join('out', 'count.cjs')], project);
  t.is(cts.status, 0, cts.output);
  t.is(cts.output, `${L33}\n`);

  // The types are real: a count is a bigint, not a string (nor any).
  writeFileSync(
    path.join(project, 'wrong.ts'),
    `import { countLegal } from 'gocount';\nconst legal: string = (await countLegal({ m: 5, n: 5 })).legal;\nconsole.log(legal);\n`,
  );
  writeFileSync(path.join(project, 'tsconfig.wrong.json'), JSON.stringify({ ...tsconfig, files: ['wrong.ts'] }));
  const wrong = run('node', [tsc, '-p', 'tsconfig.wrong.json'], project);
  t.not(wrong.status, 0);
  t.regex(wrong.output, /wrong\.ts.*TS2322: Type 'bigint' is not assignable to type 'string'/);
});
