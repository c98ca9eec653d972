// The package as others get it: packed by npm, installed into a new project (once, for all the tests
// of this file), imported by name from plain JavaScript (the README's example among it) and from
// TypeScript checked by each compiler a consumer may have, and required from CommonJS; its licence,
// its docs and its source maps' files come with it, and it asks the consumer to run no script.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../support/paths.js';
import { once, sharedScratch } from '../support/shared.js';

const L55 = '414295148741';
const L33 = '12675';

/** The compilers a consumer's TypeScript is checked with, as package.json pins them (one aliased). */
const COMPILERS = [
  { version: '5.8.3', tsc: path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc') },
  { version: '7.0.2', tsc: path.join(repoRoot, 'node_modules', 'typescript-7', 'bin', 'tsc') },
];
/** What a consumer installs beside gocount for its types: Node's, at the version gocount is built against. */
const TYPES_NODE = `@types/node@${JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).devDependencies['@types/node']}`;
/** Scripts that npm runs, or asks to allow, when a consumer installs a package from a tarball. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

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

const dir = sharedScratch();

/** The package packed and installed into a new project, beside Node's types and nothing else. */
const consumer = once(() => {
  const packed = run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], repoRoot);
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
  if (packed.status !== 0 || !tarball) throw new Error(`npm pack: ${packed.output}`);
  const project = path.join(dir, 'consumer');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const installed = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball), TYPES_NODE], project);
  if (installed.status !== 0) throw new Error(`npm install: ${installed.output}`);
  return { project, scratch: path.join(dir, 'scratch'), shipped: path.join(project, 'node_modules', 'gocount'), output: installed.output };
});

test('installing the packed package runs no script of it and asks to allow none', (t) => {
  const { shipped, output } = consumer();
  t.notRegex(output, /install-scripts|allowScripts/);
  const scripts = Object.keys(JSON.parse(readFileSync(path.join(shipped, 'package.json'), 'utf8')).scripts ?? {});
  t.deepEqual(
    scripts.filter((name) => INSTALL_SCRIPTS.includes(name)),
    [],
  );
});

test('the package holds its licence and every file its source maps name', (t) => {
  const { shipped } = consumer();
  t.regex(readFileSync(path.join(shipped, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) 2026 the gocount contributors\n/);
  const maps = mapReferences(shipped);
  t.true(maps.all.length > 100, maps.all.join('\n'));
  t.deepEqual(maps.dangling, []);
});

test("README's links into docs/ lead to files of the package as installed", (t) => {
  const { shipped } = consumer();
  const links = [...readFileSync(path.join(shipped, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#]+)/g)].map(([, link]) => link);
  t.true(links.length >= 5, links.join(' '));
  t.deepEqual(
    links.filter((link) => !existsSync(path.join(shipped, link))),
    [],
  );
});

test('CommonJS requires the package (Node ≥ 20.19) and counts, with nothing on stderr', (t) => {
  const { project, scratch } = consumer();
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
});

test('an ES module imports the package by name, counts, and gets its refusals as coded errors', (t) => {
  const { project, scratch } = consumer();
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
});

test("README's library example runs as written and its progress handler sees the last step", (t) => {
  const { project } = consumer();
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const example = /<!-- library-example -->\n```js\n([\s\S]*?)```/.exec(readme);
  t.truthy(example, 'README.md has the library example');
  writeFileSync(path.join(project, 'example.mjs'), example![1]);
  const fromReadme = run('node', ['example.mjs'], project);
  t.is(fromReadme.status, 0, fromReadme.output);
  t.regex(fromReadme.output, new RegExp(`^L\\(5,5\\) = ${L55}$`, 'm'));
  // The last step, 25, by the step log's numbering.
  t.regex(fromReadme.output, /^last step: 14 states$/m);
});

/**
 * A consumer's TypeScript project in a folder of its own under the consumer: strict, nodenext, and
 * no types, typeRoots or skipLibCheck, so that the declarations must bring in Node's types
 * themselves (TypeScript 7 includes no @types/* unasked). count.ts is checked; count.cts, CommonJS,
 * is compiled to out/count.cjs; wrong.ts takes the count for a string.
 */
function typeScriptProject(project: string, scratch: string, name: string): string {
  const folder = path.join(project, name);
  mkdirSync(folder);
  const compilerOptions = { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, outDir: 'out' };
  writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['count.ts', 'count.cts'] }));
  writeFileSync(
    path.join(folder, 'tsconfig.wrong.json'),
    JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true }, files: ['wrong.ts'] }),
  );
  writeFileSync(
    path.join(folder, 'count.ts'),
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
    path.join(folder, 'count.cts'),
    `import { countLegal, type CountResult } from 'gocount';
countLegal({ m: 3, n: 3, memory: '64M', workers: 1, scratch: ${JSON.stringify(scratch)} }).then((result: CountResult) => {
  const legal: bigint = result.legal;
  console.log(String(legal));
});
`,
  );
  writeFileSync(
    path.join(folder, 'wrong.ts'),
    `import { countLegal } from 'gocount';\nconst legal: string = (await countLegal({ m: 5, n: 5 })).legal;\nconsole.log(legal);\n`,
  );
  return folder;
}

for (const { version, tsc } of COMPILERS) {
  test(`TypeScript ${version} type-checks a consumer's strict nodenext project with Node's types and nothing else`, (t) => {
    // A compiler that is missing fails the test: it is pinned in package.json, so npm install brings it.
    t.true(existsSync(tsc), `TypeScript ${version} is not installed at ${tsc}`);
    t.is(run('node', [tsc, '--version'], repoRoot).output, `Version ${version}\n`);
    const { project, scratch } = consumer();
    const folder = typeScriptProject(project, scratch, `typescript-${version}`);
    const checked = run('node', [tsc, '-p', 'tsconfig.json'], folder);
    t.is(checked.status, 0, checked.output);
    const cts = run('node', [path.join('out', 'count.cjs')], folder);
    t.is(cts.status, 0, cts.output);
    t.is(cts.output, `${L33}\n`);
  });

  test(`TypeScript ${version} refuses a consumer that takes the count for a string: the types are real`, (t) => {
    const { project, scratch } = consumer();
    const folder = typeScriptProject(project, scratch, `typescript-${version}-wrong`);
    const wrong = run('node', [tsc, '-p', 'tsconfig.wrong.json'], folder);
    t.not(wrong.status, 0);
    t.regex(wrong.output, /wrong\.ts.*TS2322: Type 'bigint' is not assignable to type 'string'/);
  });
}
