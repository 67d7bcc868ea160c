// The result cache of SPEC §8: one serialised answer per (endpoint, declared parameter values,
// sql/lql, redaction flag), living cache_duration_seconds from its computation; concurrent misses
// share one computation; errors are never cached; bounded by entries and bytes (LRU); warming
// recomputes entries still in use every proactive_requerying_seconds.

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

export const DEFAULT_CACHE: CacheConfig = { maxEntries: 10_000, maxBytes: 256 * 1024 * 1024, sweepMs: 1000, warmKeysPerEndpoint: 16, warmShare: 0.25 };

interface Entry {
  key: string;
  endpointId: string;
  result: ExecuteResult;
  /** µs when computed. */
  computedAt: number;
  /** µs of the last request that read it (warming stops for entries nobody asks for). */
  lastUsed: number;
  ttlUs: number;
  warmUs: number;
  recompute: () => Promise<ExecuteResult>;
  bytes: number;
}

/**
 * A bucket-cache answer kept as bytes, with what it depended on: the source's newest sequence number
 * and eviction watermark, and, when its window start moves with the clock, how far it may move.
 */
interface BucketMemo {
  result: ExecuteResult;
  source: SourceClock;
  seq: number;
  watermark: number;
  /** µs when computed; the clock it was planned at. */
  computedAt: number;
  /** Window start minus the planning clock, when the window start is now + a fixed offset; else null. */
  offset: number | null;
  /** Every counted row is at or after this (µs). */
  firstCounted: number;
}

/** Whether the memo is still exactly what the query returns at `now`. */
function memoHolds(m: BucketMemo, now: number): boolean {
  if (now < m.computedAt || m.source.lastSeq() !== m.seq || m.source.watermark() !== m.watermark) return false;
  // The window start only moves forward; strictly below the first counted row, nothing counted leaves it.
  return m.offset === null || now + m.offset < m.firstCounted;
}

/** Every key of one endpoint starts with this. */
export function keyPrefix(endpointId: string): string {
  return endpointId + '\n';
}

/**
 * The cache key: endpoint, declared parameter values (in declaration order, as resolveRequest
 * builds them), the consumer query, the redaction flag and the output format (the format is part
 * of the answer; json adds nothing, so its keys are as before). Each value is length-prefixed, so no
 * two requests share a key; built by concatenation because it runs on every request.
 */
export function cacheKey(endpointId: string, req: ResolvedRequest, redact: boolean): string {
  let key = keyPrefix(endpointId) + (redact ? 'r' : '-');
  if (req.format && req.format !== 'json') key += `#${req.format};`;
  for (const [name, v] of req.values) key += `${name.length}:${name}=${v === null ? '~' : `${v.length}:${v}`};`;
  if (req.consumer) key += `${req.consumer.kind}:${req.consumer.text.length}:${req.consumer.text}`;
  return key;
}

export class ResultCache {
  private readonly cfg: CacheConfig;
  private readonly entries: LRUMapWithDelete<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry>>();
  private bytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private computations = 0;
  private hits = 0;
  private bucketHits = 0;
  /** Per key: whether its plan is answered by the bucket cache (decided on first sight). */
  private readonly kinds: LRUMapWithDelete<string, 'bucket' | 'result'>;
  readonly buckets = new BucketCache(MAX_BUCKET_STATES);
  /** Bucket answers as bytes, per key, reused while nothing they depend on has changed. */
  private readonly bucketMemos = new LRUMapWithDelete<string, BucketMemo>(MAX_BUCKET_STATES);
  private memoHits = 0;
  private warmRuns = 0;
  private warmSkipped = 0;
  private sweeping = false;

