// Differential harness for the byte-level ingest path: one body through SourceStore.ingestBytes (the
// reference path when it declines) and through parseEventsBody + ingest (the reference) on twin stores;
// the outcomes, stored rows (bytes, ts, project, hot values, shape), schemas and counters must agree.

import { parseEventsBody, isNdjsonType } from '../../src/endpoints/events-body.ts';
import { isRingqlError } from '../../src/core/errors.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import type { SourceStore } from '../../src/store/source-store.ts';
import type { OpenSegment } from '../../src/store/open-segment.ts';

export interface Twin {
  fast: SourceStore;
  ref: SourceStore;
  /** Bodies the addon took itself, and the reasons it gave the others to the reference path. */
  took: number;
  declined: Map<string, number>;
}

/** Twin stores of one source, big enough that every row stays in the open segment. */
export function twinStores(source: string, overrides: Partial<ReturnType<typeof defaultStoreConfig>> = {}): Twin {
  const cfg = { ...defaultStoreConfig({}), segmentRows: 1 << 30, ...overrides };
  return { fast: new Store(cfg).source(source)!, ref: new Store(cfg).source(source)!, took: 0, declined: new Map() };
}

type Outcome = { ok: { stored: number; dropped: number } } | { error: { code: string; message: string; details: unknown } };

function outcome(f: () => { stored: number; dropped: number }): Outcome {
  try {
    return { ok: f() };
  } catch (e) {
    if (!isRingqlError(e)) throw e;
    return { error: { code: e.code, message: e.message, details: e.details } };
  }
}

/** Ingests `body` into both stores; returns both outcomes. */
export function ingestBoth(t: Twin, body: Buffer, contentType: string, nowUs: number): { fast: Outcome; ref: Outcome } {
  const fast = outcome(() => {
    const r = t.fast.ingestBytes(body, isNdjsonType(contentType), nowUs);
    if (typeof r !== 'string') { t.took++; return r; }
    t.declined.set(r, (t.declined.get(r) ?? 0) + 1);
    return t.fast.ingest(parseEventsBody(body, contentType), nowUs);
  });
  const ref = outcome(() => t.ref.ingest(parseEventsBody(body, contentType), nowUs));
  return { fast, ref };
}

const GENERATED_ID = /^\{"id":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"/;

/** Everything a store holds, comparable with toEqual (generated ids blanked: each path draws its own). */
export function snapshot(s: SourceStore): unknown {
  // The open segment is private; the harness reads it to compare stored bytes exactly.
  const open = (s as unknown as { rows: { open: OpenSegment } }).rows.open;
  const rows = [];
  for (let r = 0; r < open.n; r++) {
    rows.push({
      json: open.json(r).replace(GENERATED_ID, '{"id":"<generated>"'),
      extra: open.extra(r),
      ts: open.ts.v[r],
      pid: open.pid[r],
      hot: open.hot.map((col, h) => s.hotDict(s.hotKeys[h]!).get(col[r]!)),
      shape: open.shape[r],
    });
  }
  // `resident` counts the open slab's capacity, which depends on how appends grew it (the byte path
  // appends a run of rows at once), not on what is stored: it is left out of the comparison.
  const { resident: _resident, ...stats } = s.stats();
  return { rows, scanned: scanRows(s), schema: s.schema(), top: [...s.topLevelColumns()], stats };
}

/** Every visible row as a scan reads it (sealed segments too), in (ts, seq) order. */
function scanRows(s: SourceStore): unknown[] {
  const out = [];
  for (const b of s.scan({ order: 'asc', hot: [...s.hotKeys] })) {
    for (let k = 0; k < b.n; k++) {
      const rows = b.rows[k]!, i = b.idx[k]!;
      out.push({
        ts: b.ts[k], seq: b.seq[k], project: b.project[k],
        json: rows.json(i).replace(GENERATED_ID, '{"id":"<generated>"'), extra: rows.extra(i),
        hot: s.hotKeys.map((key) => s.hotDict(key).get(b.hot.get(key)![k]!)),
      });
    }
  }
  return out.sort((a, b) => a.ts! - b.ts! || a.seq! - b.seq!);
}
