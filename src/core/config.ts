// Every environment variable ringql reads, parsed and validated in one place into one typed object built
// once at start (main.ts). A bad value throws a ConfigError naming the variable, the value and what it
// accepts; main prints it and exits 2. config-vars.ts documents each variable (the README table's source).

import { maxMemoryFromEnv, sourceLimitsFromEnv, type SourceLimit } from './memory-env.ts';
import { availableParallelism } from 'node:os';
import { ConfigError, choiceVar, flagVar, intVar, lineVar, positiveVar, rawVar, shareVar, type Env } from './config-parse.ts';
import { projectPath } from './project-root.ts';
import { tokenSpecsFromEnv, type TokenSpec } from './config-tokens.ts';
import { DEFAULT_MAX_VALUE_BYTES } from './work-meter.ts';

export { ConfigError, type Env } from './config-parse.ts';

const MIB = 1024 * 1024;
const INT32_MAX = 2 ** 31 - 1;
const US_PER_HOUR = 3_600_000_000;

export const DEFAULT_MAX_URL_BYTES = 64 * 1024;
/** Upper bound of RINGQL_MAX_URL_BYTES: the whole request head must stay within what uWS reads in one go. */
export const MAX_MAX_URL_BYTES = 128 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 5_000;
/** Header bytes uWS may buffer (UWS_HTTP_MAX_HEADERS_SIZE), set before it loads unless set already. */
export const UWS_HEADER_BUFFER_BYTES = '262144';

export interface ServerConfig {
  host: string;
  port: number;
  /** RINGQL_DEMO: demo data and a live trickle. */
  demo: boolean;
  /** RINGQL_STATE_DIR, else `.state/` in the checkout. */
  stateDir: string;
  corsOrigin: string;
  maxBodyBytes: number;
  maxDecompressedBytes: number;
  /** RINGQL_METRICS_PUBLIC: GET /metrics without a token. */
  metricsPublic: boolean;
}

/** The request and data limits that are not HTTP framing (core/limits.ts names them). */
export interface Limits {
  /** Characters of a `sql` or `lql` text (and of a saved query). */
  maxQueryLength: number;
  /** Nesting depth of a query (parentheses, subqueries, expressions). */
  maxQueryDepth: number;
  /** Events in one ingest request. */
  maxEventsPerBatch: number;
  /** Nesting depth of objects/arrays inside one event. */
  maxEventDepth: number;
  /** UTF-8 bytes of one string (or key) inside an event. */
  maxFieldBytes: number;
  /** Requests being served at once; more are shed with 503 and Retry-After. */
  maxConcurrentRequests: number;
  /** Computed (uncached) queries running at once; more get 503 overloaded (RINGQL_MAX_CONCURRENT_QUERIES). */
  maxConcurrentQueries: number;
  /** Distinct field paths (nested ones too) one source's schema may hold beyond the SAMPLE-EVENTS ones. */
  maxFieldsPerSource: number;
}

/** What an in-flight slot is counted as: one kind can fill only its own slots (`/health` takes none). */
export type RequestKind = 'ingest' | 'query' | 'other';
export type InflightLimits = Record<RequestKind, number>;

export interface HttpLimits {
  /** Bytes of path plus query string → 414 `uri_too_long`. */
  maxUrlBytes: number;
  inflight: InflightLimits;
  /** The whole body must have arrived within this many ms of the request head, else the connection is closed. */
  bodyTimeoutMs: number;
  /** ...and no more than this many ms may pass between two chunks of it. */
  bodyIdleTimeoutMs: number;
}

export interface DurabilityConfig {
  fsync: 'always' | 'interval';
  fsyncMs: number;
  /** RINGQL_CHECKPOINT_BYTES: a checkpoint is taken once the write-ahead log holds this much (default 16 MiB). */
  checkpointBytes?: number;
}

export const DEFAULT_CHECKPOINT_BYTES = 16 * 1024 * 1024;

export interface StoreSettings {
  retentionUs: number;
  maxRows: number;
  /** RINGQL_MAX_BYTES_PER_SOURCE, or null for the store's default (a share of the machine's memory). */
  maxBytesPerSource: number | null;
  /** RINGQL_MAX_MEMORY: one budget for everything the process holds, in bytes. */
  maxMemory: number;
  /** RINGQL_SOURCE_LIMITS: per-source retention and byte overrides. */
  sourceLimits: Map<string, SourceLimit>;
}

/** Only the variables that are set: the cache's own defaults fill the rest. */
export interface CacheSettings {
  maxBytes?: number;
  warmKeysPerEndpoint?: number;
  warmShare?: number;
}

export interface BudgetSettings {
  timeoutMs: number;
  maxRows: number;
  maxValueBytes: number;
}