  /**
   * `gate` (when given) is where timed warm runs take their slots; `hitNow` is the clock lookup() reads
   * for freshness and Age (a timer-ticked one in the server; `now` by default).
   */
  constructor(cfg: Partial<CacheConfig>, private readonly now: () => number, private readonly gate: QueryGate | null = null, private readonly hitNow: () => number = now) {
    this.cfg = { ...DEFAULT_CACHE, ...cacheSettings(process.env), ...cfg };
    this.entries = new LRUMapWithDelete(this.cfg.maxEntries);
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
        this.computations++;
        return this.response(await executeRequestSliced(prep, req, redact, ctx.catalog, nowUs, ctx.budget, stream), 'MISS', 0);
      } finally {
        release();
      }
    }
    const key = cacheKey(prep.def.id, req, redact);
    if (this.kinds.get(key) !== 'result') {
      const memo = this.bucketMemos.get(key);
      if (memo && memoHolds(memo, nowUs)) return this.memoHit(memo, nowUs);
      const t0 = performance.now();
      const inst = planRequest(prep, req, ctx.catalog, nowUs, new WorkMeter(meterLimits(ctx.budget)));
      const shape = bucketAggregateOf(inst);
      if (shape) {
        this.kinds.set(key, 'bucket');
        const source = shape.scan.source;
        const clock: SourceClock = { lastSeq: () => source.lastSeq(), watermark: () => source.watermark() };
        const seq = clock.lastSeq(), watermark = clock.watermark();
        const a = this.buckets.answer(key, shape, clock, ctx.budget);
        this.trimBuckets(key);
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
        if (a.warm) { this.bucketHits++; return { ...this.response(r, 'HIT', 0), cacheKind: 'bucket', timings: r.timings, rowsScanned: r.rowsScanned }; }
        this.computations++;
        return this.response(r, 'MISS', 0);
      }
      this.kinds.set(key, 'result');
    }
    const compute = (): Promise<ExecuteResult> => executeRequestSliced(prep, req, redact, ctx.catalog, this.now(), ctx.budget);
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.computedAt < hit.ttlUs) {
      hit.lastUsed = now;
      this.hits++;
      return this.response(hit.result, 'HIT', now - hit.computedAt);
    }
    const pending = this.inflight.get(key);
    if (pending) {
      const e = await pending;
      this.hits++;
      return this.response(e.result, 'HIT', this.now() - e.computedAt);
    }
    const release = ctx.gate.enter();
    const p = (async () => {
      // Let callers that arrive in the same turn find the computation in flight.
      await Promise.resolve();
      this.computations++;
      const result = await compute();
      const entry: Entry = {
        key, endpointId: prep.def.id, result, computedAt: this.now(), lastUsed: this.now(), ttlUs,
        warmUs: prep.def.proactive_requerying_seconds * 1_000_000, recompute: compute, bytes: result.body.length,
      };
      this.store(entry);
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
   * have not changed), else null: synchronous, for the HTTP hit path; misses go through run().
   */
  lookup(prep: EndpointPlan, req: ResolvedRequest, redact: boolean): RunResponse | null {
    if (prep.def.cache_duration_seconds <= 0) return null;
    const key = cacheKey(prep.def.id, req, redact);
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
    this.hits++;
    return this.response(hit.result, 'HIT', now - hit.computedAt);
  }

  private memoHit(memo: BucketMemo, nowUs: number): RunResponse {
    this.bucketHits++;
    this.memoHits++;
    return { ...this.response(memo.result, 'HIT', nowUs - memo.computedAt), cacheKind: 'bucket' };
  }

  private response(r: ExecuteResult, cache: 'HIT' | 'MISS', ageUs: number): RunResponse {
    const out: RunResponse = {
      body: r.body, rowCount: r.rowCount, truncated: r.truncated, cache,
      ageSeconds: Math.max(0, Math.floor(ageUs / 1_000_000)), timings: cache === 'HIT' ? [] : r.timings,
      rowsScanned: cache === 'HIT' ? 0 : r.rowsScanned,
    };
    if (r.streamed) out.streamed = true;
    if (cache === 'HIT') out.cacheKind = 'result';
    return out;
  }

  /** Bucket states and result entries share RINGQL_CACHE_MAX_BYTES: states beyond what results leave are dropped, oldest first. */
  private trimBuckets(keep: string): void {
    this.buckets.trimTo(Math.max(0, this.cfg.maxBytes - this.bytes), keep);
  }

  private store(e: Entry): void {
    if (e.bytes > this.cfg.maxBytes) return;
    const old = this.entries.peek(e.key);
    if (old) this.bytes -= old.bytes;
    const popped = this.entries.setpop(e.key, e);
    if (popped && popped.evicted) this.bytes -= popped.value.bytes;
    this.bytes += e.bytes;
    const budget = this.cfg.maxBytes - this.buckets.bytes();
    if (this.bytes > budget) this.buckets.trimTo(Math.max(0, this.cfg.maxBytes - this.bytes), '');
    if (this.bytes > this.cfg.maxBytes) {
      const keys = [...this.entries.keys()]; // most recently used first
      for (let i = keys.length - 1; i >= 0 && this.bytes > this.cfg.maxBytes; i--) {
        const victim = this.entries.peek(keys[i]!);
        if (victim && victim !== e) { this.entries.delete(keys[i]!); this.bytes -= victim.bytes; }
      }
    }
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
      await this.sweep(gate ?? null);
    } finally {
      this.sweeping = false;
    }
  }

  private async sweep(gate: QueryGate | null): Promise<void> {
    const now = this.now();
    const due = new Map<string, Entry[]>();
    for (const key of [...this.entries.keys()]) {
      const e = this.entries.peek(key)!;
      if (now - e.lastUsed >= e.ttlUs) {
        if (now - e.computedAt >= e.ttlUs) { this.entries.delete(key); this.bytes -= e.bytes; }
        continue;
      }
      if (e.warmUs > 0 && now - e.computedAt >= e.warmUs) {
        const list = due.get(e.endpointId);
        if (list) list.push(e); else due.set(e.endpointId, [e]);
      }
    }
    const started = performance.now();
    const allowedMs = this.cfg.sweepMs > 0 ? this.cfg.sweepMs * this.cfg.warmShare : Infinity;
    for (const list of due.values()) {
      list.sort((a, b) => b.lastUsed - a.lastUsed);
      this.warmSkipped += Math.max(0, list.length - this.cfg.warmKeysPerEndpoint);
      for (const e of list.slice(0, this.cfg.warmKeysPerEndpoint)) {
        if (performance.now() - started > allowedMs) { this.warmSkipped++; continue; }
        const release = gate ? gate.tryEnter() : () => {};
        if (!release) { this.warmSkipped++; continue; }
        try {
          this.computations++;
          this.warmRuns++;
          const result = await e.recompute();
          if (this.entries.peek(e.key) !== e) continue; // dropped (endpoint changed) while it ran
          this.bytes += result.body.length - e.bytes;
          e.result = result;
          e.bytes = result.body.length;
          e.computedAt = this.now();
        } catch {
          // A failed warm-up keeps the previous answer until it expires; errors are never cached.
        } finally {
          release();
        }
      }
    }
  }

  /** New events arrived for a source; result entries stay as computed until they expire (SPEC §8). */
  onIngest(_source: string): void {}

  /** Forgets every answer and bucket state (cluster mode: partitions moved away, so their counts restart). */
  clearAll(): void {
    this.buckets.drop('');
    this.kinds.clear();
    this.bucketMemos.clear();
    for (const key of [...this.entries.keys()]) {
      const e = this.entries.peek(key);
      if (e) { this.entries.delete(key); this.bytes -= e.bytes; }
    }
  }

  dropEndpoint(id: string): void {
    const prefix = keyPrefix(id);
    this.buckets.drop(prefix);
    for (const key of [...this.kinds.keys()]) if (key.startsWith(prefix)) this.kinds.delete(key);
    for (const key of [...this.bucketMemos.keys()]) if (key.startsWith(prefix)) this.bucketMemos.delete(key);
    for (const key of [...this.entries.keys()]) {
      const e = this.entries.peek(key);
      if (e && e.endpointId === id) { this.entries.delete(key); this.bytes -= e.bytes; }
    }
  }

  stats(): CacheStats {
    return {
      entries: this.entries.size, bytes: this.bytes, computations: this.computations, hits: this.hits, bucket_hits: this.bucketHits,
      bucket_memo_hits: this.memoHits, bucket_states: this.buckets.size, bucket_bytes: this.buckets.bytes(),
      warm_runs: this.warmRuns, warm_skipped: this.warmSkipped,
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
