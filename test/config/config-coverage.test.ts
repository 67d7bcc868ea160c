// One config module: every environment variable src/ (or `npm start`) reads is parsed in
// src/core/config*.ts and documented in CONFIG_VARS, and the README's table is exactly that list.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARS, configTable } from '../../src/core/config-vars.ts';
import { envReads, readText, tsFiles } from './env-reads.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const documented = new Set(CONFIG_VARS.flatMap((v) => v.names));
const isConfigModule = (file: string): boolean => /src\/core\/config[^/]*\.ts$/.test(file);

function readsIn(files: string[]): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const f of files) for (const name of envReads(readText(f), isConfigModule(f))) where.set(name, [...(where.get(name) ?? []), f.slice(ROOT.length)]);
  return where;
}

function startScriptReads(): Set<string> {
  const pkg = JSON.parse(readText(`${ROOT}package.json`)) as { scripts: Record<string, string> };
  return new Set([...(pkg.scripts.start ?? '').matchAll(/\$\{?(RINGQL_[A-Z0-9_]+)/g)].map((m) => m[1]!));
}

describe('config coverage', () => {
  it('finds reads in the forms src/ uses', () => {
    const code = "const a = process.env.RINGQL_X; const b = env['RINGQL_Y']; intVar(env, 'PORT', 1, 0, 2);\n// env.RINGQL_IN_COMMENT\n";
    expect([...envReads(code)].sort()).toEqual(['PORT', 'RINGQL_X', 'RINGQL_Y']);
    expect([...envReads("const T = [['a', 'RINGQL_Z', 1]];", true)]).toEqual(['RINGQL_Z']);
  });

  it('every variable read in src/ or by npm start is documented in CONFIG_VARS', () => {
    const reads = readsIn(tsFiles(`${ROOT}src`));
    for (const n of startScriptReads()) reads.set(n, ['package.json']);
    const missing = [...reads].filter(([n]) => !documented.has(n)).map(([n, files]) => `${n} (${files.join(', ')})`);
    expect(missing).toEqual([]);
  });

  it('every variable read outside the config module is also parsed in it', () => {
    const inModule = readsIn(tsFiles(`${ROOT}src/core`).filter(isConfigModule));
    const outside = readsIn(tsFiles(`${ROOT}src`).filter((f) => !isConfigModule(f)));
    // uws.ts sets UWS_HTTP_MAX_HEADERS_SIZE for uWebSockets.js to read; the config module reads it too.
    expect([...outside.keys()].filter((n) => !inModule.has(n))).toEqual([]);
  });

  it('every documented variable is parsed by the config module or read by npm start', () => {
    const parsed = new Set([...readsIn(tsFiles(`${ROOT}src/core`).filter(isConfigModule)).keys(), ...startScriptReads()]);
    expect([...documented].filter((n) => !parsed.has(n))).toEqual([]);
  });

  it("the README's configuration table is CONFIG_VARS (UPDATE_GOLDEN=1 rewrites it)", () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const start = readme.indexOf('| variable | default | meaning |');
    const end = readme.indexOf('\n\n', start);
    expect(start).toBeGreaterThan(0);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(`${ROOT}README.md`, readme.slice(0, start) + configTable() + readme.slice(end));
    expect(readme.slice(start, end)).toBe(configTable());
  });
});
