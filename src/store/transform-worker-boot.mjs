// Entry of the transform thread under tsx: loader hooks are per thread, so tsx is registered here before
// transform-worker.ts (TypeScript) is imported. Compiled JavaScript starts transform-worker.js directly.
import { register } from 'tsx/esm/api';

register();
await import('./transform-worker.ts');
