// What a service reports about itself: GET /health's body and the figures /metrics reads (rows,
// memory budget, schema sizes, result cache, query admission, write-ahead log and checkpoints).

import type { Store } from '../store/store.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { QueryGate } from '../cache/query-gate.ts';
import type { Wal } from '../durable/wal.ts';
import type { RecoveryReport } from '../durable/wal-recovery.ts';
import type { ServiceFigures } from './service-types.ts';

/** The parts of a service its reports read. */
export interface ServiceParts {
  store: Store;
  cache: ResultCache;
  gate: QueryGate;
  wal: Wal | null;
  /** The last checkpoint and the one this start was restored from. */
  checkpointStats: (() => Record<string, unknown>) | null;
  recovery: RecoveryReport | null;
  /** Date.now() when the service started. */
  started: number;
}

export function healthReport(p: ServiceParts): Record<string, unknown> {
  const mem = process.memoryUsage();
  const recovery = p.recovery;
  return {
    uptime_seconds: Math.round((Date.now() - p.started) / 1000),
    rows: Object.fromEntries(p.store.sources().map((s) => [s.def.name, s.rowCount])),
    memory: { rss: mem.rss, heap_used: mem.heapUsed, external: mem.external },
    // RINGQL_MAX_MEMORY and what counts against it (segments, open buffers, dictionaries, caches).
    memory_budget: p.store.memoryStats(),
    // Field paths each source's schema holds and a rough estimate of their heap bytes (bounded by
    // RINGQL_MAX_FIELDS_PER_SOURCE, forgotten with the rows that used them).
    schema: Object.fromEntries(p.store.sources().map((s) => {
      const st = s.stats();
      return [s.def.name, { fields: st.schemaFields, bytes: st.schemaBytes }];
    })),
    cache: p.cache.stats(),
    queries: p.gate.stats(),
    durability: p.wal ? {
      wal: p.wal.stats(),
      checkpoint: p.checkpointStats?.() ?? null,
      recovery: recovery && { ms: Math.round(recovery.ms), records: recovery.records, events: recovery.events, bytes: recovery.bytes, torn_tails: recovery.tornTails, set_aside: recovery.setAside },
    } : null,
  };
}

export function serviceFigures(p: ServiceParts): ServiceFigures {
  const sources = p.store.sources().map((s) => {
    const st = s.stats();
    return { name: s.def.name, rows: st.rows, bytes: st.bytes, evicted: st.evicted, dropped: st.dropped };
  });
  const w = p.wal?.stats();
  return {
    sources, cache: p.cache.stats(), queries: p.gate.stats(),
    wal: w ? { files: w.files, bytes: w.bytes, fsyncs: w.fsyncs, write_errors: w.write_errors } : null,
  };
}
