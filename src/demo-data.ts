// Demo data (RINGQL_DEMO=1): a week of synthetic events loaded at start (the server listens once the first
// batch is stored), a live trickle of fresh ones, and the curl lines printed for trying the server.

import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { EngineService } from './endpoints/service.ts';
import { nowMicros, parseTimestamp } from './core/time.ts';
import { parseEventsBody } from './endpoints/events-body.ts';
import type { DemoMessage, DemoWorkerData } from './gen/demo-worker.ts';

const DEMO = { events: 300_000, projects: 5, days: 7, seed: 42, batch: 1000, tricklePerSourcePerSecond: 3 };

/** The demo generator thread, started before the service is ready; its bodies wait here until a loader takes them. */
export interface DemoGenerator {
  events: number;
  /** Int32 [0]: bodies posted and not yet stored (the thread waits while there are `maxQueued`). */
  queued: Int32Array;
  /** Hands every body (those that came early first) and the end to `on`, and a failure of the thread to `fail`. */
  take(on: (m: DemoMessage) => void, fail: (err: Error) => void): void;
  stop(): void;
}

/**
 * Starts generating the demo week on a worker thread (src/gen/demo-worker.ts) right away, so generation
 * overlaps the rest of the start; `events` is for tests (the demo is DEMO.events).
 */
export function startDemoGenerator(events = DEMO.events): DemoGenerator {
  const workerData: DemoWorkerData = {
    gen: { events, projects: DEMO.projects, days: DEMO.days, seed: DEMO.seed, endUs: nowMicros() },
    batch: DEMO.batch,
    queued: new SharedArrayBuffer(4),
    // Bodies of ~1-2 MB: enough to cover the start before the store takes any, not a pile in memory.
    maxQueued: 12,
  };
  // Compiled JavaScript runs the worker as it is; under tsx, loader hooks are per thread, so a boot file registers tsx first.
  const entry = import.meta.url.endsWith('.js') ? './gen/demo-worker.js' : './gen/demo-worker-boot.mjs';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData });
  const early: DemoMessage[] = [];
  let on: ((m: DemoMessage) => void) | null = null;
  let fail: ((err: Error) => void) | null = null;
  let failure: Error | null = null;
  let ended = false;
  let stopped = false;
  const failed = (err: Error): void => { if (!failure) { failure = err; fail?.(err); } };
  worker.on('message', (m: DemoMessage) => {
    if ('done' in m) ended = true;
    if (on) on(m);
    else early.push(m);
  });
  worker.once('error', failed);
  worker.once('exit', (code) => { if (!ended && !stopped) failed(new Error(`the demo generator thread exited with ${code} before it was done`)); });
  return {
    events,
    queued: new Int32Array(workerData.queued),
    take(onMessage, onFail): void {
      on = onMessage;
      fail = onFail;
      for (const m of early.splice(0)) onMessage(m);
      if (failure) onFail(failure);
    },
    stop: (): void => {
      stopped = true;
      void worker.terminate();
    },
  };
}

/** A demo load under way: `first` once the first body is stored (or the load ended), `done` once every event is. */
export interface DemoLoad {
  first: Promise<void>;
  done: Promise<number>;
}

/**
 * Stores the generator's bodies: transformed on the transform thread as they arrive and stored here in
 * arrival order (the byte path, in three stages). Demo data is made anew at every start: it is not logged.
 */
export function loadDemo(service: EngineService, gen: DemoGenerator, progress: (line: string) => void = () => {}): DemoLoad {
  const started = Date.now();
  let stored = 0;
  let markFirst = (): void => {};
  const first = new Promise<void>((resolve) => { markFirst = resolve; });
  const done = new Promise<number>((resolve, reject) => {
    const pending: Promise<void>[] = [];
    const fail = (err: unknown): void => reject(err instanceof Error ? err : new Error(String(err)));
    gen.take((m) => {
      if ('done' in m) { Promise.all(pending).then(() => resolve(stored), fail); return; }
      const body = Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength);
      const p = service.ingestBodyVolatileAsync(m.source, body, true, () => parseEventsBody(body, 'application/x-ndjson')).then(() => {
        const before = stored;
        stored += m.events;
        if (Math.floor(stored / 50_000) > Math.floor(before / 50_000)) progress(`demo: loaded ${stored} of ${gen.events} events`);
        Atomics.sub(gen.queued, 0, 1);
        Atomics.notify(gen.queued, 0);
        markFirst();
      });
      p.catch(fail);
      pending.push(p);
    }, fail);
  }).finally(() => { markFirst(); gen.stop(); });
  done.then((n) => progress(`demo: loaded ${n} events in ${((Date.now() - started) / 1000).toFixed(1)} s`), () => {});
  return { first, done };
}

/**
 * The demo at start: returns once the first body is stored, so the server listens with data to show, while
 * the rest loads in the background (queries see the events stored so far; the `demo: loaded N events in`
 * line marks the end), then starts the trickle. Returns the stop function; `fail` gets a load that fails later.
 */
export async function startDemo(service: EngineService, gen: DemoGenerator, log: (line: string) => void, fail: (err: Error) => void): Promise<() => void> {
  const load = loadDemo(service, gen, log);
  // A load that fails before its first body is stored fails the start itself.
  await Promise.race([load.first, load.done]);
  let stopTrickle = (): void => {};
  let stopped = false;
  load.done.then(async () => {
    if (!stopped) stopTrickle = await startTrickle(service, log);
  }).catch(fail);
  log(`demo: serving while the rest of the ${gen.events} events load (queries see the events stored so far)`);
  return () => {
    stopped = true;
    gen.stop();
    stopTrickle();
  };
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
