// The JavaScript cost of one cached answer (issue 18), in process, without sockets: the request copy,
// the hit path and the service lookup against stub uWS objects, CPU ns per request (best of rounds), so
// changes to the hit path can be judged on a machine too busy for wrk to tell them apart.
//   Run: node --import tsx bench/hit-path-micro.ts [rounds]

import { getHeapStatistics } from 'node:v8';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { createQueryService } from '../src/endpoints/service.ts';
import { generateEvents } from '../src/gen/generate.ts';
import { Admission } from '../src/http/admission.ts';
import { tokenSet } from '../src/http/auth.ts';
import { corsHeaders } from '../src/http/cors.ts';
import { makeHitPath } from '../src/http/hit-path.ts';
import { copyRequest } from '../src/http/request-info.ts';
import { buildRouter } from '../src/http/routes.ts';
import { ServerMetrics } from '../src/http/metrics/server-metrics.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const N = 200_000;
const URL_PATH = '/api/endpoints/query/usage.api-counts';
const QUERY = 'interval=hourly&project=default';

async function main(): Promise<void> {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  const batches = new Map<string, unknown[]>();
  for (const { source, event } of generateEvents({ events: 100_000, projects: 5, days: 7, seed: 42, endUs: Date.now() * 1000 })) {
    let b = batches.get(source);
    if (!b) batches.set(source, (b = []));
    b.push(event);
    if (b.length >= 1000) service.ingestVolatile(source, b.splice(0));
  }
  for (const [source, b] of batches) if (b.length) service.ingestVolatile(source, b);
  const cfg = {
    service, metrics: new ServerMetrics(), tokens: tokenSet([{ token: 'bench-token' }]), router: buildRouter(Date.now()),
    maxBodyBytes: 1 << 20, maxUrlBytes: 8192, maxDecompressedBytes: 1 << 24,
    admission: new Admission({ ingest: 512, query: 512, other: 512 }), bodyDeadline: { totalMs: 10_000, idleMs: 5000 },
  };
  // The window of a bucket answer moves with the clock: now and then the answer must be computed again.
  const refresh = (): Promise<unknown> => service.run({ endpoint: 'usage.api-counts', params: new Map([['interval', 'hourly'], ['project', 'default']]), redactHeader: false });
  await refresh();
  let misses = 0;
  const answer = makeHitPath(cfg, corsHeaders('*'));
  const headers: [string, string][] = [['host', '127.0.0.1:8080'], ['x-api-key', 'bench-token']];
  const req = {
    getUrl: () => URL_PATH, getQuery: () => QUERY, getMethod: () => 'get', getCaseSensitiveMethod: () => 'GET',
    getHeader: (k: string) => headers.find(([n]) => n === k)?.[1] ?? '',
    forEach: (cb: (k: string, v: string) => void) => { for (const [k, v] of headers) cb(k, v); },
  } as unknown as HttpRequest;
  let bytes = 0;
  // As uWS's native side reads a string (V8's Utf8Length flattens a concatenation into one new string); what
  // else the native side allocates per call is not modelled: bench/hit-gc.ts measures a real server.
  const size = (x: string | ArrayBufferView): number => (typeof x === 'string' ? Buffer.byteLength(x) : x.byteLength);
  const res = {
    cork(cb: () => void) { cb(); return res; },
    writeStatus() { return res; },
    writeHeader(k: string | ArrayBufferView, v: string | ArrayBufferView) { bytes += size(k) + size(v); return res; },
    end(b: Buffer) { bytes += b.length; return res; },
  } as unknown as HttpResponse;
  const once = (): boolean => answer(res, copyRequest(req), performance.now()) === true;
  const loop = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      if (once()) continue;
      misses++;
      await refresh();
    }
  };
  await loop(50_000);
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    // CPU time, not wall time: on a shared machine the time this process waits for a core is not its cost.
    const c0 = process.cpuUsage();
    await loop(N);
    const c = process.cpuUsage(c0);
    const ns = ((c.user + c.system) * 1000) / N;
    best = Math.min(best, ns);
    process.stdout.write(`round ${r + 1}: ${ns.toFixed(0)} ns/request\n`);
  }
  process.stdout.write(`best: ${best.toFixed(0)} ns/request (${bytes} bytes written, ${misses} misses recomputed)\n`);
  process.stdout.write(`heap allocated: ${allocatedPerCall(once).toFixed(0)} B/request (median of batches without a GC)\n`);
  service.close();
}

/** Heap bytes one call of `fn` allocates: median over batches of 1000 calls in which no GC ran (the heap only grew). */
function allocatedPerCall(fn: () => unknown): number {
  const per: number[] = [];
  for (let i = 0; i < 200 && per.length < 51; i++) {
    const h0 = getHeapStatistics().used_heap_size;
    for (let k = 0; k < 1000; k++) fn();
    const grew = getHeapStatistics().used_heap_size - h0;
    if (grew > 0) per.push(grew / 1000);
  }
  per.sort((a, b) => a - b);
  return per[Math.floor(per.length / 2)] ?? NaN;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
