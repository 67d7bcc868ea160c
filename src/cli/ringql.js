#!/usr/bin/env node
// Entry point of the `ringql` bin: runs the TypeScript CLI through tsx (a runtime dependency).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
