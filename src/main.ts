// The one file that wires ringql together: configuration from the environment, the store and query
// service, the HTTP server, demo data (RINGQL_DEMO=1) with a live trickle, and graceful shutdown.

import { DEFAULT_CHECKPOINT_BYTES, loadConfig, type ClusterConfig, type Env, type RingqlConfig } from './core/config.ts';
import { startClusterNode } from './cluster/cluster-node.ts';
import type { QueryService } from './endpoints/service-types.ts';
import { randomUUID } from 'node:crypto';
import { totalmem } from 'node:os';
import { createQueryService, type EngineService } from './endpoints/service.ts';
import { checkpointSources, recoverStore, type Recovered } from './durable/durability.ts';
import { CorruptStateError } from './durable/part-file.ts';
import { CorruptWalError } from './durable/wal-recovery.ts';
import { Store, fullStoreBytes, storeConfigFrom } from './store/store.ts';
import { nowMicros, parseTimestamp } from './core/time.ts';
import { tokensFromSpecs, type TokenSet } from './http/auth.ts';
import { startServer } from './http/server.ts';
import { parseEventsBody } from './http/events-body.ts';
import type { DemoMessage, DemoWorkerData } from './gen/demo-worker.ts';

const EVICT_EVERY_MS = 60_000;
/** How often the write-ahead log's size is checked against RINGQL_CHECKPOINT_BYTES. */
const CHECKPOINT_CHECK_MS = 1000;
const DEMO = { events: 300_000, projects: 5, days: 7, seed: 42, batch: 1000, tricklePerSourcePerSecond: 3 };

/** The parsed configuration, with what main resolves from it (tokens, command line). */
interface Config extends RingqlConfig {
  tokenSet: TokenSet;
  /** `--discard-corrupt`: set damaged write-ahead log files aside instead of refusing to start. */
  discardCorrupt: boolean;
}

function readConfig(env: Env): Config {
  const cfg = loadConfig(env);
  return {
    ...cfg,
    tokenSet: tokensFromSpecs(cfg.tokens),
    discardCorrupt: process.argv.includes('--discard-corrupt'),
  };
}

/**
 * A week of synthetic events for a few projects: generated and serialised on a worker thread (src/gen/
 * demo-worker.ts) while this thread ingests its NDJSON bodies through the byte path.
 */
