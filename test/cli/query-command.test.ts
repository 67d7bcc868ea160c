// CLI contract of `ringql query` (SPEC §9): runs the real bin in a child process over real NDJSON
// files, prints exactly the HTTP body, and exits 0 / 1 (query error) / 2 (usage error).

import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { FIXTURE_DIR } from '../helpers/fixture-store.ts';

const BIN = fileURLToPath(new URL('../../src/cli/ringql.js', import.meta.url));
const load = ['--load', `edge.logs.prod=${join(FIXTURE_DIR, 'edge.logs.prod.ndjson')}`, '--load', `postgres.logs=${join(FIXTURE_DIR, 'postgres.logs.ndjson')}`];
const NOW = ['--now', '2025-01-15T12:00:00Z'];

function ringql(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('ringql query', { timeout: 60_000 }, () => {
  it('answers logs.all with the HTTP body and a newline', () => {
    const r = ringql(['query', '--endpoint', 'logs.all', '--param', 'project=alpha', ...load, ...NOW]);
    expect(r.code).toBe(0);
    expect(r.out.endsWith('}\n')).toBe(true);
    const body = JSON.parse(r.out) as { result: { id: string; timestamp: number }[] };
    expect(body.result.length).toBeGreaterThan(5);
    const ts = body.result.map((x) => x.timestamp);
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    expect(r.err).toMatch(/loaded \d+ events/);
  });

  it('runs a sandbox --sql over a CTE and a plain query over the sources', () => {
    const a = ringql(['query', '--endpoint', 'logs.all', '--param', 'project=beta', '--sql', 'select count(*) as n from postgres_logs', ...load, ...NOW]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.out)).toEqual({ result: [{ n: 6 }] });
    const b = ringql(['query', '--sql', 'select count(*) as n from `postgres.logs`', ...load, ...NOW]);
    expect(JSON.parse(b.out)).toEqual({ result: [{ n: 12 }] });
  });

  it('holds a plain --sql to the query budget of the environment, as an endpoint run is', () => {
    // 12 postgres rows and their cross product (144) against a budget of 20 touched rows.
    const sql = 'select count(*) as n from `postgres.logs` a cross join `postgres.logs` b';
    const within = ringql(['query', '--sql', sql, ...load, ...NOW]);
    expect(JSON.parse(within.out)).toEqual({ result: [{ n: 144 }] });
    const over = ringql(['query', '--sql', sql, ...load, ...NOW], { RINGQL_QUERY_MAX_ROWS: '20' });
    expect(over.code).toBe(1);
    expect(JSON.parse(over.out)).toMatchObject({ error: { code: 'query_timeout' } });
  });

  it('fixes CURRENT_TIMESTAMP with --now', () => {
    const r = ringql(['query', '--sql', 'select current_timestamp() as now', '--now', '2024-02-29T23:59:59.5Z']);
    expect(JSON.parse(r.out)).toEqual({ result: [{ now: Date.UTC(2024, 1, 29, 23, 59, 59, 500) * 1000 }] });
  });

  it('prints NDJSON and CSV with --format, for an endpoint and a plain query', () => {
    const a = ringql(['query', '--endpoint', 'logs.all', '--param', 'project=beta', '--sql', 'select count(*) as n, \'x,y\' as s from postgres_logs', '--format', 'csv', ...load, ...NOW]);
    expect(a.code).toBe(0);
    expect(a.out).toBe('n,s\r\n6,"x,y"\r\n');
    const b = ringql(['query', '--sql', 'select 1 as a union all select 2 as a order by a', '--format', 'ndjson']);
    expect(b.out).toBe('{"a":1}\n{"a":2}\n');
    const c = ringql(['query', '--sql', 'select 1 as a', '--format', 'xml']);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/--format must be one of json, ndjson, csv/);
  });

  it('prints the plan with --explain', () => {
    const r = ringql(['query', '--endpoint', 'logs.all', '--param', 'project=alpha', '--explain', ...NOW]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Scan edge\.logs\.prod AS t project="alpha"/);
    // Both plans; the physical one names the rules that fired (the 100 newest rows from time-ordered segments).
    expect(r.out).toMatch(/^Logical plan:\n[\s\S]*\nPhysical plan:\nLimit 100\n/);
    expect(r.out).toMatch(/order=desc rows<=100 {2}\[ProjectScanByTimeRange, TopNByTimeFromSortedSegments\]/);
  });

  it('EXPLAIN <query> prints both plans instead of rows', () => {
    const r = ringql(['query', '--sql', 'EXPLAIN select a.id from `edge.logs.prod` a join `postgres.logs` b on a.id = b.id', ...NOW]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Logical plan:\nProject id\n {2}Join inner ON \(id = id\)/);
    expect(r.out).toMatch(/Physical plan:\nProject id\n {2}HashJoin inner keys=id = id {2}\[HashJoinOnEquiKeys\]/);
  });

  it('exits 1 with the error body on a query error', () => {
    const r = ringql(['query', '--endpoint', 'logs.all', ...NOW]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).error.code).toBe('missing_parameter');
    const s = ringql(['query', '--sql', 'select nope from `edge.logs.prod`', ...NOW]);
    expect(s.code).toBe(1);
    expect(JSON.parse(s.out).error.code).toBe('unknown_name');
  });

  it('exits 2 on usage errors', () => {
    expect(ringql(['query', '--bogus']).code).toBe(2);
    expect(ringql(['query']).code).toBe(2);
    expect(ringql(['query', '--sql', 'select 1', '--now', 'not-a-time']).code).toBe(2);
    expect(ringql(['query', '--sql', 'select 1', '--load', 'nosuch.source=/dev/null']).code).toBe(2);
    expect(ringql(['frobnicate']).code).toBe(2);
  });

  it('is reachable as `npx ringql`', () => {
    const out = execFileSync('npx', ['ringql', 'query', '--sql', 'select 1 + 1 as two'], { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) });
    expect(JSON.parse(out)).toEqual({ result: [{ two: 2 }] });
  });
});
