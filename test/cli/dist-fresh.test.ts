// dist/ is fresh while no TypeScript source, build script, folder of them or tsconfig.json is newer than
// dist/.built; other files (the web page's, the addon's build) do not make the bin recompile.

import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs module (the bin's, run before any TypeScript loads), without types
import { distIsFresh } from '../../src/cli/dist-fresh.mjs';

const fresh = distIsFresh as (root: string) => boolean;
const T0 = new Date('2026-01-01T00:00:00Z'), STAMP = new Date('2026-01-02T00:00:00Z'), LATER = new Date('2026-01-03T00:00:00Z');

/** A checkout with src/cli/a.ts, src/web/app.js, grammar/g.ts and tsconfig.json older than its dist/.built. */
function checkout(): string {
  const root = mkdtempSync(join(tmpdir(), 'ringql-fresh-'));
  for (const d of ['src/cli', 'src/web', 'grammar', 'dist']) mkdirSync(join(root, d), { recursive: true });
  for (const f of ['src/cli/a.ts', 'src/cli/b.mjs', 'src/web/app.js', 'grammar/g.ts', 'tsconfig.json', 'dist/.built']) writeFileSync(join(root, f), '');
  for (const p of ['src/cli/a.ts', 'src/cli/b.mjs', 'src/web/app.js', 'grammar/g.ts', 'tsconfig.json', 'src/cli', 'src/web', 'src', 'grammar']) utimesSync(join(root, p), T0, T0);
  utimesSync(join(root, 'dist/.built'), STAMP, STAMP);
  return root;
}

describe('distIsFresh', () => {
  it('is fresh with every source older than the stamp, and stale without a stamp', () => {
    const root = checkout();
    expect(fresh(root)).toBe(true);
    expect(fresh(join(root, 'src'))).toBe(false);
  });

  it('is stale when a TypeScript file, a build script, tsconfig.json or a folder is newer', () => {
    for (const p of ['src/cli/a.ts', 'src/cli/b.mjs', 'grammar/g.ts', 'tsconfig.json', 'src/cli']) {
      const root = checkout();
      utimesSync(join(root, p), LATER, LATER);
      expect(fresh(root), p).toBe(false);
    }
  });

  it('stays fresh when only a file the build does not compile is newer', () => {
    const root = checkout();
    utimesSync(join(root, 'src/web/app.js'), LATER, LATER);
    expect(fresh(root)).toBe(true);
  });
});