async function loadDemo(service: EngineService): Promise<void> {
  const { Worker } = await import('node:worker_threads');
  const started = Date.now();
  const workerData: DemoWorkerData = {
    gen: { events: DEMO.events, projects: DEMO.projects, days: DEMO.days, seed: DEMO.seed, endUs: nowMicros() },
    batch: DEMO.batch,
  };
  // Compiled JavaScript runs the worker as it is; under tsx, loader hooks are per thread, so a boot file registers tsx first.
  const entry = import.meta.url.endsWith('.js') ? './gen/demo-worker.js' : './gen/demo-worker-boot.mjs';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData });
  let done = 0;
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: DemoMessage) => {
      if ('done' in m) { resolve(); return; }
      const body = Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength);
      try {
        // Demo data is made anew at every start: it is not written to the log.
        service.ingestBodyVolatile(m.source, body, true, () => parseEventsBody(body, 'application/x-ndjson'));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      const before = done;
      done += m.events;
      if (Math.floor(done / 50_000) > Math.floor(before / 50_000)) process.stderr.write(`demo: loaded ${done} of ${DEMO.events} events\n`);
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
async function startTrickle(service: EngineService, log: (line: string) => void): Promise<() => void> {
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

function curlExamples(base: string): string[] {
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

/** Rows evicted so far across sources (by retention, capacity or the memory budget). */
function evictedRows(store: Store): number {
  return store.sources().reduce((n, s) => n + s.stats().evicted, 0);
}

/** The HTTP server over `service`, with the configured limits. */
function serve(cfg: Config, service: QueryService, log: (line: string) => void): ReturnType<typeof startServer> {
  return startServer({
    service,
    host: cfg.server.host,
    port: cfg.server.port,
    tokens: cfg.tokenSet,
    corsOrigin: cfg.server.corsOrigin,
    maxBodyBytes: cfg.server.maxBodyBytes,
    maxUrlBytes: cfg.http.maxUrlBytes,
    maxDecompressedBytes: cfg.server.maxDecompressedBytes,
    maxConcurrentRequests: cfg.limits.maxConcurrentRequests,
    inflight: cfg.http.inflight,
    bodyTimeoutMs: cfg.http.bodyTimeoutMs,
    bodyIdleTimeoutMs: cfg.http.bodyIdleTimeoutMs,
    metricsPublic: cfg.server.metricsPublic,
    log,
  });
}

/**
 * Cluster mode (SPEC §13): JetStream is the log, so there is no local write-ahead log; the node joins,
 * rebuilds the partitions it owns from their streams, and serves through the ClusterService.
 */
async function mainCluster(cfg: Config, cluster: ClusterConfig, store: Store, service: EngineService, log: (line: string) => void): Promise<void> {
  const forward = cfg.tokens?.find((t) => t.scopes.length === 0 || t.scopes.includes('query') || t.scopes.includes('private'));
  if (!forward) {
    log('ringql: cluster mode needs RINGQL_ACCESS_TOKENS (the same on every node) holding a token of scope query or private: forwarded queries carry it');
    process.exit(2);
  }
  if (cluster.advertiseUrl === null && cfg.server.port === 0) {
    log('ringql: cluster mode needs a fixed PORT (not 0) or RINGQL_ADVERTISE_URL, so other nodes can reach this one');
    process.exit(2);
  }
  const hostInUrl = cfg.server.host.includes(':') ? `[${cfg.server.host}]` : cfg.server.host;
  const node = await startClusterNode({
    natsUrls: cluster.natsUrls, partitions: cluster.partitions, nodeId: cluster.nodeId, port: cfg.server.port,
    advertiseUrl: cluster.advertiseUrl ?? `http://${hostInUrl}:${cfg.server.port}`,
    store, service, retentionUs: store.config.retentionUs, forwardToken: forward.token, nowUs: nowMicros, log, stateDir: cfg.server.stateDir,
  });
  const server = await serve(cfg, node.service, log);
  process.stdout.write(`ringql listening on http://${hostInUrl}:${server.port}\ncluster node: ${node.nodeId}\n`);
  const evictTimer = setInterval(() => store.evict(nowMicros()), EVICT_EVERY_MS);
  evictTimer.unref();
  const shutdown = (signal: string): void => {
    log(`ringql: ${signal}: leaving the cluster`);
    clearInterval(evictTimer);
    server.close().then(() => node.stop()).then(() => { service.close(); process.exit(0); }, (err: unknown) => {
      log(`ringql: shutdown failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

async function main(): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  let cfg: Config;
  let store: Store;
  try {
    cfg = readConfig(process.env);
    store = new Store(storeConfigFrom(cfg.store, cfg.limits));
  } catch (err) {
    log(`ringql: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  }
  // Say so loudly when a full store could not fit in this machine's memory.
  const need = fullStoreBytes(store.config), ram = totalmem();
  if (need > ram * 0.8) {
    log(`ringql: WARNING: RINGQL_MAX_BYTES_PER_SOURCE lets a full store reach ${(need / 2 ** 30).toFixed(1)} GiB but this machine has ${(ram / 2 ** 30).toFixed(1)} GiB; ` +
      'the process could be killed for lack of memory. Lower the capacity (or RINGQL_RETENTION_HOURS).');
  }
  const service = await createQueryService({ store, stateDir: cfg.server.stateDir, limits: cfg.limits, budget: cfg.budget, cache: cfg.cache });
  if (cfg.cluster) return mainCluster(cfg, cfg.cluster, store, service, log);
  // Everything acknowledged before comes back before the server listens (SPEC §12).
  let recovered: Recovered;
  try {
    log(`ringql: recovering from ${cfg.server.stateDir}/wal`);
    recovered = recoverStore(store, cfg.server.stateDir, cfg.durability, { discardCorrupt: cfg.discardCorrupt, nowUs: nowMicros, log });
  } catch (err) {
    if (err instanceof CorruptWalError || err instanceof CorruptStateError) {
      log(`ringql: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const rep = recovered.report;
  log(`ringql: recovered ${rep.events} events (${rep.records} batches, ${(rep.bytes / 2 ** 20).toFixed(1)} MB) in ${(rep.ms / 1000).toFixed(2)} s` +
    (rep.ms > 0 ? ` (${(rep.bytes / 2 ** 20 / (rep.ms / 1000)).toFixed(1)} MB/s)` : '') + `; fsync ${cfg.durability.fsync}`);
  const fromCk = recovered.fromCheckpoint;
  service.attachWal(recovered.wal, rep, () => ({
    ...recovered.checkpointer.stats(),
    restored: fromCk && { id: fromCk.id, events: fromCk.events, bytes: fromCk.bytes, ms: Math.round(fromCk.ms) },
  }));
  // Checkpoints let a restart load sealed segments instead of replaying the whole log. Demo data is
  // regenerated at every start and never logged, so a demo server takes none (it would come back twice).
  const checkpoint = (why: string): Promise<void> => (cfg.server.demo ? Promise.resolve() : recovered.checkpointer.checkpoint(checkpointSources(store)).then((r) => {
    if (r) log(`ringql: checkpoint ${r.id} (${why}): ${r.partsWritten} parts, ${(r.bytesWritten / 2 ** 20).toFixed(1)} MB written, ${r.filesDeleted} files removed, ${Math.round(r.ms)} ms`);
  }, (err: unknown) => log(`ringql: checkpoint failed (${why}); the log keeps everything: ${err instanceof Error ? err.message : String(err)}`)));
  if (cfg.server.demo) await loadDemo(service);
  const server = await serve(cfg, service, log);
  const hostInUrl = cfg.server.host.includes(':') ? `[${cfg.server.host}]` : cfg.server.host;
  const base = `http://${hostInUrl}:${server.port}`;
  const out: string[] = [`ringql listening on ${base}`, `page: ${base}/`];
  if (cfg.tokenSet.generated) out.push(`token: ${cfg.tokenSet.generated}`);
  const stopTrickle = cfg.server.demo ? await startTrickle(service, log) : () => {};
  if (cfg.server.demo) out.push(...curlExamples(base));
  process.stdout.write(`${out.join('\n')}\n`);

  let evictedAtCheckpoint = evictedRows(store);
  const evictTimer = setInterval(() => {
    const now = nowMicros();
    store.evict(now);
    // Log files whose every event is past retention are evicted from memory already: let them go.
    recovered.wal.dropOlderThan(now - store.config.retentionUs);
    // Segment files of evicted rows go with the next checkpoint's clean-up: take one when rows went.
    const evicted = evictedRows(store);
    if (evicted !== evictedAtCheckpoint) {
      evictedAtCheckpoint = evicted;
      void checkpoint('eviction');
    }
  }, EVICT_EVERY_MS);
  evictTimer.unref();
  const checkpointBytes = cfg.durability.checkpointBytes ?? DEFAULT_CHECKPOINT_BYTES;
  const checkpointTimer = setInterval(() => {
    if (recovered.wal.stats().bytes >= checkpointBytes) void checkpoint('log size');
  }, CHECKPOINT_CHECK_MS);
  checkpointTimer.unref();

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) {
      log(`ringql: ${signal} again; exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`ringql: ${signal}: finishing in-flight requests`);
    stopTrickle();
    clearInterval(evictTimer);
    clearInterval(checkpointTimer);
    server
      .close()
      .then(() => checkpoint('shutdown'))
      .then(() => recovered.wal.close())
      .then(() => {
        service.close();
        process.exit(0);
      })
      .catch((err: unknown) => {
        log(`ringql: shutdown failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`ringql: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
