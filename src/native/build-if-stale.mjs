// Builds the ingest addon (node-gyp rebuild -C src/native) when its .node file is missing or older
// than a source beside it; run before `npm start`, `npm test` and `npm run bench`. A failed build exits 1.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const out = join(dir, 'build', 'Release', 'ringql_ingest.node');
const sources = readdirSync(dir).filter((f) => /\.(c|h|gyp)$/.test(f)).map((f) => join(dir, f));
const built = existsSync(out) ? statSync(out).mtimeMs : -1;
if (built >= 0 && sources.every((f) => statSync(f).mtimeMs <= built)) process.exit(0);
process.stderr.write('ringql: building the native ingest addon (node-gyp rebuild -C src/native)\n');
const r = spawnSync('node-gyp', ['rebuild', '-C', dir], { stdio: 'inherit', shell: process.platform === 'win32' });
if (r.status !== 0) {
  process.stderr.write('ringql: the native ingest addon failed to build; it needs python3, make, a C compiler and the Node headers (nodedir in .npmrc or npm_config_nodedir)\n');
  process.exit(1);
}
