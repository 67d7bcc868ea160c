// The result cache of SPEC §8, its run path: one serialised answer per key (cache-key.ts), living
// cache_duration_seconds from its computation; concurrent misses share one computation; errors are
// never cached. Entries and their bounds: result-entries.ts; warming: warm-sweep.ts; time-bucket
// aggregations are answered from the bucket cache, their answers kept while they hold (bucket-memo.ts).

import { LRUMapWithDelete } from '../core/lru.ts';
import { cacheSettings } from '../core/config.ts';
import { planRequest, type EndpointPlan, type ResolvedRequest } from '../engine/request.ts';
import { executePlan, executeRequestSliced, type ExecuteResult } from '../engine/run-request.ts';
import type { QueryGate } from './query-gate.ts';
import type { BodyStream } from '../exec/body-stream.ts';
import type { RunResponse } from './run-response.ts';
import type { Catalog } from '../plan/catalog.ts';
import { ExecContext, meterLimits, type Budget } from '../exec/context.ts';
import { WorkMeter } from '../core/work-meter.ts';
import { BucketCache, type SourceClock } from './bucket-cache.ts';
import { bucketAggregateOf, movesOnlyWithWindowStart } from '../engine/engine.ts';
import { cacheKey, cacheKeyOnce, keyPrefix } from './cache-key.ts';
import { memoHolds, type BucketMemo } from './bucket-memo.ts';
import { ResultEntries, type Entry } from './result-entries.ts';
import { warmSweep, type WarmCounters } from './warm-sweep.ts';

export interface RunContext {
  catalog: Catalog;
  budget: Budget;
  /** Admission for computed answers (SPEC §11); a request with no free slot gets 503 overloaded. */
  gate: QueryGate;
}

export interface CacheConfig {
  maxEntries: number;
  maxBytes: number;
  /** How often the warming sweep runs (ms); 0 = never on a timer (tests call warmNow()). */
  sweepMs: number;
  /** Per endpoint, at most this many keys are warmed in one sweep: the most recently used (RINGQL_WARM_KEYS_PER_ENDPOINT). */
  warmKeysPerEndpoint: number;
  /** Share of wall time a sweep may spend warming (0..1; RINGQL_WARM_CPU_SHARE): entries left over wait for the next sweep. */
  warmShare: number;
}

const MAX_BUCKET_STATES = 256;

/** A hit's timings (none: nothing ran), one frozen array shared by every hit instead of a new one each. */
const NO_TIMINGS = Object.freeze([]) as unknown as RunResponse['timings']; // frozen: a push throws, never leaks across hits

export const DEFAULT_CACHE: CacheConfig = { maxEntries: 10_000, maxBytes: 256 * 1024 * 1024, sweepMs: 1000, warmKeysPerEndpoint: 16, warmShare: 0.25 };

interface Counters extends WarmCounters {
  hits: number;
  bucketHits: number;
  memoHits: number;
}

export class ResultCache {
  private readonly cfg: CacheConfig;
  private readonly entries: ResultEntries;
  private readonly inflight = new Map<string, Promise<Entry>>();
  private timer: NodeJS.Timeout | null = null;
  private readonly counts: Counters = { computations: 0, hits: 0, bucketHits: 0, memoHits: 0, warmRuns: 0, warmSkipped: 0 };
  /** Per key: whether its plan is answered by the bucket cache (decided on first sight). */
  private readonly kinds: LRUMapWithDelete<string, 'bucket' | 'result'>;
  readonly buckets = new BucketCache(MAX_BUCKET_STATES);
  /** Bucket answers as bytes, per key, reused while nothing they depend on has changed. */
  private readonly bucketMemos = new LRUMapWithDelete<string, BucketMemo>(MAX_BUCKET_STATES);
  private sweeping = false;

  /**
   * `gate` (when given) is where timed warm runs take their slots; `hitNow` is the clock lookup() reads
   * for freshness and Age (a timer-ticked one in the server; `now` by default).
   */
  constructor(cfg: Partial<CacheConfig>, private readonly now: () => number, private readonly gate: QueryGate | null = null, private readonly hitNow: () => number = now) {
    this.cfg = { ...DEFAULT_CACHE, ...cacheSettings(process.env), ...cfg };
    this.entries = new ResultEntries(this.cfg.maxEntries, this.cfg.maxBytes, this.buckets);
    this.kinds = new LRUMapWithDelete(this.cfg.maxEntries);
    if (this.cfg.sweepMs > 0) {
      this.timer = setInterval(() => void this.warmNow(this.gate ?? undefined), this.cfg.sweepMs);
      this.timer.unref();
    }
  }

