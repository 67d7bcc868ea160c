// c: aggregates over a field as the reference charts them (sum, avg, max, min, countd, count(f),
// p50/p95/p99), the value column named `count`; group_by(t::second|minute|hour|day) and short forms.

import { describe, expect, it } from 'vitest';
import { lql } from './helpers.ts';
import { lqlRows, lqlSql } from './store-rows.ts';

const at = (min: number): number => Date.UTC(2025, 0, 15, 11, min) * 1000;
const EVENTS = [
  { min: 10, latency: 10, path: '/a' },
  { min: 10, latency: 20, path: '/a' },
  { min: 10, latency: 30, path: '/b' },
  { min: 12, latency: 5, path: '/c' },
].map((e, i) => ({ id: `e${i}`, timestamp: at(e.min), event_message: 'x', metadata: { latency: e.latency, path: e.path } }));
const chart = (text: string): [number, unknown][] => lqlRows(text, EVENTS).map((r) => [r.timestamp as number, r.count]);

describe('c: aggregates over a field', () => {
  it('sum, avg, max, min per minute', () => {
    expect(chart('c:sum(m.latency)')).toEqual([[at(10), 60], [at(12), 5]]);
    expect(chart('c:avg(m.latency)')).toEqual([[at(10), 20], [at(12), 5]]);
    expect(chart('c:max(metadata.latency)')).toEqual([[at(10), 30], [at(12), 5]]);
    expect(chart('c:min(m.latency)')).toEqual([[at(10), 10], [at(12), 5]]);
  });

  it('countd counts distinct values; count(field) counts rows', () => {
    expect(chart('c:countd(m.path)')).toEqual([[at(10), 2], [at(12), 1]]);
    expect(chart('c:count(m.latency)')).toEqual([[at(10), 3], [at(12), 1]]);
    expect(lqlSql('c:countd(m.path)')).toContain('COUNT(DISTINCT f_metadata.path) AS count');
  });

  it('p50 is APPROX_QUANTILES(f, 100)[OFFSET(50)]', () => {
    expect(chart('c:p50(m.latency)')).toEqual([[at(10), 20], [at(12), 5]]);
    expect(lqlSql('c:p99(m.latency)')).toContain('APPROX_QUANTILES(f_metadata.latency, 100)[OFFSET(99)] AS count');
  });

  it('group_by takes second/minute/hour/day and s/m/h/d', () => {
    expect(chart('c:sum(m.latency) c:group_by(t::h)')).toEqual([[Date.UTC(2025, 0, 15, 11) * 1000, 65]]);
    expect(lql('c:count(*) c:group_by(t::s)')).toEqual(lql('c:count(*) c:group_by(t::second)'));
    expect(lqlSql('c:count(*) c:group_by(t::second)')).toContain('TIMESTAMP_TRUNC(t.timestamp, SECOND)');
    expect(lql('c:count(*) c:group_by(t::d)')).toEqual(lql('c:count(*) c:group_by(t::day)'));
  });

  it('long keywords chart:, select:, from: mean c:, s:, f:', () => {
    expect(lql('chart:sum(m.latency) chart:group_by(t::m)')).toEqual(lql('c:sum(m.latency) c:group_by(t::minute)'));
    expect(lql('select:id from:edge_logs')).toEqual(lql('s:id f:edge_logs'));
  });
});
