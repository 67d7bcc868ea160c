#!/usr/bin/env -S node --max-semi-space-size=4
// Entry point of the `ringql` bin: the compiled CLI in dist/ when it is as new as the sources (npm start
// builds it), else the TypeScript through tsx (a runtime dependency). The native ingest addon is built
// first when it is missing (through npm, which gives node-gyp the Node headers), saying so.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, distIsFresh } from './dist-fresh.mjs';

if (!existsSync(join(ROOT, 'src', 'native', 'build', 'Release', 'ringql_ingest.node'))) {
  process.stderr.write('ringql: building the native ingest addon first (npm run native)\n');
  const r = spawnSync('npm', ['run', '--silent', 'native'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) process.stderr.write('ringql: the addon did not build; see the error above\n');
}

let main;
if (distIsFresh()) {
  ({ main } = await import('../../dist/src/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
