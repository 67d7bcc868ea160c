// Demo data (RINGQL_DEMO=1): a week of synthetic events loaded at start (the server listens once the first
// batch is stored), a live trickle of fresh ones, and the curl lines printed for trying the server.

import { randomUUID } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { EngineService } from './endpoints/service.ts';
import { nowMicros, parseTimestamp } from './core/time.ts';
import { parseEventsBody } from './endpoints/events-body.ts';
import type { DemoMessage, DemoWorkerData } from './gen/demo-worker.ts';

const DEMO = { events: 300_000, projects: 5, days: 7, seed: 42, batch: 1000, tricklePerSourcePerSecond: 3 };

/**
 * A body's bytes at most (past this, the line that crossed it ends the body): the transform thread copies each
 * body's rows (about its bytes) into a Buffer of their own, and one of MALLOC_SETTINGS.mmapThreshold (1 MiB) or
 * more is mapped afresh and faulted in page by page, where a smaller one reuses freed heap memory. 1000 edge
 * events were ~2.3 MB: 768 KiB bodies took the demo load from ~245k page faults to ~165k (bench/INGEST.md, round 15).
 */
export const DEMO_BODY_BYTES = 768 * 1024;
/** Bodies the generator thread may have posted and not yet stored (it waits while there are this many): ~23 MB at most, about what 12 bodies of 1000 edge events held before. */
const MAX_QUEUED = 30;
/** Body slots: one being written per source (nine) plus the queued ones, so a free slot exists whenever the queue has room. */
const SLOTS = 9 + MAX_QUEUED;

/** One body of the demo: NDJSON lines of one source, in a shared memory slot; `stored()` gives the slot back. */
export interface DemoBody {
  source: string;
  events: number;
  body: Buffer;
  /** Called once the body is stored (its bytes are not read after): the generator may write the slot again. */
  stored(): void;
}

/** The demo generator thread, started before the service is ready; its bodies wait here until a loader takes them. */
export interface DemoGenerator {
  events: number;
  /** Hands every body (those that came early first) and then the end (null) to `on`, and a failure of the thread to `fail`. */
  take(on: (m: DemoBody | null) => void, fail: (err: Error) => void): void;
  stop(): void;
}

type BodyMessage = Exclude<DemoMessage, { done: true }>;

/**
 * The body a message names, read in place in its slot's shared memory (each slot's memory is kept as this
 * thread last got it), with the `stored()` that gives the slot back and lets the generator go on.
 */
function slotReader(data: DemoWorkerData): (m: BodyMessage) => DemoBody {
  const queued = new Int32Array(data.queued);
  const inUse = new Int32Array(data.slots);
  const views: Buffer[] = [];
  return (m) => {
    if (m.memory) views[m.slot] = Buffer.from(m.memory);
    return {
      source: m.source, events: m.events, body: views[m.slot]!.subarray(0, m.length),
      stored: () => {
        Atomics.store(inUse, m.slot, 0);
        Atomics.sub(queued, 0, 1);
        Atomics.notify(queued, 0);
      },
    };
  };
}

/**
 * Starts generating the demo week on a worker thread (src/gen/demo-worker.ts) right away, so generation
 * overlaps the rest of the start; `events` and `endUs` are for tests (the demo is DEMO.events up to now).
 */
export function startDemoGenerator(events = DEMO.events, endUs = nowMicros()): DemoGenerator {
  const workerData: DemoWorkerData = {
    gen: { events, projects: DEMO.projects, days: DEMO.days, seed: DEMO.seed, endUs },
    batch: DEMO.batch,
    bodyBytes: DEMO_BODY_BYTES,
    queued: new SharedArrayBuffer(4),
    // Up to 30 bodies of at most ~768 KiB: enough to cover the start before the store takes any, not a pile in memory.
    maxQueued: MAX_QUEUED,
    slots: new SharedArrayBuffer(4 * SLOTS),
  };
  const body = slotReader(workerData);
  // Compiled JavaScript runs the worker as it is; under tsx, loader hooks are per thread, so a boot file registers tsx first.
  const entry = import.meta.url.endsWith('.js') ? './gen/demo-worker.js' : './gen/demo-worker-boot.mjs';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData });
  const early: (DemoBody | null)[] = [];
  let on: ((m: DemoBody | null) => void) | null = null;
  let fail: ((err: Error) => void) | null = null;
  let failure: Error | null = null;
  let ended = false;
  let stopped = false;
  const failed = (err: Error): void => { if (!failure) { failure = err; fail?.(err); } };
  worker.on('message', (m: DemoMessage) => {
    if ('done' in m) ended = true;
    const b = 'done' in m ? null : body(m);
    if (on) on(b);
    else early.push(b);
  });
  worker.once('error', failed);
  worker.once('exit', (code) => { if (!ended && !stopped) failed(new Error(`the demo generator thread exited with ${code} before it was done`)); });
  return {
    events,
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
      if (m === null) { Promise.all(pending).then(() => resolve(stored), fail); return; }
      const { body } = m;
      const p = service.ingestBodyVolatileAsync(m.source, body, true, () => parseEventsBody(body, 'application/x-ndjson')).then(() => {
        const before = stored;
        stored += m.events;
        if (Math.floor(stored / 50_000) > Math.floor(before / 50_000)) progress(`demo: loaded ${stored} of ${gen.events} events`);
        m.stored();
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