  /**
   * Answers one request. Time-bucket aggregations come from the bucket cache (always current);
   * other answers from the result cache when fresh, else computed once per key however many wait.
   */
  async run(prep: EndpointPlan, req: ResolvedRequest, redact: boolean, ctx: RunContext, stream?: BodyStream): Promise<RunResponse> {
    const nowUs = this.now();
    const ttlUs = prep.def.cache_duration_seconds * 1_000_000;
    if (ttlUs <= 0) {
      // Only an answer nobody keeps may stream: a cached one is held whole anyway.
      const release = ctx.gate.enter();
      try {
        this.counts.computations++;
        const r = this.response(await executeRequestSliced(prep, req, redact, ctx.catalog, nowUs, ctx.budget, stream), 'MISS', 0);
        r.recyclable = true;
        return r;
      } finally {
        release();
      }
    }
    const key = cacheKey(prep.def.id, req, redact);
    if (this.kinds.get(key) !== 'result') {
      const memo = this.bucketMemos.get(key);
      if (memo && memoHolds(memo, nowUs)) return this.memoHit(memo, nowUs);
      const answer = this.runFromBuckets(key, prep, req, redact, ctx, nowUs);
      if (answer) return answer;
      this.kinds.set(key, 'result');
    }
    return this.runCached(key, prep, req, redact, ctx, ttlUs);
  }

  /** A time-bucket aggregation answered from the bucket cache (its answer memoised while it holds); else null. */
  private runFromBuckets(key: string, prep: EndpointPlan, req: ResolvedRequest, redact: boolean, ctx: RunContext, nowUs: number): RunResponse | null {
    const t0 = performance.now();
    const inst = planRequest(prep, req, ctx.catalog, nowUs, new WorkMeter(meterLimits(ctx.budget)));
    const shape = bucketAggregateOf(inst);
    if (!shape) return null;
    this.kinds.set(key, 'bucket');
    const source = shape.scan.source;
    const clock: SourceClock = { lastSeq: () => source.lastSeq(), watermark: () => source.watermark() };
    const seq = clock.lastSeq(), watermark = clock.watermark();
    const a = this.buckets.answer(key, shape, clock, ctx.budget);
    this.entries.trimBuckets(key);
    // The bucket rows reach the run as its context; the plan stays the prepared one.
    const run = new ExecContext(ctx.budget);
    run.bucketRows = new Map([[shape.agg, a.rows]]);
    const r = executePlan(inst.physical, prep, redact, ctx.budget, performance.now() - t0, req.format, run);
    if (movesOnlyWithWindowStart(inst, shape)) {
      const { minTs, minTsClock } = shape.scan;
      const offset = minTsClock === 'affine' && minTs !== undefined ? minTs - nowUs : null;
      this.bucketMemos.set(key, { result: r, source: clock, seq, watermark, computedAt: nowUs, offset, firstCounted: a.firstCounted });
    } else {
      this.bucketMemos.delete(key);
    }
    r.rowsScanned += a.scanned;
    if (a.warm) { this.counts.bucketHits++; return { ...this.response(r, 'HIT', 0), cacheKind: 'bucket', timings: r.timings, rowsScanned: r.rowsScanned }; }
    this.counts.computations++;
    return this.response(r, 'MISS', 0);
  }

