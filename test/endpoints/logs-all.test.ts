// Contract of logs.all (SPEC §4) over random events ingested out of order: the default answer,
// time bounds (exclusive start, inclusive end), every CTE through `sql`, and parameter errors.

import { beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { RingqlError } from '../../src/core/errors.ts';
import type { QueryService } from '../../src/endpoints/service-types.ts';
import { ingestShuffled, randomEvents, PROJECTS } from './random-events.ts';
import { logsAllIds, type ModelEvent } from './model.ts';

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0) * 1000;
const CTES: Record<string, string> = {
  edge_logs: 'edge.logs.prod', postgres_logs: 'postgres.logs', function_edge_logs: 'function-relay-logs', function_logs: 'function-runtime-events',
  auth_logs: 'auth.logs.prod', realtime_logs: 'realtime.logs.prod', storage_logs: 'storage.logs.prod', rest_logs: 'rest.logs.prod', pooler_logs: 'pooler.logs.prod',
};
const iso = (us: number) => new Date(us / 1000).toISOString().replace('Z', '') + String(us % 1000).padStart(3, '0') + 'Z';

let service: QueryService;
let events: ModelEvent[];

async function run(params: Record<string, string>) {
  const r = await service.run({ endpoint: 'logs.all', params: new Map(Object.entries(params)), redactHeader: false });
  return { ...r, rows: (JSON.parse(r.body.toString()) as { result: Record<string, unknown>[] }).result };
}

async function runError(params: Record<string, string>): Promise<RingqlError> {
  try {
    await run(params);
  } catch (err) {
    if (err instanceof RingqlError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

beforeAll(async () => {
  events = randomEvents(11, 6000, NOW);
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 256 });
  service = await createQueryService({ store, stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
  ingestShuffled(events, 11, (s, b) => service.ingest(s, b));
});

describe('logs.all default query', () => {
  it.each(PROJECTS)('returns the 100 newest edge rows of project %s, newest first, with the four columns', async (p) => {
    const r = await run({ project: p });
    expect(r.rows.map((x) => x.id)).toEqual(logsAllIds(events, 'edge.logs.prod', p, null, null, 100));
    for (const row of r.rows) expect(Object.keys(row)).toEqual(['id', 'timestamp', 'event_message', 'metadata']);
    expect(r.rowCount).toBe(100);
    expect(r.truncated).toBe(false);
  });

  it('reads timestamps as µs integers and metadata as arrays of one record', async () => {
    const r = await run({ project: 'alpha' });
    const first = r.rows[0]!;
    const m = events.find((e) => e.event.id === first.id)!;
    expect(first.timestamp).toBe(m.ts);
    const md = first.metadata as unknown[];
    expect(Array.isArray(md)).toBe(true);
    if (md.length) expect(Array.isArray((md[0] as Record<string, unknown>).request)).toBe(true);
  });

  it('applies the exclusive start and inclusive end bounds', async () => {
    const sorted = events.filter((e) => e.source === 'edge.logs.prod' && e.event.project === 'beta').sort((a, b) => b.ts - a.ts);
    const end = sorted[20]!.ts;
    const start = sorted[60]!.ts;
    const r = await run({ project: 'beta', iso_timestamp_start: iso(start), iso_timestamp_end: iso(end) });
    const ids = r.rows.map((x) => x.id);
    expect(ids).toEqual(logsAllIds(events, 'edge.logs.prod', 'beta', start, end, 100));
    expect(ids[0]).toBe(sorted[20]!.event.id); // end is inclusive
    expect(ids).not.toContain(sorted[60]!.event.id); // start is exclusive
    expect(ids).toHaveLength(40);
  });

  it('treats empty bounds as absent', async () => {
    const a = await run({ project: 'gamma', iso_timestamp_start: '', iso_timestamp_end: '' });
    const b = await run({ project: 'gamma' });
    expect(a.body.toString()).toBe(b.body.toString());
  });

  it('rejects a missing or empty project and a bound that is not a timestamp', async () => {
    expect((await runError({})).code).toBe('missing_parameter');
    expect((await runError({ project: '' })).code).toBe('missing_parameter');
    const e = await runError({ project: 'alpha', iso_timestamp_start: 'yesterday' });
    expect(e.code).toBe('invalid_parameter');
    expect(e.details.param).toBe('iso_timestamp_start');
    expect(e.status).toBe(400);
  });

  it('gives an empty result for an unknown project', async () => {
    expect((await run({ project: 'nobody' })).rows).toEqual([]);
  });
});

describe('logs.all sandbox over each CTE', () => {
  for (const [cte, source] of Object.entries(CTES)) {
    it(`${cte} holds the project's ${source} rows newest first, with and without bounds`, async () => {
      const r = await run({ project: 'alpha', sql: `select id, timestamp from ${cte}` });
      expect(r.rows.map((x) => x.id)).toEqual(logsAllIds(events, source, 'alpha', null, null, 1000));
      const mid = NOW - 3 * 86_400_000_000;
      const b = await run({ project: 'alpha', iso_timestamp_start: iso(mid), sql: `select id from ${cte}` });
      expect(b.rows.map((x) => x.id)).toEqual(logsAllIds(events, source, 'alpha', mid, null, 1000));
      const c = await run({ project: 'alpha', iso_timestamp_end: iso(mid), sql: `select count(*) as n from ${cte}` });
      expect(c.rows).toEqual([{ n: logsAllIds(events, source, 'alpha', null, mid, 1e9).length }]);
    });
  }

  it('cuts rows beyond max_limit and says so', async () => {
    const r = await run({ project: 'alpha', sql: 'select id from edge_logs' });
    const all = logsAllIds(events, 'edge.logs.prod', 'alpha', null, null, 1e9);
    expect(all.length).toBeGreaterThan(1000);
    expect(r.rowCount).toBe(1000);
    expect(r.truncated).toBe(true);
  });
});
