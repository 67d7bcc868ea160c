// Builds the ingest addon (node-gyp rebuild -C src/native) when its .node file is missing or older
// than a source beside it; run before `npm start`, `npm test` and `npm run bench`. A failed build exits 1.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const out = join(dir, 'build', 'Release', 'ringql_ingest.node');
const sources = readdirSync(dir).filter((f) => /\.(c|h|gyp)$/.test(f)).map((f) => join(dir, f));
const built = existsSync(out) ? statSync(out).mtimeMs : -1;
if (built >= 0 && sources.every((f) => statSync(f).mtimeMs <= built)) process.exit(0);
process.stderr.write('ringql: building the native ingest addon (node-gyp rebuild -C src/native)\n');
const nodedir = nodeHeadersDir();
const args = ['rebuild', '-C', dir, ...(nodedir ? [`--nodedir=${nodedir}`] : [])];
// node-gyp from our own dependencies, run by this node: no reliance on PATH (npm scripts put
// node_modules/.bin there; a bare `node build-if-stale.mjs` does not).
const nodeGyp = createRequire(import.meta.url).resolve('node-gyp/bin/node-gyp.js');
const r = spawnSync(process.execPath, [nodeGyp, ...args], { stdio: 'inherit' });
if (r.status !== 0) {
  process.stderr.write('ringql: the native ingest addon failed to build; it needs python3, make, a C compiler and the Node headers (npm_config_nodedir, or include/node beside the running node)\n');
  process.exit(1);
}

/**
 * Where node-gyp finds the Node headers without downloading them: npm's `nodedir` setting when npm runs
 * this, else the prefix of the running node when its `include/node` holds this very version's headers.
 * Null leaves node-gyp to its own header cache (which downloads, and fails offline, loudly).
 */
function nodeHeadersDir() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  const prefix = resolve(dirname(process.execPath), '..');
  const versionH = join(prefix, 'include', 'node', 'node_version.h');
  if (!existsSync(versionH)) return null;
  const text = readFileSync(versionH, 'utf8');
  const part = (name) => new RegExp(`#define ${name} (\\d+)`).exec(text)?.[1];
  const version = `${part('NODE_MAJOR_VERSION')}.${part('NODE_MINOR_VERSION')}.${part('NODE_PATCH_VERSION')}`;
  return version === process.versions.node ? prefix : null;
}