  /** A fresh result entry, else the computation in flight for the key, else a new one (stored when it succeeds). */
  private async runCached(key: string, prep: EndpointPlan, req: ResolvedRequest, redact: boolean, ctx: RunContext, ttlUs: number): Promise<RunResponse> {
    const compute = (): Promise<ExecuteResult> => executeRequestSliced(prep, req, redact, ctx.catalog, this.now(), ctx.budget);
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.computedAt < hit.ttlUs) {
      hit.lastUsed = now;
      this.counts.hits++;
      return this.response(hit.result, 'HIT', now - hit.computedAt);
    }
    const pending = this.inflight.get(key);
    if (pending) {
      const e = await pending;
      this.counts.hits++;
      return this.response(e.result, 'HIT', this.now() - e.computedAt);
    }
    const release = ctx.gate.enter();
    const p = (async () => {
      // Let callers that arrive in the same turn find the computation in flight.
      await Promise.resolve();
      this.counts.computations++;
      const result = await compute();
      const entry: Entry = {
        key, endpointId: prep.def.id, result, computedAt: this.now(), lastUsed: this.now(), ttlUs,
        warmUs: prep.def.proactive_requerying_seconds * 1_000_000, recompute: compute, bytes: result.body.length,
      };
      this.entries.store(entry);
      return entry;
    })();
    this.inflight.set(key, p);
    try {
      const e = await p;
      return this.response(e.result, 'MISS', 0);
    } finally {
      this.inflight.delete(key);
      release();
    }
  }

  /**
   * The answer when a cache holds it right now (a fresh result entry, or a bucket answer whose inputs
   * have not changed), else null: synchronous, for the HTTP hit path; misses go through run(). The answer
   * is a new object each call, every RunResponse field present: the caller may fill fields in place.
   */
  lookup(prep: EndpointPlan, req: ResolvedRequest, redact: boolean): RunResponse | null {
    if (prep.def.cache_duration_seconds <= 0) return null;
    const key = cacheKeyOnce(prep.def.id, req, redact);
    if (this.kinds.get(key) !== 'result') {
      const memo = this.bucketMemos.get(key);
      if (!memo) return null;
      // A window start that moves with the clock is judged on the exact time, never a lagging tick.
      const now = memo.offset === null ? this.hitNow() : this.now();
      return memoHolds(memo, now) ? this.memoHit(memo, now) : null;
    }
    const now = this.hitNow();
    const hit = this.entries.get(key);
    if (!hit || now - hit.computedAt >= hit.ttlUs) return null;
    hit.lastUsed = now;
    this.counts.hits++;
    return this.response(hit.result, 'HIT', now - hit.computedAt);
  }

  private memoHit(memo: BucketMemo, nowUs: number): RunResponse {
    this.counts.bucketHits++;
    this.counts.memoHits++;
    const r = this.response(memo.result, 'HIT', nowUs - memo.computedAt);
    r.cacheKind = 'bucket'; // the fresh object's own field: one allocation per hit, not a spread copy
    return r;
  }

  private response(r: ExecuteResult, cache: 'HIT' | 'MISS', ageUs: number): RunResponse {
    // Every field of RunResponse set here, in one literal: the service fills format, redacted and
    // endpoint in place on a hit (service.ts runCached), so the object never changes shape or grows.
    const hit = cache === 'HIT';
    return {
      body: r.body, format: undefined, rowCount: r.rowCount, truncated: r.truncated, cache, cacheKind: hit ? 'result' : undefined,
      ageSeconds: Math.max(0, Math.floor(ageUs / 1_000_000)), timings: hit ? NO_TIMINGS : r.timings,
      rowsScanned: hit ? 0 : r.rowsScanned, streamed: r.streamed ? true : undefined, redacted: undefined, endpoint: undefined, recyclable: undefined,
    };
  }

  /**
   * Recomputes entries due for warming that were read within their cache duration (SPEC §8) and drops
   * the rest. Bounded: per endpoint only the most recently used warmKeysPerEndpoint keys, a sweep stops
   * after its share of wall time, and a warm run takes a query slot only when one is free (it never
   * refuses a request). One sweep at a time.
   */
  async warmNow(gate?: QueryGate): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await warmSweep(this.entries, this.cfg, gate ?? null, this.now, this.counts);
    } finally {
      this.sweeping = false;
    }
  }

  /** New events arrived for a source; result entries stay as computed until they expire (SPEC §8). */
  onIngest(_source: string): void {}

  /** Forgets every answer and bucket state (cluster mode: partitions moved away, so their counts restart). */
  clearAll(): void {
    this.buckets.drop('');
    this.kinds.clear();
    this.bucketMemos.clear();
    this.entries.dropWhere(() => true);
  }

  dropEndpoint(id: string): void {
    const prefix = keyPrefix(id);
    this.buckets.drop(prefix);
    for (const key of [...this.kinds.keys()]) if (key.startsWith(prefix)) this.kinds.delete(key);
    for (const key of [...this.bucketMemos.keys()]) if (key.startsWith(prefix)) this.bucketMemos.delete(key);
    this.entries.dropWhere((e) => e.endpointId === id);
  }

  stats(): CacheStats {
    const c = this.counts;
    return {
      entries: this.entries.size, bytes: this.entries.bytes, computations: c.computations, hits: c.hits, bucket_hits: c.bucketHits,
      bucket_memo_hits: c.memoHits, bucket_states: this.buckets.size, bucket_bytes: this.buckets.bytes(),
      warm_runs: c.warmRuns, warm_skipped: c.warmSkipped,
    };
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

export interface CacheStats {
  entries: number;
  /** Bytes of result entries. */
  bytes: number;
  computations: number;
  hits: number;
  bucket_hits: number;
  bucket_memo_hits: number;
  bucket_states: number;
  /** Estimated bytes of the bucket states, counted with `bytes` against RINGQL_CACHE_MAX_BYTES. */
  bucket_bytes: number;
  /** Background recomputations run, and those a bound (keys per endpoint, CPU share, busy slots) put off. */
  warm_runs: number;
  warm_skipped: number;
}
