// The imports between the modules of lib/ and cli/: no cycle, and none from a lower layer to a
// higher one, by the layer list of docs/contributing.md ("## Layers"). It reads the TypeScript
// sources, so that `import type`, `export … from` and `import('…')` types count as much as the imports
// Node loads: a module that needs another's types depends on it as surely as one that calls it.
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../support/paths.js';

/** An import, by the source files (lib/…/x.ts) of its importer and of what it imports. */
interface Import {
  readonly from: string;
  readonly to: string;
}

/** A layer of the list: its name, and the folders (ending in /) and files it holds. */
interface Layer {
  readonly name: string;
  readonly paths: readonly string[];
}

/**
 * The list under "## Layers" in docs/contributing.md, lowest first: items "N. **name**: `path`, `path` —
 * what it holds", whose paths are the backquoted ones before the dash.
 */
function readLayers(): Layer[] {
  const text = readFileSync(path.join(repoRoot, 'docs', 'contributing.md'), 'utf8');
  const section = /\n## Layers\n([\s\S]*?)(\n## |$)/.exec(text);
  if (!section) throw new Error('docs/contributing.md has no "## Layers" section');
  const layers: Layer[] = [];
  for (const [, number, name, rest] of section[1].matchAll(/^(\d+)\. \*\*([^*]+)\*\*: (.*)$/gm)) {
    if (Number(number) !== layers.length + 1) throw new Error(`layer ${name} is numbered ${number}, not ${layers.length + 1}`);
    const head = rest.split(' — ')[0];
    layers.push({ name, paths: [...head.matchAll(/`([^`]+)`/g)].map(([, quoted]) => quoted) });
  }
  return layers;
}

/** The files under `dir` (relative to the repository), recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(relative) : [relative];
  });
}

/**
 * The modules that `source` names: import and export declarations (`import type` included), `import()`
 * calls, and `import('…')` types, wherever they stand in the file.
 */
function namedModules(source: ts.SourceFile): string[] {
  const named: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      named.push(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      named.push(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])) {
      named.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return named;
}

/**
 * The source file that a relative specifier names: `./x.js` is `./x.ts`; the AssemblyScript kernels
 * name each other without an ending (`./x.as` is `./x.as.ts`).
 */
const sourceNamed = (specifier: string) => (specifier.endsWith('.js') ? specifier.replace(/\.js$/, '.ts') : `${specifier}.ts`);

/** Every import between the TypeScript modules of lib/ and cli/, type-only ones included. */
function sourceImports(): { modules: string[]; imports: Import[] } {
  const modules = ['lib', 'cli'].flatMap(filesUnder).filter((file) => file.endsWith('.ts'));
  const imports: Import[] = [];
  for (const file of modules) {
    const source = ts.createSourceFile(file, readFileSync(path.join(repoRoot, file), 'utf8'), ts.ScriptTarget.Latest);
    for (const specifier of namedModules(source)) {
      if (!specifier.startsWith('.')) continue; // node: and packages
      imports.push({ from: file, to: path.posix.join(path.posix.dirname(file), sourceNamed(specifier)) });
    }
  }
  return { modules, imports };
}

const layers = readLayers();
const { modules, imports } = sourceImports();

/** The index in `layers` of the layer that holds `file`, or -1. */
function layerOf(file: string): number {
  return layers.findIndex((layer) => layer.paths.some((held) => (held.endsWith('/') ? file.startsWith(held) : file === held)));
}

test('the imports read count type-only ones: import type, export … from, import() types and calls', (t) => {
  const text = [
    "import type { A } from './a.js';",
    "import { type B } from './b.js';",
    "export type { C } from './c.js';",
    "export * from './d.js';",
    "let e: import('./e.js').E;",
    "function f(): typeof import('./f.js') { return import('./g.js') as never; }",
  ].join('\n');
  const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest);
  t.deepEqual(namedModules(source), ['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js', './g.js']);
});

test('the layer list of docs/contributing.md holds every file of lib/ and cli/ in exactly one layer', (t) => {
  t.true(layers.length >= 5, `${layers.length} layers`);
  const problems: string[] = [];
  const listed = layers.flatMap((layer) => layer.paths.map((held) => ({ layer: layer.name, held })));
  for (const { layer, held } of listed) {
    if (!existsSync(path.join(repoRoot, held))) problems.push(`layer ${layer}: ${held} is not there`);
    if (!/^(lib|cli)\//.test(held)) problems.push(`layer ${layer}: ${held} is not in lib/ or cli/`);
  }
  for (const file of [...filesUnder('lib'), ...filesUnder('cli')]) {
    const holders = listed.filter(({ held }) => (held.endsWith('/') ? file.startsWith(held) : file === held));
    if (holders.length !== 1) problems.push(`${file} is in ${holders.length} layers (${holders.map(({ layer }) => layer).join(', ')})`);
  }
  t.deepEqual(problems, []);
});

test('no import of lib/ or cli/ goes round in a cycle, type-only ones included', (t) => {
  t.true(modules.length > 100, `${modules.length} modules`);
  const next = new Map<string, string[]>(modules.map((module) => [module, []]));
  for (const { from, to } of imports) next.get(from)?.push(to);
  // Tarjan's strongly connected components; each of more than one module holds a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (module: string) => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    for (const target of next.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const component = stack.splice(stack.indexOf(module));
    if (component.length > 1 || next.get(module)!.includes(module)) cycles.push(shortestCycle(component.sort()[0], new Set(component)));
  };
  // The shortest way round from `start` within its component, as "a → b → a".
  const shortestCycle = (start: string, within: Set<string>) => {
    const cameFrom = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const target of next.get(queue[i])!) {
        if (target === start) {
          const way = [start];
          for (let at = queue[i]; at !== start; at = cameFrom.get(at)!) way.splice(1, 0, at);
          return [...way, start].join(' → ');
        }
        if (within.has(target) && !cameFrom.has(target)) {
          cameFrom.set(target, queue[i]);
          queue.push(target);
        }
      }
    }
    return [...within].join(', ');
  };
  for (const module of modules) if (!index.has(module)) visit(module);
  t.deepEqual(cycles, []);
});

test('no import goes from a lower layer to a higher one, type-only ones included', (t) => {
  const upwards: string[] = [];
  for (const { from, to } of imports) {
    const [below, above] = [layerOf(from), layerOf(to)];
    if (below < 0 || above < 0) upwards.push(`${from} → ${to}: not both in a layer`);
    else if (above > below) upwards.push(`${from} (${layers[below].name}) → ${to} (${layers[above].name})`);
  }
  t.deepEqual(upwards, []);
});
