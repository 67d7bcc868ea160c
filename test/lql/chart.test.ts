// c: charts (SPEC §5): count(*) grouped by a truncated timestamp, ascending, no empty buckets
// (it groups existing rows); count(*) alone charts per minute; group_by alone charts count(*).

import { describe, expect, it } from 'vitest';
import { bin, call, errorOf, fromChain, id, int, lql, select } from './helpers.ts';
import { lqlRows, lqlSql } from './store-rows.ts';

const count = { kind: 'expr', expr: { kind: 'call', name: 'COUNT', args: [], star: true }, alias: 'count' };

describe('c: charts', () => {
  for (const unit of ['minute', 'hour', 'day'] as const) {
    it(`c:count(*) c:group_by(t::${unit})`, () => {
      const q = lql(`c:count(*) c:group_by(t::${unit})`);
      expect(select(q).items).toEqual([
        { kind: 'expr', expr: call('TIMESTAMP_TRUNC', id('t', 'timestamp'), id(unit.toUpperCase())), alias: 'timestamp' },
        count,
      ]);
      expect(select(q).groupBy).toEqual([id('timestamp')]);
      expect(q.orderBy).toEqual([{ expr: id('timestamp'), desc: false }]);
      expect(q).not.toHaveProperty('limit');
    });
  }
  it('order of the two terms and t/timestamp spelling do not matter', () => {
    expect(lql('c:group_by(timestamp::hour) c:count(*)')).toEqual(lql('c:count(*) c:group_by(t::hour)'));
    expect(lql('c:COUNT(*) c:GROUP_BY(t::HOUR)')).toEqual(lql('c:count(*) c:group_by(t::hour)'));
  });
  it('filters apply before grouping', () => {
    const q = lql('c:count(*) c:group_by(t::minute) m.response.status_code:>=500 t:last@1hour');
    expect(select(q).where).toMatchObject({ kind: 'binary', op: 'AND', left: bin('>=', id('f_metadata_response', 'status_code'), int(500)) });
    expect(fromChain(q)).toEqual(['edge_logs AS t', 'CROSS f_metadata <- t.metadata', 'CROSS f_metadata_response <- f_metadata.response']);
  });
  it('c:count(*) alone charts per minute, as the reference defaults', () => {
    expect(lql('c:count(*) error')).toEqual(lql('c:count(*) c:group_by(t::minute) error'));
    expect(lqlSql('c:count(*)')).toBe('SELECT TIMESTAMP_TRUNC(t.timestamp, MINUTE) AS timestamp, COUNT(*) AS count FROM edge_logs AS t GROUP BY timestamp ORDER BY timestamp ASC');
  });
  it('rows: c:count(*) alone gives timestamp (µs) and count per minute, ascending, no empty minutes', () => {
    const at = (min: number, sec: number): number => Date.UTC(2025, 0, 15, 11, min, sec) * 1000;
    const events = [[10, 5], [10, 59], [12, 0], [10, 30], [12, 1]].map(([m, s], i) => ({ id: `e${i}`, timestamp: at(m!, s!), event_message: 'x', metadata: {} }));
    expect(lqlRows('c:count(*)', events)).toEqual([
      { timestamp: at(10, 0), count: 3 },
      { timestamp: at(12, 0), count: 2 },
    ]);
  });
  it('group_by alone charts count(*) per that unit, as the reference (its chart rule defaults to count)', () => {
    expect(lql('c:group_by(t::minute)')).toEqual(lql('c:count(*) c:group_by(t::minute)'));
    expect(lql('c:group_by(t::hour) m.status:error')).toEqual(lql('c:count(*) c:group_by(t::hour) m.status:error'));
  });
  it('two different units → 400', () => {
    expect(errorOf(() => lql('c:count(*) c:group_by(t::minute) c:group_by(t::day)')).code).toBe('invalid_parameter');
  });
  it('s: with a chart is ignored: the chart wins, as in the sandboxed LQL of the reference', () => {
    expect(lql('c:count(*) s:id s:m.request.path')).toEqual(lql('c:count(*)'));
  });
});
