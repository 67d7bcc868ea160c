// The result cache's entries (SPEC §8): one computed answer per key with its age, lifetime and warming
// period, LRU-bounded by count and, together with the bucket states, by RINGQL_CACHE_MAX_BYTES.

import { LRUMapWithDelete } from '../core/lru.ts';
import type { ExecuteResult } from '../engine/run-request.ts';
import type { BucketCache } from './bucket-cache.ts';

export interface Entry {
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

export class ResultEntries {
  private readonly entries: LRUMapWithDelete<string, Entry>;
  /** Bytes of the entries' answers. */
  private total = 0;

  constructor(maxEntries: number, private readonly maxBytes: number, private readonly buckets: BucketCache) {
    this.entries = new LRUMapWithDelete(maxEntries);
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }

  /** The entry, marked most recently used. */
  get(key: string): Entry | undefined {
    return this.entries.get(key);
  }

  peek(key: string): Entry | undefined {
    return this.entries.peek(key);
  }

  /** A snapshot of the keys, most recently used first. */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  /** Bucket states and result entries share RINGQL_CACHE_MAX_BYTES: states beyond what results leave are dropped, oldest first. */
  trimBuckets(keep: string): void {
    this.buckets.trimTo(Math.max(0, this.maxBytes - this.total), keep);
  }

  store(e: Entry): void {
    if (e.bytes > this.maxBytes) return;
    const old = this.entries.peek(e.key);
    if (old) this.total -= old.bytes;
    const popped = this.entries.setpop(e.key, e);
    if (popped && popped.evicted) this.total -= popped.value.bytes;
    this.total += e.bytes;
    const budget = this.maxBytes - this.buckets.bytes();
    if (this.total > budget) this.buckets.trimTo(Math.max(0, this.maxBytes - this.total), '');
    if (this.total > this.maxBytes) {
      const keys = [...this.entries.keys()]; // most recently used first
      for (let i = keys.length - 1; i >= 0 && this.total > this.maxBytes; i--) {
        const victim = this.entries.peek(keys[i]!);
        if (victim && victim !== e) { this.entries.delete(keys[i]!); this.total -= victim.bytes; }
      }
    }
  }

  /** A warmed entry's new answer (the entry stays where it is in the LRU order). */
  replaceResult(e: Entry, result: ExecuteResult): void {
    this.total += result.body.length - e.bytes;
    e.result = result;
    e.bytes = result.body.length;
  }

  delete(key: string, e: Entry): void {
    this.entries.delete(key);
    this.total -= e.bytes;
  }

  /** Drops every entry `drop` picks. */
  dropWhere(drop: (e: Entry) => boolean): void {
    for (const key of [...this.entries.keys()]) {
      const e = this.entries.peek(key);
      if (e && drop(e)) this.delete(key, e);
    }
  }
}
