// Entry of the demo generator thread: loader hooks are per thread, so tsx is registered here before
// demo-worker.ts (TypeScript) is imported.
import { register } from 'tsx/esm/api';

register();
await import('./demo-worker.ts');
