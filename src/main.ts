// The one file that wires ringql together: configuration from the environment, the store and query
// service, recovery, the HTTP server, demo data (RINGQL_DEMO=1, demo-data.ts), housekeeping timers
// and graceful shutdown.

import { DEFAULT_CHECKPOINT_BYTES, loadConfig, type ClusterConfig, type Env, type RingqlConfig } from './core/config.ts';
import { startClusterNode } from './cluster/cluster-node.ts';
import { loadStored } from './endpoints/endpoint-files.ts';
import type { QueryService } from './endpoints/service-types.ts';
import { totalmem } from 'node:os';
import { createQueryService, type EngineService } from './endpoints/service.ts';
import { checkpointSources, recoverStore, type Recovered } from './durable/durability.ts';
import { CorruptStateError, IncompatibleStateError } from './durable/part-file.ts';
import { CorruptWalError } from './durable/wal-recovery.ts';
import { Store, fullStoreBytes, storeConfigFrom } from './store/store.ts';
import { nowMicros } from './core/time.ts';
import { tokensFromSpecs, type TokenSet } from './http/auth.ts';
import { startServer } from './http/server.ts';
import { TransformThread } from './store/transform-thread.ts';
import { compressOffThread } from './store/block-compressor.ts';
import { curlExamples, startDemo, startDemoGenerator } from './demo-data.ts';

const EVICT_EVERY_MS = 60_000;
/** How often the write-ahead log's size is checked against RINGQL_CHECKPOINT_BYTES. */
const CHECKPOINT_CHECK_MS = 1000;

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
  const files = loadStored(cfg.server.stateDir).length;
  if (files > 0) log(`ringql: cluster mode: the ${files} endpoint file(s) in ${cfg.server.stateDir}/endpoints are not read; endpoints live in the cluster's bucket (create them again through the API)`);
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

/** The configuration and an empty store, or exit 2 with the reason (a bad environment variable). */
function configAndStore(log: (line: string) => void): { cfg: Config; store: Store } {
  let cfg: Config;
  let store: Store;
  try {
    cfg = readConfig(process.env);
    store = new Store(storeConfigFrom(cfg.store, cfg.limits));
    // RINGQL_MAX_MEMORY bounds the process (issue 15): the store gives way to the heap, threads and slack.
    store.countProcess(log);
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
  return { cfg, store };
}

/** Replays the write-ahead log (and the last checkpoint) into the store, or exits 1 on damage; attaches the log. */
function recoverOrExit(cfg: Config, store: Store, service: EngineService, log: (line: string) => void): Recovered {
  let recovered: Recovered;
  try {
    log(`ringql: recovering from ${cfg.server.stateDir}/wal`);
    recovered = recoverStore(store, cfg.server.stateDir, cfg.durability, { discardCorrupt: cfg.discardCorrupt, nowUs: nowMicros, log });
  } catch (err) {
    if (err instanceof CorruptWalError || err instanceof CorruptStateError || err instanceof IncompatibleStateError) {
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
  return recovered;
}

/**
 * Eviction every minute (with the log files and, when rows went, a checkpoint) and a checkpoint when
 * the log grows past RINGQL_CHECKPOINT_BYTES. Returns the function that stops both timers.
 */
function startHousekeeping(cfg: Config, store: Store, recovered: Recovered, checkpoint: (why: string) => Promise<void>): () => void {
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
  return () => {
    clearInterval(evictTimer);
    clearInterval(checkpointTimer);
  };
}

async function main(): Promise<void> {
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const { cfg, store } = configAndStore(log);
  // The demo generator thread starts first, so generating overlaps the rest of the start (a cluster node loads no demo).
  const demoGen = cfg.server.demo && !cfg.cluster ? startDemoGenerator() : null;
  // In cluster mode created endpoints live in the cluster's endpoint bucket, not in state-directory files.
  const service = await createQueryService({ store, stateDir: cfg.cluster ? null : cfg.server.stateDir, limits: cfg.limits, budget: cfg.budget, cache: cfg.cache });
  if (cfg.cluster) return mainCluster(cfg, cfg.cluster, store, service, log);
  // Everything acknowledged before comes back before the server listens (SPEC §12).
  const recovered = recoverOrExit(cfg, store, service, log);
  // Request bodies are parsed on a second thread, so a bulk load does not stall queries (issue 16); a
  // thread or addon that does not load stops the start here.
  const transformer = await TransformThread.start((e) => log(`ringql: ERROR: ${e.message}; ingest answers 500 until a restart`));
  service.attachTransformer(transformer);
  // Sealed row blocks are zstd-compressed there too: the main thread only appends and answers.
  compressOffThread((raw, codec) => transformer.compress(raw, codec));
  // Checkpoints let a restart load sealed segments instead of replaying the whole log. Demo data is
  // regenerated at every start and never logged, so a demo server takes none (it would come back twice).
  // The checkpointer logs each checkpoint (or its failure) once, however many calls wait for it.
  const checkpoint = (why: string): Promise<void> => (cfg.server.demo ? Promise.resolve() : recovered.checkpointer.checkpoint(checkpointSources(store), why).then(() => {}, () => {}));
  const demoFailed = (err: Error): void => {
    log(`ringql: the demo load failed: ${err.message}`);
    process.exit(1);
  };
  const stopDemo = demoGen ? await startDemo(service, demoGen, log, demoFailed) : () => {};
  const server = await serve(cfg, service, log);
  const hostInUrl = cfg.server.host.includes(':') ? `[${cfg.server.host}]` : cfg.server.host;
  const base = `http://${hostInUrl}:${server.port}`;
  const out: string[] = [`ringql listening on ${base}`, `page: ${base}/`];
  if (cfg.tokenSet.generated) out.push(`token: ${cfg.tokenSet.generated}`);
  if (cfg.server.demo) out.push(...curlExamples(base));
  process.stdout.write(`${out.join('\n')}\n`);
  const stopHousekeeping = startHousekeeping(cfg, store, recovered, checkpoint);

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) {
      log(`ringql: ${signal} again; exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`ringql: ${signal}: finishing in-flight requests`);
    stopDemo();
    stopHousekeeping();
    server
      .close()
      .then(() => checkpoint('shutdown'))
      .then(() => recovered.wal.close())
      .then(() => {
        service.close();
        void transformer.close();
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
