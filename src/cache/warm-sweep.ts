// The warming sweep of SPEC §8: recomputes entries due for warming that were read within their cache
// duration and drops expired ones, bounded per endpoint, by a share of wall time and by free slots.

import type { QueryGate } from './query-gate.ts';
import type { ResultEntries, Entry } from './result-entries.ts';

export interface WarmLimits {
  /** How often sweeps run (ms; 0 = only when called): a sweep may spend warmShare of it. */
  sweepMs: number;
  warmKeysPerEndpoint: number;
  warmShare: number;
}

/** The counters a sweep adds to. */
export interface WarmCounters {
  computations: number;
  warmRuns: number;
  warmSkipped: number;
}

export async function warmSweep(entries: ResultEntries, cfg: WarmLimits, gate: QueryGate | null, now: () => number, counts: WarmCounters): Promise<void> {
  const due = dueForWarming(entries, now());
  const started = performance.now();
  const allowedMs = cfg.sweepMs > 0 ? cfg.sweepMs * cfg.warmShare : Infinity;
  for (const list of due.values()) {
    list.sort((a, b) => b.lastUsed - a.lastUsed);
    counts.warmSkipped += Math.max(0, list.length - cfg.warmKeysPerEndpoint);
    for (const e of list.slice(0, cfg.warmKeysPerEndpoint)) {
      if (performance.now() - started > allowedMs) { counts.warmSkipped++; continue; }
      const release = gate ? gate.tryEnter() : () => {};
      if (!release) { counts.warmSkipped++; continue; }
      try {
        counts.computations++;
        counts.warmRuns++;
        const result = await e.recompute();
        if (entries.peek(e.key) !== e) continue; // dropped (endpoint changed) while it ran
        entries.replaceResult(e, result);
        e.computedAt = now();
      } catch {
        // A failed warm-up keeps the previous answer until it expires; errors are never cached.
      } finally {
        release();
      }
    }
  }
}

/** Per endpoint, the entries read within their cache duration and due for warming; drops those expired and unread. */
function dueForWarming(entries: ResultEntries, now: number): Map<string, Entry[]> {
  const due = new Map<string, Entry[]>();
  for (const key of entries.keys()) {
    const e = entries.peek(key)!;
    if (now - e.lastUsed >= e.ttlUs) {
      if (now - e.computedAt >= e.ttlUs) entries.delete(key, e);
      continue;
    }
    if (e.warmUs > 0 && now - e.computedAt >= e.warmUs) {
      const list = due.get(e.endpointId);
      if (list) list.push(e); else due.set(e.endpointId, [e]);
    }
  }
  return due;
}
