// Demo data (RINGQL_DEMO=1): a week of synthetic events loaded at start, a live trickle of fresh ones,
// and the curl lines printed for trying the server.

import { randomUUID } from 'node:crypto';
import type { EngineService } from './endpoints/service.ts';
import { nowMicros, parseTimestamp } from './core/time.ts';
import { parseEventsBody } from './endpoints/events-body.ts';
import type { DemoMessage, DemoWorkerData } from './gen/demo-worker.ts';

const DEMO = { events: 300_000, projects: 5, days: 7, seed: 42, batch: 1000, tricklePerSourcePerSecond: 3 };

/**
 * A week of synthetic events for a few projects: generated and serialised on a worker thread (src/gen/
 * demo-worker.ts), transformed on the transform thread and stored here (the byte path, in three stages).
 */
export async function loadDemo(service: EngineService): Promise<void> {
  const { Worker } = await import('node:worker_threads');
  const started = Date.now();
  const workerData: DemoWorkerData = {
    gen: { events: DEMO.events, projects: DEMO.projects, days: DEMO.days, seed: DEMO.seed, endUs: nowMicros() },
    batch: DEMO.batch,
    queued: new SharedArrayBuffer(4),
    maxQueued: 8,
  };
  const queued = new Int32Array(workerData.queued);
  // Compiled JavaScript runs the worker as it is; under tsx, loader hooks are per thread, so a boot file registers tsx first.
  const entry = import.meta.url.endsWith('.js') ? './gen/demo-worker.js' : './gen/demo-worker-boot.mjs';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData });
  let done = 0;
  const stored = (events: number): void => {
    const before = done;
    done += events;
    if (Math.floor(done / 50_000) > Math.floor(before / 50_000)) process.stderr.write(`demo: loaded ${done} of ${DEMO.events} events\n`);
  };
  await new Promise<void>((resolve, reject) => {
    // Bodies are transformed on the transform thread as they arrive and stored here in arrival order.
    const pending: Promise<void>[] = [];
    const fail = (err: unknown): void => reject(err instanceof Error ? err : new Error(String(err)));
    worker.on('message', (m: DemoMessage) => {
      if ('done' in m) { Promise.all(pending).then(() => resolve(), fail); return; }
      const body = Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength);
      // Demo data is made anew at every start: it is not written to the log.
      const p = service.ingestBodyVolatileAsync(m.source, body, true, () => parseEventsBody(body, 'application/x-ndjson')).then(() => {
        stored(m.events);
        Atomics.sub(queued, 0, 1);
        Atomics.notify(queued, 0);
      });
      p.catch(fail);
      pending.push(p);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => { if (code !== 0) reject(new Error(`the demo generator thread exited with ${code}`)); });
  }).finally(() => void worker.terminate());
  process.stderr.write(`demo: loaded ${done} events in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/**
 * A few fresh events per second per source, so dashboards move: the next two minutes are generated
 * ahead (same seed, so the same projects) and each event is ingested when its time comes, with a new
 * id. Returns the stop function.
 */
export async function startTrickle(service: EngineService, log: (line: string) => void): Promise<() => void> {
  const { generateEvents, GEN_SOURCE_NAMES } = await import('./gen/generate.ts');
  const windowSeconds = 120;
  let due: { ts: number; source: string; event: Record<string, unknown> }[] = [];
  let next = 0;
  const refill = (fromUs: number): void => {
    const events = DEMO.tricklePerSourcePerSecond * GEN_SOURCE_NAMES.length * windowSeconds;
    const endUs = fromUs + windowSeconds * 1_000_000;
    due = [...generateEvents({ events, projects: DEMO.projects, days: windowSeconds / 86_400, seed: DEMO.seed, endUs })]
      .map(({ source, event }) => ({ ts: parseTimestamp(event.timestamp) ?? fromUs, source, event }))
      .sort((a, b) => a.ts - b.ts);
    next = 0;
  };
  refill(nowMicros());
  const timer = setInterval(() => {
    const now = nowMicros();
    if (next >= due.length) refill(now);
    const batches = new Map<string, unknown[]>();
    for (; next < due.length && due[next]!.ts <= now; next++) {
      const { source, event } = due[next]!;
      let batch = batches.get(source);
      if (!batch) batches.set(source, (batch = []));
      batch.push({ ...event, id: randomUUID() });
    }
    for (const [source, events] of batches) {
      try {
        service.ingestVolatile(source, events);
      } catch (err) {
        log(`demo: trickle into ${source} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}

export function curlExamples(base: string): string[] {
  const auth = '-H "Authorization: Bearer $RINGQL_TOKEN"';
  const sql = encodeURIComponent('select count(*) as count from edge_logs');
  const event = JSON.stringify({
    event_message: 'GET /rest/v1/todos 200',
    project: 'default',
    metadata: { request: { method: 'GET', path: '/rest/v1/todos', url: 'https://default.api.example.com/rest/v1/todos' }, response: { status_code: 200 } },
  });
  return [
    '# set RINGQL_TOKEN to the token above (or one of RINGQL_ACCESS_TOKENS), then:',
    `curl ${auth} '${base}/api/endpoints/query/logs.all?project=default'`,
    `curl ${auth} '${base}/api/endpoints/query/usage.api-counts?interval=daily&project=default'`,
    `curl ${auth} '${base}/api/endpoints/query/logs.all?project=default&sql=${sql}'`,
    `curl ${auth} -H 'Content-Type: application/json' -X POST '${base}/api/logs?source_name=edge.logs.prod' -d '${JSON.stringify({ batch: [JSON.parse(event) as unknown] })}'`,
  ];
}
