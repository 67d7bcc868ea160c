// The engine side of live subscriptions: which feed a query gets, appends holding exactly the rows of
// events ingested since the last message (late ones included, other projects' never), re-runs that
// speak only when the answer changed, redaction, and JSON only.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService, type EngineService } from '../../src/endpoints/service.ts';
import type { QueryService } from '../../src/endpoints/service-types.ts';

type Svc = QueryService & EngineService;
let svc: Svc;
let n = 0;

function edge(project: string, minutesAgo: number, path = '/rest/v1/t', message?: string): Record<string, unknown> {
  n++;
  return {
    id: `feed-${n}`,
    timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    event_message: message ?? `event ${n}`,
    project,
    metadata: { request: { path, url: `https://${project}.example.com${path}` } },
  };
}

const params = (o: Record<string, string>) => new Map(Object.entries(o));
const parse = (b: Buffer | null): { result?: Record<string, unknown>[]; append?: Record<string, unknown>[] } | null => (b ? JSON.parse(b.toString('utf8')) : null);

beforeEach(async () => {
  svc = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, cache: { sweepMs: 0 } });
  svc.ingestVolatile('edge.logs.prod', [edge('p1', 10), edge('p1', 5), edge('p2', 5)]);
});
afterEach(() => svc.close());

describe('row feeds', () => {
  it('logs.all appends only the new rows of its project, late events included, and stays quiet otherwise', async () => {
    const feed = svc.subscribe({ endpoint: 'logs.all', params: params({ project: 'p1' }), redactHeader: false });
    expect(feed.mode).toBe('rows');
    expect(parse(await feed.first())!.result!.map((r) => r.id)).toEqual(['feed-2', 'feed-1']);
    expect(await feed.next()).toBeNull();
    // One event two hours older than everything held (late), one newer, one for another project.
    const late = edge('p1', 120), fresh = edge('p1', 1), other = edge('p2', 1);
    svc.ingestVolatile('edge.logs.prod', [late, fresh, other]);
    expect(parse(await feed.next())).toEqual({ append: [expect.objectContaining({ id: fresh.id }), expect.objectContaining({ id: late.id })] });
    expect(await feed.next()).toBeNull();
    svc.ingestVolatile('edge.logs.prod', [edge('p2', 0)]);
    expect(await feed.next()).toBeNull();
  });

  it('a sandbox query over the CTEs appends too, in its own shape', async () => {
    const feed = svc.subscribe({ endpoint: 'logs.all', params: params({ project: 'p1', sql: 'select id from edge_logs' }), redactHeader: false });
    expect(feed.mode).toBe('rows');
    expect(parse(await feed.first())!.result).toHaveLength(2);
    const e = edge('p1', 0);
    svc.ingestVolatile('edge.logs.prod', [e]);
    expect(parse(await feed.next())).toEqual({ append: [{ id: e.id }] });
  });

  it('redacts appended rows of a redact_pii endpoint', async () => {
    await svc.createEndpoint({ name: 'msgs', query: 'select event_message from `edge.logs.prod` where project = @project', redact_pii: true, cache_duration_seconds: 0 });
    const feed = svc.subscribe({ endpoint: 'msgs', params: params({ project: 'p3' }), redactHeader: false });
    expect(feed.redacted).toBe(true);
    expect(parse(await feed.first())!.result).toEqual([]);
    svc.ingestVolatile('edge.logs.prod', [edge('p3', 0, '/x', 'from 192.168.0.7 and fe80::1')]);
    expect(parse(await feed.next())).toEqual({ append: [{ event_message: 'from REDACTED and REDACTED' }] });
  });
});

describe('result feeds', () => {
  it('usage.api-counts is a bucket feed that sends the whole result only when it changed', async () => {
    const feed = svc.subscribe({ endpoint: 'usage.api-counts', params: params({ interval: 'hourly', project: 'p1' }), redactHeader: false });
    expect(feed.mode).toBe('buckets');
    const total = (rows: Record<string, unknown>[]) => rows.reduce((s, r) => s + Number(r.total_rest_requests), 0);
    expect(total(parse(await feed.first())!.result!)).toBe(2);
    expect(await feed.next()).toBeNull();
    svc.ingestVolatile('edge.logs.prod', [edge('p1', 0), edge('p2', 0)]);
    expect(total(parse(await feed.next())!.result!)).toBe(3);
    expect(await feed.next()).toBeNull();
  });

  it('any other aggregate is re-run after new events and sent when its answer differs', async () => {
    await svc.createEndpoint({ name: 'per.project', query: 'select project, count(*) as c from `edge.logs.prod` group by project order by project', cache_duration_seconds: 0 });
    const feed = svc.subscribe({ endpoint: 'per.project', params: params({}), redactHeader: false });
    expect(feed.mode).toBe('result');
    expect(parse(await feed.first())!.result).toEqual([{ project: 'p1', c: 2 }, { project: 'p2', c: 1 }]);
    expect(await feed.next()).toBeNull();
    svc.ingestVolatile('edge.logs.prod', [edge('p2', 0)]);
    expect(parse(await feed.next())!.result).toEqual([{ project: 'p1', c: 2 }, { project: 'p2', c: 2 }]);
  });

  it('a query with a subquery is never treated as appendable', async () => {
    await svc.createEndpoint({ name: 'sub.q', query: 'select id from `edge.logs.prod` where project in (select project from `edge.logs.prod` where id = @id)', cache_duration_seconds: 0 });
    expect(svc.subscribe({ endpoint: 'sub.q', params: params({ id: 'feed-1' }), redactHeader: false }).mode).toBe('result');
  });
});

it('refuses a format other than JSON, and reports bad parameters at once', () => {
  expect(() => svc.subscribe({ endpoint: 'logs.all', params: params({ project: 'p1', format: 'csv' }), redactHeader: false })).toThrow(/JSON messages only/);
  expect(() => svc.subscribe({ endpoint: 'usage.api-counts', params: params({ interval: 'weekly', project: 'p1' }), redactHeader: false })).toThrow(/minutely/);
});
