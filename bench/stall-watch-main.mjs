// Preload for bench/stall-probe.ts: loads bench/stall-watch.ts on the main thread only. Worker threads
// (the ingest transform thread) inherit the process's --import flags but cannot load a .ts preload.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) await import('./stall-watch.ts');
