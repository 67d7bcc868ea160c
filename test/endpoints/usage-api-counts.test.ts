// Contract of usage.api-counts (SPEC §4) over random events ingested out of order: all three
// intervals, regex patterns, bucket rules, DATETIME output, and parameter errors.

import { beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { RingqlError } from '../../src/core/errors.ts';
import type { QueryService } from '../../src/endpoints/service-types.ts';
import { ingestShuffled, randomEvents } from './random-events.ts';
import { usageRows, type ModelEvent } from './model.ts';

const NOW = Date.UTC(2025, 0, 15, 12, 34, 56, 789) * 1000;
let service: QueryService;
let events: ModelEvent[];

async function run(params: Record<string, string>) {
  const r = await service.run({ endpoint: 'usage.api-counts', params: new Map(Object.entries(params)), redactHeader: false });
  return (JSON.parse(r.body.toString()) as { result: Record<string, unknown>[] }).result;
}

beforeAll(async () => {
  events = randomEvents(23, 8000, NOW);
  // dense recent traffic so that the minutely and hourly windows have many buckets
  events.push(...randomEvents(24, 3000, NOW).map((e) => ({ ...e, ts: NOW - (e.ts % 3_600_000_000), event: { ...e.event, id: `${e.event.id as string}-r`, timestamp: NOW - (e.ts % 3_600_000_000) } })));
  // an event exactly at the window start counts; one just before does not
  const atStart = NOW - 3_600_000_000;
  events.push({ source: 'edge.logs.prod', ts: atStart, event: { id: 'at-start', timestamp: atStart, project: 'alpha', metadata: { request: { url: 'https://alpha.api.example.com/rest/v1/x', path: '/rest/v1/x' } } } });
  events.push({ source: 'edge.logs.prod', ts: atStart - 1, event: { id: 'before-start', timestamp: atStart - 1, project: 'alpha', metadata: { request: { url: 'https://alpha.api.example.com/auth/v1/x', path: '/auth/v1/x' } } } });
  const store = new Store({ ...defaultStoreConfig({}), segmentRows: 512 });
  service = await createQueryService({ store, stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
  ingestShuffled(events, 23, (s, b) => service.ingest(s, b));
});

describe('usage.api-counts', () => {
  const cases: [string, RegExp][] = [['alpha', /alpha/], ['^https://(beta|gamma)\\.', /^https:\/\/(beta|gamma)\./], ['example', /example/], ['no-such-project', /no-such-project/]];
  for (const interval of ['minutely', 'hourly', 'daily'] as const) {
    for (const [pattern, re] of cases) {
      it(`${interval} buckets for project pattern ${pattern}`, async () => {
        const rows = await run({ interval, project: pattern });
        expect(rows).toEqual(usageRows(events, interval, re, NOW));
        if (pattern !== 'no-such-project') expect(rows.length).toBeGreaterThan(0);
      });
    }
  }

  it('writes bucket starts as DATETIME strings and counters as integers, ascending', async () => {
    const rows = await run({ interval: 'minutely', project: 'alpha' });
    for (const r of rows) {
      expect(r.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00$/);
      expect(Number.isInteger(r.total_rest_requests)).toBe(true);
    }
    const ts = rows.map((r) => r.timestamp as string);
    expect([...ts].sort()).toEqual(ts);
  });

  it('keeps a bucket whose matching events hit none of the four counters (all zero)', async () => {
    const rows = await run({ interval: 'daily', project: 'graphql' });
    // the URL contains /graphql only for graphql paths; those count in no counter
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect([r.total_rest_requests, r.total_storage_requests, r.total_auth_requests, r.total_realtime_requests]).toEqual([0, 0, 0, 0]);
  });

  it('accepts RE2 syntax such as (?i)', async () => {
    expect(await run({ interval: 'hourly', project: '(?i)ALPHA' })).toEqual(usageRows(events, 'hourly', /alpha/i, NOW));
  });

  it('rejects a bad interval listing the allowed ones, and an invalid regular expression', async () => {
    for (const [params, code, param] of [
      [{ interval: 'weekly', project: 'a' }, 'invalid_parameter', 'interval'],
      [{ project: 'a' }, 'missing_parameter', 'interval'],
      [{ interval: 'daily' }, 'missing_parameter', 'project'],
      [{ interval: 'daily', project: '(' }, 'invalid_parameter', 'project'],
    ] as const) {
      try {
        await run(params);
        throw new Error('expected an error');
      } catch (err) {
        expect(err).toBeInstanceOf(RingqlError);
        expect((err as RingqlError).code).toBe(code);
        expect((err as RingqlError).details.param).toBe(param);
        if (param === 'interval' && code === 'invalid_parameter') expect((err as RingqlError).details.allowed).toEqual(['minutely', 'hourly', 'daily']);
      }
    }
  });

  it('serves the CTEs dates and chart_counts to sandbox queries', async () => {
    const r = await service.run({ endpoint: 'usage.api-counts', params: new Map([['interval', 'hourly'], ['project', 'alpha'], ['sql', 'select count(*) as n from dates']]), redactHeader: false });
    expect(JSON.parse(r.body.toString())).toEqual({ result: [{ n: 1 }] });
  });
});
