// Reads every import in src/ and checks it against the allowed folder edges (allowed-edges.ts): no arrow
// points back up the layers, the allowed table is a DAG, and the list of known wrong-way edges only shrinks.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALLOWED_EDGES, PENDING_EDGES } from './allowed-edges.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'web' || n === 'native' ? [] : sourceFiles(p);
    return /\.(ts|js|mjs)$/.test(n) ? [p] : [];
  });
}

/** The layer a path belongs to: the folder under src/, `main` for files directly in src/, or `grammar`. */
function layerOf(path: string): string | null {
  let rel = relative(ROOT, path).split(/[\\/]/);
  if (rel[0] === 'dist') rel = rel.slice(1); // the compiled copy of src/ and grammar/ (the CLI launcher may load it)
  if (rel[0] === 'grammar') return 'grammar';
  if (rel[0] !== 'src') return null;
  return rel.length === 2 ? 'main' : rel[1]!;
}

/** Every relative import (static, dynamic, re-export, type-only) of each file, as folder edges with an example. */
function folderEdges(): Map<string, string> {
  const edges = new Map<string, string>();
  const spec = /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|^import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const file of sourceFiles(SRC)) {
    const from = layerOf(file)!;
    for (const m of readFileSync(file, 'utf8').matchAll(spec)) {
      const target = resolve(dirname(file), m[1] ?? m[2] ?? m[3]!);
      const to = layerOf(target);
      if (to === null) throw new Error(`${relative(ROOT, file)} imports ${target}, outside src/ and grammar/`);
      if (to !== from && !edges.has(`${from}->${to}`)) edges.set(`${from}->${to}`, relative(ROOT, file));
    }
  }
  return edges;
}

describe('import layering', () => {
  const edges = folderEdges();

  it('reads a realistic number of edges (the parser sees the imports)', () => {
    expect(edges.has('plan->sql')).toBe(true);
    expect(edges.has('http->endpoints')).toBe(true);
    expect(edges.size).toBeGreaterThan(30);
  });

  it('every import between folders is allowed (or a known wrong-way edge being removed)', () => {
    const bad = [...edges].filter(([e]) => {
      const [from, to] = e.split('->') as [string, string];
      return !(ALLOWED_EDGES[from]?.includes(to)) && !(e in PENDING_EDGES);
    }).map(([e, file]) => `${e} (e.g. ${file})`);
    expect(bad).toEqual([]);
  });

  it('the known wrong-way edges still exist (remove an entry once its edge is gone)', () => {
    expect(Object.keys(PENDING_EDGES).filter((e) => !edges.has(e))).toEqual([]);
  });

  it('nothing but main.ts imports http/, and the allowed table has no cycle', () => {
    expect([...edges.keys()].filter((e) => e.endsWith('->http') && !e.startsWith('main->'))).toEqual([]);
    const state = new Map<string, number>();
    const cycle: string[] = [];
    const visit = (n: string, path: string[]): void => {
      if (state.get(n) === 2) return;
      if (state.get(n) === 1) { cycle.push([...path, n].join(' -> ')); return; }
      state.set(n, 1);
      for (const t of ALLOWED_EDGES[n] ?? []) visit(t, [...path, n]);
      state.set(n, 2);
    };
    for (const n of Object.keys(ALLOWED_EDGES)) visit(n, []);
    expect(cycle).toEqual([]);
  });
});
