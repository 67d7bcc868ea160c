// Keeps uWebSockets.js inside src/http/ and keeps src/http/ a leaf: only src/main.ts imports it.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const importsOf = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => (m[1] ?? m[2])!);

it('only src/http/ imports uWebSockets.js', () => {
  const offenders = tsFiles(SRC)
    .filter((f) => !relative(SRC, f).startsWith('http/'))
    .filter((f) => importsOf(f).some((s) => s === 'uWebSockets.js'));
  expect(offenders).toEqual([]);
});

it('nothing but src/main.ts imports src/http/', () => {
  const offenders = tsFiles(SRC)
    .map((f) => relative(SRC, f))
    .filter((f) => !f.startsWith('http/') && f !== 'main.ts')
    .filter((f) => importsOf(join(SRC, f)).some((s) => /(^|\/)http\//.test(s)));
  expect(offenders).toEqual([]);
});
