// What each environment variable means and defaults to, in README order: the README's configuration
// table is rendered from this list, and a test fails when src/ reads a variable not listed here.

export interface ConfigVarDoc {
  /** The variables of one row (two only where they are one setting, as the reference's token pair). */
  names: readonly string[];
  /** The default as the README shows it (Markdown). */
  default: string;
  /** What it does and accepts (Markdown). */
  meaning: string;
}

export const CONFIG_VARS: readonly ConfigVarDoc[] = [
  { names: ['HOST'], default: '`127.0.0.1`', meaning: 'listen address' },
  { names: ['PORT'], default: '`4000`', meaning: 'listen port (exclusive; `0` picks a free one)' },
  { names: ['RINGQL_ACCESS_TOKENS'], default: 'one generated private token', meaning: '`token[:scope+scope],...` with scopes `ingest`, `query`, `private`' },
  { names: ['LOGFLARE_PRIVATE_ACCESS_TOKEN', 'LOGFLARE_PUBLIC_ACCESS_TOKEN'], default: 'unset', meaning: 'the reference\'s token variables, used only where `RINGQL_ACCESS_TOKENS` is unset (a self-hosted stack\'s configuration works unchanged): the first is a `private` token, the second an `ingest+query` one' },
  { names: ['RINGQL_DEMO'], default: '`0` (`1` under `npm start`)', meaning: 'load demo data and keep a live trickle' },
  { names: ['RINGQL_STATE_DIR'], default: '`.state/` in the checkout (git-ignored)', meaning: 'where created endpoints and the write-ahead log are kept' },
  { names: ['RINGQL_NATS_URL'], default: 'unset (one node)', meaning: 'cluster mode (SPEC §13): the NATS JetStream servers, comma-separated (`nats://10.0.0.1:4222,nats://10.0.0.2:4222`); ingest is acknowledged once JetStream has every event, each node holds the partitions it owns, queries are forwarded to the owner' },
  { names: ['RINGQL_PARTITIONS'], default: '`16`', meaning: 'cluster mode: partitions projects are hashed into (one stream each; the NATS servers\' subject mapping must use the same number), 1 to 1024' },
  { names: ['RINGQL_NODE_ID'], default: 'host name and port', meaning: 'cluster mode: this node\'s name among the members (letters, digits, `.`, `-`, `_`)' },
  { names: ['RINGQL_ADVERTISE_URL'], default: '`http://HOST:PORT` as it listens', meaning: 'cluster mode: the base URL other nodes forward queries to' },
  { names: ['RINGQL_FSYNC'], default: '`interval`', meaning: '`always`: every ingest answer waits for an fsync (shared); `interval`: at most every `RINGQL_FSYNC_MS` (see above for what each survives)' },
  { names: ['RINGQL_FSYNC_MS'], default: '`100`', meaning: 'fsync interval of the `interval` mode, 1 to 60000' },
  { names: ['RINGQL_CHECKPOINT_BYTES'], default: '`16777216` (16 MiB)', meaning: 'a checkpoint (sealed segments and a snapshot of the rest, written as files; the log is cut past it) is taken once the write-ahead log holds this many bytes, checked every second, and at SIGTERM; 4096 or more' },
  { names: ['RINGQL_RETENTION_HOURS'], default: '`192`', meaning: 'events older than this (by event time) are evicted' },
  { names: ['RINGQL_MAX_ROWS_PER_SOURCE'], default: '`10000000`', meaning: 'row capacity per source; the oldest go first' },
  { names: ['RINGQL_MAX_BYTES_PER_SOURCE'], default: 'half the machine\'s memory ÷ 9', meaning: 'resident-bytes capacity per source, counting sealed rows compressed (blocks, their tables and the row columns) and open rows as they are (the oldest go first). Rows live outside the V8 heap, so the machine\'s memory is the bound; a capacity whose full store could not fit in it is warned about at start' },
  { names: ['RINGQL_MAX_MEMORY'], default: 'half the machine\'s memory', meaning: 'one budget for everything the store holds: every source\'s sealed segments, open buffers, hot dictionaries and schema, the decoded-block cache (at most 1/32 of the budget, 32 MiB) and the result cache. Over it, the oldest sealed data across sources is evicted first, a segment at a time (exact: a source\'s visible rows stay those at or above its watermark). Sizes: `512M`, `2G`, `1.5GiB`, `100000000` (binary units, at least `1M`). `/health` shows `memory_budget`: the budget, bytes used and what each part holds. The budget bounds the server\'s RSS: what the process holds besides these bytes (V8 heaps, the transform thread, code, allocator slack; `memory_budget.process.overhead_bytes`, RSS − used, sampled every 0.5 s and smoothed) is taken off the budget, so the store is held to `process.store_target_bytes` = budget − overhead, never below a quarter of the budget (a warning is logged when the overhead alone passes three quarters of it). What a running checkpoint holds outside the store (the part it is writing, segments it still has to write that the store let go of) counts as used bytes (`memory_budget.checkpoint_in_flight`). At `512M` under endless ingest the overhead measured about 200-230 MiB in the full bench (V8 heaps, allocator, ingest buffers; bench/MEMORY.md, bench/RESULTS.md), so the store kept about 290-310 MiB: give the budget room above that overhead' },
  { names: ['RINGQL_SOURCE_LIMITS'], default: 'unset', meaning: 'per-source overrides, `name=24h/256M,name2=512M`: a retention (`30s`, `90m`, `24h`, `7d`; lowercase units), a byte capacity (`256M`, `2G`; uppercase units) or both. A source with its own byte capacity is held to it and is evicted for `RINGQL_MAX_MEMORY` only once the sources without one hold nothing more, so one noisy source cannot evict the others. An unknown source name stops the start' },
  { names: ['RINGQL_MAX_BODY_BYTES'], default: '`12582912` (12 MB)', meaning: 'request body limit → 413' },
  { names: ['RINGQL_MAX_DECOMPRESSED_BYTES'], default: '4 × body limit', meaning: 'gzip output limit → 413 (no gzip bomb)' },
  { names: ['RINGQL_MAX_URL_BYTES'], default: '`65536` (at most `131072`)', meaning: 'bytes of path plus query string → 414' },
  { names: ['RINGQL_QUERY_TIMEOUT_MS'], default: '`10000`', meaning: 'time budget per query (planning, folding, every row, the body) → 503 `query_timeout` within one more second' },
  { names: ['RINGQL_MAX_VALUE_BYTES'], default: '`16777216` (16 MiB)', meaning: 'largest single value a query may make (string bytes, or 8 bytes an array element) → 400 `value_too_large`; one query may make at most 16 such caps of large values in all' },
  { names: ['RINGQL_MAX_CONCURRENT_QUERIES'], default: 'twice the cores', meaning: 'computed (uncached) queries running at once; more → 503 `overloaded` with `Retry-After` (cache hits are never refused)' },
  { names: ['RINGQL_WARM_KEYS_PER_ENDPOINT'], default: '`16`', meaning: 'per endpoint and warming sweep, only the most recently used keys are recomputed' },
  { names: ['RINGQL_WARM_CPU_SHARE'], default: '`0.25`', meaning: 'share of each one-second warming sweep that recomputing may take; the rest waits for the next sweep' },
  { names: ['RINGQL_QUERY_MAX_ROWS'], default: '`200000000`', meaning: 'rows a query may touch → 503 `query_timeout` (its work budget)' },
  { names: ['RINGQL_CORS_ORIGIN'], default: '`*`', meaning: '`Access-Control-Allow-Origin`' },
  { names: ['RINGQL_METRICS_PUBLIC'], default: '`0`', meaning: '`1` serves `GET /metrics` without a token (to a scraper on a private network); `0` asks for a token of any scope' },
  { names: ['RINGQL_CACHE_MAX_BYTES'], default: '`268435456`', meaning: 'memory bound of the result cache and the bucket-cache states together (LRU)' },
  { names: ['RINGQL_MAX_QUERY_LENGTH'], default: '`100000`', meaning: 'characters of a `sql`/`lql` parameter' },
  { names: ['RINGQL_MAX_QUERY_DEPTH'], default: '`64`', meaning: 'nesting depth of a query' },
  { names: ['RINGQL_MAX_EVENTS_PER_BATCH'], default: '`10000`', meaning: 'events in one ingest request' },
  { names: ['RINGQL_MAX_EVENT_DEPTH'], default: '`32`', meaning: 'object/array nesting inside one event' },
  { names: ['RINGQL_MAX_FIELD_BYTES'], default: '`1048576`', meaning: 'UTF-8 bytes of one string or key inside an event' },
  { names: ['RINGQL_MAX_CONCURRENT_REQUESTS'], default: '`512`', meaning: 'requests of each kind served at once (the default of the three below); more are shed' },
  { names: ['RINGQL_MAX_INFLIGHT_INGEST'], default: '`RINGQL_MAX_CONCURRENT_REQUESTS`', meaning: 'ingest requests in progress; more → 503 `overloaded`' },
  { names: ['RINGQL_MAX_INFLIGHT_QUERY'], default: '`RINGQL_MAX_CONCURRENT_REQUESTS`', meaning: 'endpoint runs in progress; more → 503 `overloaded`' },
  { names: ['RINGQL_MAX_INFLIGHT_OTHER'], default: '`RINGQL_MAX_CONCURRENT_REQUESTS`', meaning: 'every other request in progress (management, sources, schema); `/health` is never counted nor shed' },
  { names: ['RINGQL_BODY_TIMEOUT_MS'], default: '`10000`', meaning: 'a request body must have fully arrived this long after its head (time the server\'s event loop was held does not count), else the connection is closed (no answer) and its slot freed' },
  { names: ['RINGQL_BODY_IDLE_TIMEOUT_MS'], default: '`5000` (or the body timeout, if smaller)', meaning: 'longest pause between two chunks of a body before the connection is closed' },
  { names: ['UWS_HTTP_MAX_HEADERS_SIZE'], default: '`262144`', meaning: 'set before uWebSockets.js loads, above ringql\'s own URL and header limits so ringql answers 414/431; the build installed here ignores it (see Limits)' },
  { names: ['RINGQL_MAX_FIELDS_PER_SOURCE'], default: '`10000`', meaning: 'distinct field paths (top-level and nested) one source\'s schema may hold besides the SAMPLE-EVENTS ones (16 to 1,000,000)' },  { names: ['RINGQL_HEAP_MB'], default: 'half of `RINGQL_MAX_MEMORY`, 1024 to 8192', meaning: 'read by `npm start` only: the V8 heap limit in MiB (`--max-old-space-size`, 64 to 1048576); a limit, not memory taken at start. `npm start` also caps the young generation (`--max-semi-space-size=4`: a few MiB less idle RSS) and sets `MALLOC_ARENA_MAX=2` unless set (glibc\'s per-thread arenas kept hundreds of MiB of freed memory)' },
];

/** The README's configuration table (header, rule and one line per row). */
export function configTable(): string {
  const rows = CONFIG_VARS.map((v) => `| ${v.names.map((n) => `\`${n}\``).join(', ')} | ${v.default} | ${v.meaning} |`);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
