#!/usr/bin/env -S node --max-semi-space-size=4 --no-parallel-scavenge
// Entry point of the `ringql` bin: the compiled CLI in dist/ when it is as new as the sources (npm start
// builds it; its one-file bundle when the build made one), else the TypeScript through tsx (a runtime
// dependency). The native ingest addon is built first when it is missing (through npm, which gives
// node-gyp the Node headers), saying so.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, distIsFresh } from './dist-fresh.mjs';

if (!existsSync(join(ROOT, 'src', 'native', 'build', 'Release', 'ringql_ingest.node'))) {
  process.stderr.write('ringql: building the native ingest addon first (npm run native)\n');
  const { spawnSync } = await import('node:child_process');
  const r = spawnSync('npm', ['run', '--silent', 'native'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) process.stderr.write('ringql: the addon did not build; see the error above\n');
}

// A reader that stops early (`ringql query … | head`) closes stdout: end quietly (what it read is what it
// wanted), not with an unhandled EPIPE and a stack trace.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

let main;
if (distIsFresh()) {
  const bundle = join(ROOT, 'dist', 'src', 'cli', 'main.bundle.js');
  ({ main } = await import(existsSync(bundle) ? bundle : '../../dist/src/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./main.ts'));
}
const code = await main(process.argv.slice(2));
process.exitCode = code;
if (process.argv[2] === 'query') {
  // The answer is out once stdout and stderr have flushed: exit then, not after tearing down the heap
  // and the loaded store (30-90 ms after a 1 GB load). Other commands end as the event loop does.
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise((done) => s.write('', done))));
  process.exit(code);
}
