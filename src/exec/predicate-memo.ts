// Results of predicates over one hot column, kept per dictionary across queries: a dashboard polling
// the same filter (`REGEXP_CONTAINS(r.url, 'my-project')`) evaluates it once per distinct value ever
// seen, not once per query. Dictionaries only grow, so an id's answer never changes; memory is bounded.

import { LRUMap } from '../core/lru.ts';

/** 0 = not evaluated yet, 1 = TRUE, 2 = not TRUE (FALSE or NULL). */
export type MemoBytes = Uint8Array;

const MAX_BYTES_PER_DICT = 64 * 1024 * 1024;
const MAX_PREDICATES = 256;
const byDict = new WeakMap<{ readonly length: number }, LRUMap<string, MemoBytes>>();

/** The memo of predicate `key` over `dict`, at least as long as the dictionary is now. */
export function predicateMemo(dict: { readonly length: number }, key: string): MemoBytes {
  let lru = byDict.get(dict);
  const cap = Math.max(4, Math.min(MAX_PREDICATES, Math.floor(MAX_BYTES_PER_DICT / Math.max(1, dict.length))));
  if (!lru || lru.capacity < cap / 2 || lru.capacity > cap * 2) {
    // Re-size as the dictionary grows, keeping the most recent entries that still fit.
    const next = new LRUMap<string, MemoBytes>(cap);
    if (lru) for (const [k, v] of [...lru.entries()].reverse()) next.set(k, v);
    lru = next;
    byDict.set(dict, lru);
  }
  let memo = lru.get(key);
  if (!memo || memo.length < dict.length) {
    const grown = new Uint8Array(Math.max(dict.length + 1024, Math.ceil(dict.length * 1.25)));
    if (memo) grown.set(memo);
    memo = grown;
    lru.set(key, memo);
  }
  return memo;
}
