#!/usr/bin/env node
// Entry point of the `ringql` bin: the compiled CLI in dist/ when it is as new as the sources (npm ci and
// npm start build it), else the TypeScript through tsx (a runtime dependency).
import { distIsFresh } from './dist-fresh.mjs';

let main;
if (distIsFresh()) {
  ({ main } = await import('../../dist/src/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('./main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