export interface RingqlConfig {
  server: ServerConfig;
  /** Configured tokens, or null: one private token is generated (and printed once). */
  tokens: TokenSpec[] | null;
  limits: Limits;
  http: HttpLimits;
  durability: DurabilityConfig;
  store: StoreSettings;
  cache: CacheSettings;
  budget: BudgetSettings;
  /** UWS_HTTP_MAX_HEADERS_SIZE as uWebSockets.js will read it (passed through as set: uWS parses it). */
  uwsMaxHeadersSize: string;
  /** Cluster mode (SPEC §13), or null: one node with local durability. */
  cluster: ClusterConfig | null;
}

export interface ClusterConfig {
  /** RINGQL_NATS_URL: the NATS servers (comma-separated). */
  natsUrls: string[];
  /** RINGQL_PARTITIONS: partitions projects are hashed into (one stream each). */
  partitions: number;
  /** RINGQL_NODE_ID: this node's name among the members (default: host name and port). */
  nodeId: string | null;
  /** RINGQL_ADVERTISE_URL: how peers reach this node's HTTP API (default: http://HOST:PORT as it listens). */
  advertiseUrl: string | null;
}

export function clusterConfig(env: Env): ClusterConfig | null {
  const urls = rawVar(env, 'RINGQL_NATS_URL');
  if (urls === null) return null;
  const natsUrls = urls.split(',').map((u) => u.trim()).filter((u) => u !== '');
  for (const u of natsUrls) if (!/^(nats|tls|wss?):\/\/[^\s/]+/.test(u) && !/^[^\s/:]+:\d+$/.test(u)) throw new ConfigError('RINGQL_NATS_URL', urls, 'comma-separated NATS URLs such as nats://127.0.0.1:4222');
  const nodeId = rawVar(env, 'RINGQL_NODE_ID');
  if (nodeId !== null && !/^[A-Za-z0-9._-]{1,64}$/.test(nodeId)) throw new ConfigError('RINGQL_NODE_ID', nodeId, '1 to 64 letters, digits, dots, dashes or underscores');
  const advertiseUrl = rawVar(env, 'RINGQL_ADVERTISE_URL');
  if (advertiseUrl !== null && !/^https?:\/\/[^\s/]+\/?$/.test(advertiseUrl)) throw new ConfigError('RINGQL_ADVERTISE_URL', advertiseUrl, 'the base URL peers reach this node at, such as http://10.0.0.5:4000');
  return { natsUrls, partitions: intVar(env, 'RINGQL_PARTITIONS', 16, 1, 1024), nodeId, advertiseUrl: advertiseUrl?.replace(/\/$/, '') ?? null };
}

export const DEFAULT_LIMITS: Limits = {
  maxQueryLength: 100_000,
  maxQueryDepth: 64,
  maxEventsPerBatch: 10_000,
  maxEventDepth: 32,
  maxFieldBytes: 1024 * 1024,
  maxConcurrentRequests: 512,
  maxConcurrentQueries: 2 * availableParallelism(),
  maxFieldsPerSource: 10_000,
};

const LIMIT_VARS: [keyof Limits, string, number, number][] = [
  ['maxQueryLength', 'RINGQL_MAX_QUERY_LENGTH', 16, 10_000_000],
  ['maxQueryDepth', 'RINGQL_MAX_QUERY_DEPTH', 4, 1000],
  ['maxEventsPerBatch', 'RINGQL_MAX_EVENTS_PER_BATCH', 1, 10_000_000],
  ['maxEventDepth', 'RINGQL_MAX_EVENT_DEPTH', 2, 1000],
  ['maxFieldBytes', 'RINGQL_MAX_FIELD_BYTES', 64, 2 ** 30],
  ['maxConcurrentRequests', 'RINGQL_MAX_CONCURRENT_REQUESTS', 1, 1_000_000],
  ['maxConcurrentQueries', 'RINGQL_MAX_CONCURRENT_QUERIES', 1, 10_000],
  ['maxFieldsPerSource', 'RINGQL_MAX_FIELDS_PER_SOURCE', 16, 1_000_000],
];

export function limitsConfig(env: Env): Limits {
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const [key, name, min, max] of LIMIT_VARS) out[key] = intVar(env, name, DEFAULT_LIMITS[key], min, max);
  return out;
}

/** RINGQL_STATE_DIR, else `.state/` in the checkout (git-ignored). */
export function stateDirConfig(env: Env): string {
  return rawVar(env, 'RINGQL_STATE_DIR') ?? projectPath('.state');
}

export function serverConfig(env: Env): ServerConfig {
  const maxBodyBytes = intVar(env, 'RINGQL_MAX_BODY_BYTES', 12 * MIB, 1, INT32_MAX);
  return {
    host: rawVar(env, 'HOST') ?? '127.0.0.1',
    port: intVar(env, 'PORT', 4000, 0, 65535),
    demo: flagVar(env, 'RINGQL_DEMO', false),
    stateDir: stateDirConfig(env),
    corsOrigin: lineVar(env, 'RINGQL_CORS_ORIGIN', '*'),
    maxBodyBytes,
    maxDecompressedBytes: intVar(env, 'RINGQL_MAX_DECOMPRESSED_BYTES', Math.min(4 * maxBodyBytes, INT32_MAX), 1, INT32_MAX),
    metricsPublic: flagVar(env, 'RINGQL_METRICS_PUBLIC', false),
  };
}

