// The column-only load of `ringql query` (issue 16) against the full load over the same real files: many
// queries × both paths give the same stdout, stderr and exit code (timestamp forms, retention drops,
// `message`, bodies the addon declines, blank/CRLF lines, bad lines), and queries needing row bytes stay full.

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryCommand, type QueryOptions } from '../../src/cli/query-command.ts';
import { generateSourceEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { runTransform } from '../../src/store/byte-batch.ts';
import { DEFAULT_HOT_PATHS } from '../../src/store/hot-paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'ringql-colload-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW_US = Date.UTC(2025, 0, 15, 12) * 1000;
const NOW = new Date(NOW_US / 1000).toISOString();
const HOUR_US = 3_600_000_000;
/** SPEC §9 default retention: 192 hours. */
const RETENTION_US = 192 * HOUR_US;

interface Run { code: number; out: string; err: string; columns: boolean }

async function ringql(argv: string[], opts: QueryOptions): Promise<Run> {
  let out = '', err = '', columns = false;
  const code = await queryCommand(argv, { out: (s) => { out += s; }, err: (s) => { err += s; } }, { ...opts, onColumnLoad: () => { columns = true; } });
  return { code, out, err, columns };
}

/** Both loads of `file` for `sql`: the full one, and the column one in small chunks over two workers. */
async function both(file: string, sql: string): Promise<{ full: Run; cols: Run }> {
  const argv = ['--load', `edge.logs.prod=${file}`, '--now', NOW, '--sql', sql];
  const full = await ringql(argv, { columnLoad: false });
  const cols = await ringql(argv, { columnWorkers: 2, chunkBytes: 8 * 1024 });
  return { full, cols };
}

/** Hand-made events with known timestamps (µs): every timestamp form of SPEC §1, some past retention. */
function handLines(): { lines: string[]; kept: number; byProject: Map<string, number> } {
  const lines: string[] = [];
  let kept = 0;
  const byProject = new Map<string, number>();
  const add = (line: string, ts: number, project: string | null): void => {
    lines.push(line);
    if (ts < NOW_US - RETENTION_US) return;
    kept++;
    const k = project ?? 'null';
    byProject.set(k, (byProject.get(k) ?? 0) + 1);
  };
  for (let i = 0; i < 400; i++) {
    const ts = NOW_US - i * 37 * 60_000_000; // back ~10 days: the older part is past retention
    const p = ['alpha', 'beta', 'gamma'][i % 3]!;
    const iso = new Date(Math.floor(ts / 1000)).toISOString();
    const msTs = Math.floor(ts / 1000) * 1000;
    switch (i % 8) {
      case 0: add(JSON.stringify({ timestamp: ts, project: p, event_message: `m${i}` }), ts, p); break;
      case 1: add(JSON.stringify({ timestamp: iso, project: p, message: `m${i}` }), msTs, p); break;
      case 2: add(JSON.stringify({ timestamp: iso.replace('Z', '+00:00'), project: p, metadata: { a: [1, 2] } }), msTs, p); break;
      case 3: add(JSON.stringify({ timestamp: Math.floor(ts / 1000), project: p }), msTs, p); break; // 13 digits: ms
      case 4: add(JSON.stringify({ timestamp: Math.floor(ts / 1_000_000), project: p }) + '\r', Math.floor(ts / 1_000_000) * 1_000_000, p); break; // 10: s
      case 5: add(`{"timestamp":${ts}000,"project":"${p}","id":"x${i}"}`, ts, p); break; // 19 digits: ns
      case 6: add(`{"timestamp":${ts},"project":"${p}","project":"${p}","dup":1}`, ts, p); break; // duplicate key: declined by the addon
      default: add(`{"timestamp":${ts},"metadata":{"s":"\u00ff\\u0001"}}`, ts, null); // no project
    }
    if (i % 50 === 49) lines.push('   ');
  }
  return { lines, kept, byProject };
}

const hand = handLines();
const handFile = join(dir, 'hand.ndjson');
writeFileSync(handFile, hand.lines.join('\n') + '\n');

const genFile = join(dir, 'gen.ndjson');
writeFileSync(genFile, generateSourceEvents('edge.logs.prod', 5000, { projects: 6, days: 10, seed: 11, endUs: NOW_US })
  .map((e) => serializeEvent('edge.logs.prod', e)).join('\n'));

const QUERIES = [
  'select project, count(*) as n from `edge.logs.prod` group by project order by n desc, project limit 20',
  'select count(*) as n from `edge.logs.prod`',
  'select min(timestamp) as a, max(timestamp) as b from `edge.logs.prod` where project = \'alpha\'',
  'select timestamp_trunc(timestamp, hour) as h, count(*) as n from `edge.logs.prod` group by h order by h',
  'select project, countif(timestamp > timestamp_sub(current_timestamp(), interval 2 day)) as recent from `edge.logs.prod` group by project order by project',
  'select count(*) as n from `edge.logs.prod` where project is null',
  'select count(distinct project) as n from (select project from `edge.logs.prod` where timestamp >= \'2025-01-10T00:00:00Z\')',
];

/** Escapes, non-ASCII, DEL, U+2028, numbers JSON.stringify rewrites: strings the addon's noRows only counts or still escapes. */
const WEIRD = [
  JSON.stringify({ timestamp: 1, project: 'p"q', event_message: 'a\nb\u0001\u007f\u2028é😀', metadata: { 'k\\ey': 'v/', n: [1e21, 1.5, 100e-2, { x: 'é' }] } }),
  String.raw`{"timestamp":2,"project":"\u0070","id":"\u0041bc","message":"\/\/x","metadata":{"\u006b":"\ud83d\ude00","z":1E2,"w":-0}}`,
  '{"timestamp":3,"event_message":"raw \u007f","metadata":{"deep":{"a":{"b":[[1,2],[{"c":null}]]}}}}',
];

describe('the addon\'s noRows transform', { timeout: 30_000 }, () => {
  it('gives the full transform\'s numbers, strings and shapes, and the exact bytes its rows would take', async () => {
    const { readFileSync } = await import('node:fs');
    const bodies = [Buffer.from(WEIRD.join('\n')), readFileSync(handFile), readFileSync(genFile)];
    for (const body of bodies) {
      const req = { body, ndjson: true, maxEventDepth: 32, maxStringBytes: 1 << 20, fillUs: NOW_US, projectPath: ['project'], hotPaths: DEFAULT_HOT_PATHS['edge.logs.prod']!, idSeed: Buffer.alloc(16, 1) };
      const full = runTransform(req), cols = runTransform({ ...req, noRows: true });
      if (typeof full === 'string' || typeof cols === 'string') { expect(cols).toEqual(full); continue; }
      expect(cols.noRowsBytes).toBe(full.rows.length);
      expect(cols.rows.length).toBe(0);
      const stride = cols.meta.length / cols.n;
      let differ = 0; // meta entries other than the row offsets (1..3 of each event's stride)
      for (let k = 0; k < full.meta.length; k++) if ((k % stride < 1 || k % stride > 3) && !Object.is(full.meta[k], cols.meta[k])) differ++;
      expect(differ).toBe(0);
      expect(cols.meta.length).toBe(full.meta.length);
      expect(cols.strs.equals(full.strs) && cols.descs.equals(full.descs)).toBe(true);
      expect(Buffer.from(cols.strEnds.buffer).equals(Buffer.from(full.strEnds.buffer)) && Buffer.from(cols.descEnds.buffer).equals(Buffer.from(full.descEnds.buffer))).toBe(true);
    }
  });
});

describe('ringql query: column-only load against the full load', { timeout: 60_000 }, () => {
  it('counts what SPEC §1 keeps: every timestamp form, retention relative to --now', async () => {
    const { full, cols } = await both(handFile, 'select project, count(*) as n from `edge.logs.prod` group by project order by project');
    expect(cols.columns).toBe(true);
    const rows = (JSON.parse(cols.out) as { result: { project: string | null; n: number }[] }).result;
    expect(new Map(rows.map((r) => [r.project ?? 'null', r.n]))).toEqual(hand.byProject);
    expect(rows.reduce((s, r) => s + r.n, 0)).toBe(hand.kept);
    expect(cols).toEqual({ ...full, columns: true });
    expect(cols.err).toContain(`loaded 400 events from ${handFile} into edge.logs.prod (${400 - hand.kept} older than retention dropped)`);
  });

  for (const [name, file, queries] of [['hand-made', handFile, QUERIES.slice(0, 5)], ['generated', genFile, QUERIES.slice(4)]] as const) {
    it(`gives the full load's answers for ${queries.length} queries over the ${name} file`, async () => {
      for (const sql of queries) {
        const { full, cols } = await both(file, sql);
        expect(cols.columns, sql).toBe(true);
        expect(full.code, sql).toBe(0);
        expect({ ...cols, columns: false }, sql).toEqual(full);
      }
    });
  }

  it('stops at the same bad line with the same message and code', async () => {
    const bad = join(dir, 'bad.ndjson');
    const lines = hand.lines.slice(0, 300);
    lines[211] = '{"timestamp": 1, "project": "a"'; // not JSON
    writeFileSync(bad, lines.join('\n'));
    const a = await both(bad, QUERIES[1]!);
    expect(a.full.code).toBe(1);
    expect(a.full.err).toContain(`${bad}:212:`);
    expect({ ...a.cols, columns: false }).toEqual(a.full);
    lines[211] = '{"timestamp": "yesterday-ish", "project": "a"}'; // an invalid event
    writeFileSync(bad, lines.join('\n'));
    const b = await both(bad, QUERIES[1]!);
    expect(b.full.code).toBe(1);
    expect(b.full.err).toMatch(new RegExp(`${bad}:212: invalid event`));
    expect({ ...b.cols, columns: false }).toEqual(b.full);
  });

  it('loads again in full when the full load would have evicted by its byte bound', async () => {
    process.env.RINGQL_MAX_BYTES_PER_SOURCE = '200000'; // the generated file's rows take several MB
    try {
      const { full, cols } = await both(genFile, QUERIES[0]!);
      expect(cols.columns).toBe(false);
      expect(cols.err).toContain('loading it again');
      expect(cols.out).toBe(full.out);
      expect(cols.code).toBe(full.code);
    } finally {
      delete process.env.RINGQL_MAX_BYTES_PER_SOURCE;
    }
  });

  it('keeps queries that read row bytes on the full load', async () => {
    for (const sql of [
      'select id from `edge.logs.prod` limit 3',
      'select * from `edge.logs.prod` limit 1',
      'select count(*) as n from `edge.logs.prod` t cross join unnest(t.metadata) m',
    ]) {
      const cols = await ringql(['--load', `edge.logs.prod=${handFile}`, '--now', NOW, '--sql', sql], {});
      expect(cols.columns, sql).toBe(false);
      expect(cols.code, sql).toBe(0);
    }
  });

  it('stops its workers after the load without holding the answer for their exit (no thread is left)', async () => {
    const threads = (): number => readdirSync('/proc/self/task').length;
    const before = threads();
    const cols = await ringql(['--load', `edge.logs.prod=${handFile}`, '--now', NOW, '--sql', 'select count(*) as n from `edge.logs.prod`'], { columnWorkers: 2, chunkBytes: 8 * 1024 });
    expect(cols.columns).toBe(true);
    expect(cols.code).toBe(0);
    // The workers' threads end once their teardown is done (it runs while the query goes on).
    for (let i = 0; i < 100 && threads() > before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(threads()).toBeLessThanOrEqual(before);
  });
});
