// `npm run lint`: eslint and Prettier's check side by side, each keeping its cache in
// node_modules/.cache (a file unchanged since the last lint is not read again); fails when either
// does. Plain JavaScript, not shipped. Side by side, a fresh clone's lint takes the longer of the two
// instead of their sum (each mostly keeps one core busy).

import { spawn } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const checks = [
  [bin('eslint'), ['.', '--cache', '--cache-location', 'node_modules/.cache/eslint/']],
  [bin('prettier'), ['--check', '.', '--cache']],
];

const codes = await Promise.all(
  checks.map(
    ([command, args]) =>
      new Promise((resolve) => {
        const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
        child.on('error', (error) => {
          process.stderr.write(`lint: ${path.basename(command)}: ${error.message}\n`);
          resolve(1);
        });
        child.on('exit', (code, signal) => resolve(signal ? 1 : code));
      }),
  ),
);
process.exit(codes.every((code) => code === 0) ? 0 : 1);