/** `perKindDefault` is RINGQL_MAX_CONCURRENT_REQUESTS: each kind may hold that many unless set apart. */
export function httpLimitsConfig(env: Env, perKindDefault: number): HttpLimits {
  const bodyTimeoutMs = intVar(env, 'RINGQL_BODY_TIMEOUT_MS', DEFAULT_BODY_TIMEOUT_MS, 100, 3_600_000);
  return {
    maxUrlBytes: intVar(env, 'RINGQL_MAX_URL_BYTES', DEFAULT_MAX_URL_BYTES, 256, MAX_MAX_URL_BYTES),
    inflight: {
      ingest: intVar(env, 'RINGQL_MAX_INFLIGHT_INGEST', perKindDefault, 1, 1_000_000),
      query: intVar(env, 'RINGQL_MAX_INFLIGHT_QUERY', perKindDefault, 1, 1_000_000),
      other: intVar(env, 'RINGQL_MAX_INFLIGHT_OTHER', perKindDefault, 1, 1_000_000),
    },
    bodyTimeoutMs,
    bodyIdleTimeoutMs: intVar(env, 'RINGQL_BODY_IDLE_TIMEOUT_MS', Math.min(DEFAULT_BODY_IDLE_TIMEOUT_MS, bodyTimeoutMs), 100, 3_600_000),
  };
}

export function durabilityConfig(env: Env): DurabilityConfig {
  return {
    fsync: choiceVar(env, 'RINGQL_FSYNC', 'interval', ['always', 'interval'] as const),
    fsyncMs: intVar(env, 'RINGQL_FSYNC_MS', 100, 1, 60_000),
    checkpointBytes: intVar(env, 'RINGQL_CHECKPOINT_BYTES', DEFAULT_CHECKPOINT_BYTES, 4096, 2 ** 40),
  };
}

export function storeSettings(env: Env): StoreSettings {
  const bytes = rawVar(env, 'RINGQL_MAX_BYTES_PER_SOURCE') === null ? null : positiveVar(env, 'RINGQL_MAX_BYTES_PER_SOURCE', 0, true);
  return {
    retentionUs: Math.round(positiveVar(env, 'RINGQL_RETENTION_HOURS', 192, false) * US_PER_HOUR),
    maxRows: positiveVar(env, 'RINGQL_MAX_ROWS_PER_SOURCE', 10_000_000, true),
    maxBytesPerSource: bytes,
    maxMemory: maxMemoryFromEnv(env),
    sourceLimits: sourceLimitsFromEnv(env),
  };
}

export function cacheSettings(env: Env): CacheSettings {
  const out: CacheSettings = {};
  if (rawVar(env, 'RINGQL_CACHE_MAX_BYTES') !== null) out.maxBytes = intVar(env, 'RINGQL_CACHE_MAX_BYTES', 0, 0, Number.MAX_SAFE_INTEGER);
  if (rawVar(env, 'RINGQL_WARM_KEYS_PER_ENDPOINT') !== null) out.warmKeysPerEndpoint = intVar(env, 'RINGQL_WARM_KEYS_PER_ENDPOINT', 0, 0, 100_000);
  if (rawVar(env, 'RINGQL_WARM_CPU_SHARE') !== null) out.warmShare = shareVar(env, 'RINGQL_WARM_CPU_SHARE', 0);
  return out;
}

export const DEFAULT_QUERY_TIMEOUT_MS = 10_000;
export const DEFAULT_QUERY_MAX_ROWS = 200_000_000;

export function budgetSettings(env: Env): BudgetSettings {
  return {
    timeoutMs: positiveVar(env, 'RINGQL_QUERY_TIMEOUT_MS', DEFAULT_QUERY_TIMEOUT_MS, true),
    maxRows: positiveVar(env, 'RINGQL_QUERY_MAX_ROWS', DEFAULT_QUERY_MAX_ROWS, true),
    maxValueBytes: intVar(env, 'RINGQL_MAX_VALUE_BYTES', DEFAULT_MAX_VALUE_BYTES, 1024, 256 * MIB),
  };
}

/** The whole configuration; throws a ConfigError (or a token error naming its variable) on a bad value. */
export function loadConfig(env: Env): RingqlConfig {
  const limits = limitsConfig(env);
  return {
    server: serverConfig(env),
    tokens: tokenSpecsFromEnv(env),
    limits,
    http: httpLimitsConfig(env, limits.maxConcurrentRequests),
    durability: durabilityConfig(env),
    store: storeSettings(env),
    cache: cacheSettings(env),
    budget: budgetSettings(env),
    uwsMaxHeadersSize: env.UWS_HTTP_MAX_HEADERS_SIZE ?? UWS_HEADER_BUFFER_BYTES,
    cluster: clusterConfig(env),
  };
}
