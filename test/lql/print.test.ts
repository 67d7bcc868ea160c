// Printed SQL of compiled LQL (runs once src/sql/print.ts and src/sql/parse.ts exist): printing
// then parsing gives back the same AST, and the text has the expected shape.

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Query } from '../../src/sql/ast.ts';
import { lql, LOGS_ALL_CTES } from './helpers.ts';

const printPath = '../../src/sql/print.ts';
const parsePath = '../../src/sql/parse.ts';
const present = existsSync(new URL(printPath, import.meta.url)) && existsSync(new URL(parsePath, import.meta.url));

/** Drops `pos`, `quoted` arrays with nothing quoted, and undefined keys, for comparison. */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'pos' || x === undefined) continue;
      if (k === 'quoted' && Array.isArray(x) && !x.includes(true)) continue;
      out[k] = normalize(x);
    }
    return out;
  }
  return v;
}

const samples = [
  'f:edge_logs error',
  'f:edge_logs "two words" ~"^x\\d"',
  'f:edge_logs -m.request.path:/rest m.request.method:GET m.response.status_code:>=500 m.ok:true m.user:NULL',
  'f:edge_logs m.response.status_code:400..499 m.ratio:0.5 m.name:~"a\'b"',
  'f:edge_logs t:>2024-01-01T00:00:00Z t:<=2024-02-01T00:00:00Z t:last@15minutes',
  'f:edge_logs s:m.request.path s:id s:m.response.path',
  'f:edge_logs c:count(*) c:group_by(t::minute) m.level:error',
  'f:edge_logs c:count(*)',
  'f:edge_logs m.arr:@>a m.arr:@>~"^b\\d" -m.tags:@>x',
  'f:edge_logs -m.level:error -error m.x:1',
  'f:edge_logs m.level:debug..critical -m.level:info..warning',
  'f:edge_logs ~"a\\\\d" m.f:~"\\\\."',
];

describe.skipIf(!present)('printed SQL', () => {
  const load = async (): Promise<{ printSql: (q: Query) => string; parseQuery: (s: string) => Query }> => {
    const print = (await import(/* @vite-ignore */ printPath)) as { printSql: (q: Query) => string };
    const parse = (await import(/* @vite-ignore */ parsePath)) as { parseQuery: (s: string) => Query };
    return { printSql: print.printSql, parseQuery: parse.parseQuery };
  };
  for (const text of samples) {
    it(`round-trips: ${text}`, async () => {
      const { printSql, parseQuery } = await load();
      const q = lql(text, LOGS_ALL_CTES);
      const sql = printSql(q);
      expect(normalize(parseQuery(sql))).toEqual(normalize(q));
    });
  }
  it('reads like the SQL SPEC §5 describes', async () => {
    const { printSql } = await load();
    const flat = (text: string): string => printSql(lql(text, LOGS_ALL_CTES)).replace(/\s+/g, ' ').toLowerCase();
    const rows = flat('f:edge_logs error -m.request.path:/rest s:m.request.path');
    expect(rows).toMatch(/from edge_logs as t cross join unnest\(t\.metadata\) as f_metadata cross join unnest\(f_metadata\.request\) as f_metadata_request/);
    expect(rows).toMatch(/strpos\(t\.event_message, 'error'\) > 0/);
    expect(rows).toMatch(/order by t\.timestamp desc/);
    expect(rows).not.toMatch(/limit/);
    expect(flat('f:edge_logs s:m.request.path')).toMatch(/left join unnest\(t\.metadata\) as f_metadata on true/);
    const chart = flat('f:edge_logs c:count(*) c:group_by(t::hour)');
    expect(chart).toMatch(/timestamp_trunc\(t\.timestamp, hour\) as `?timestamp`?, count\(\*\) as `?count`?/);
    expect(chart).toMatch(/group by `?timestamp`? order by `?timestamp`? asc/);
    expect(flat('f:edge_logs t:last@2hours')).toMatch(/t\.timestamp >= timestamp_sub\(current_timestamp\(\), interval 2 hour\)/);
    expect(flat('f:edge_logs t:>2024-01-01T00:00:00Z')).toMatch(/t\.timestamp > timestamp '2024-01-01t00:00:00z'/);
  });
});
