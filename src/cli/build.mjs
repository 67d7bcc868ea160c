// Compiles src/ and grammar/ to dist/ with TypeScript's native compiler (./x.ts imports become ./x.js; no
// type check: `npm run typecheck` does that), bundles the CLI (bundle-cli.mjs), then stamps dist/.built.
// `--if-stale` skips a fresh build; without tsc (a production install) an existing dist/ is used as it is.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, STAMP, distIsFresh } from './dist-fresh.mjs';
import { bundleCli } from './bundle-cli.mjs';

if (process.argv.includes('--if-stale') && distIsFresh()) process.exit(0);
let tsc;
try {
  tsc = join(createRequire(import.meta.url).resolve('typescript/package.json'), '..', 'bin', 'tsc');
} catch {
  tsc = null;
}
if (!tsc || !existsSync(tsc)) {
  if (existsSync(STAMP)) {
    process.stderr.write('build: typescript is not installed; using dist/ as it is\n');
    process.exit(0);
  }
  process.stderr.write('build: typescript is not installed and there is no dist/: run npm ci (with dev dependencies)\n');
  process.exit(1);
}
const t0 = performance.now();
// The files and options of tsconfig.json, emitting (a second tsconfig would be one more top-level file).
const files = (dir) => readdirSync(join(ROOT, dir)).flatMap((n) => {
  const rel = join(dir, n);
  return statSync(join(ROOT, rel)).isDirectory() ? files(rel) : n.endsWith('.ts') ? [rel] : [];
});
const options = ['--target', 'ES2022', '--module', 'preserve', '--moduleResolution', 'bundler', '--allowImportingTsExtensions',
  '--rewriteRelativeImportExtensions', '--isolatedModules', '--verbatimModuleSyntax', '--skipLibCheck', '--types', 'node',
  '--lib', 'ES2022', '--ignoreConfig', '--noCheck', '--rootDir', '.', '--outDir', 'dist'];
const r = spawnSync(process.execPath, [tsc, ...options, ...files('src'), ...files('grammar')], { cwd: ROOT, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
await bundleCli(ROOT);
mkdirSync(join(ROOT, 'dist'), { recursive: true });
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
process.stderr.write(`build: dist/ compiled in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
