// Entry of a column-only load worker under tsx: loader hooks are per thread, so tsx is registered here
// before column-worker.ts (TypeScript) is imported. Compiled JavaScript starts column-worker.js directly.
import { register } from 'tsx/esm/api';

register();
await import('./column-worker.ts');
