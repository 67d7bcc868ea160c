// SPEC §3 "Output formats": the same run as JSON, NDJSON and CSV (chosen by Accept or by the
// `format` query parameter) gives the same rows; errors stay JSON; 406; the cache keeps formats apart.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, rawRequest, startTestServer, TOKENS, type RawResponse, type TestServer } from './helpers.ts';

let server: TestServer;
let service: Awaited<ReturnType<typeof createQueryService>>;

const MIXED = "with src as (select id, event_message, metadata, timestamp from `edge.logs.prod`) select id, event_message, metadata, cast(null as string) as nothing, 2.5 as f, 7 as n, true as b, struct(1 as a, 'x,y' as s) as rec, [1, 2] as arr, timestamp from src order by id";

beforeAll(async () => {
  service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null });
  const ts = new Date(Date.now() - 5000).toISOString();
  service.ingest('edge.logs.prod', [
    { id: 'a', timestamp: ts, event_message: 'plain text', metadata: { k: 'v' } },
    { id: 'b', timestamp: ts, event_message: 'comma, "quoted"\nand a newline\r\nand CRLF', metadata: { n: 1 } },
    { id: 'c', timestamp: ts, event_message: 'ünïcode ✓ from 10.1.2.3', metadata: {} },
  ]);
  await service.createEndpoint({ name: 'fmt.mixed', query: MIXED, cache_duration_seconds: 0, sandboxable: true });
  await service.createEndpoint({ name: 'fmt.stored', query: 'select id, timestamp, event_message, metadata from `edge.logs.prod` order by id', cache_duration_seconds: 60 });
  await service.createEndpoint({ name: 'fmt.cached', query: 'select id, timestamp, event_message, metadata from `edge.logs.prod` order by id', cache_duration_seconds: 60 });
  await service.createEndpoint({ name: 'fmt.own', query: 'select @format as format_value, count(*) as n from `edge.logs.prod`', cache_duration_seconds: 0 });
  await service.createEndpoint({ name: 'fmt.required', query: 'select @who as who', params: [{ name: 'who', required: true }] });
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  service.close();
});

function get(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(server.port, { path, headers: { ...bearer(TOKENS.priv), ...headers } });
}

type Row = Record<string, unknown>;

function jsonRows(r: RawResponse): Row[] {
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  return (JSON.parse(r.body) as { result: Row[] }).result;
}

function ndjsonRows(r: RawResponse): Row[] {
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/x-ndjson/);
  if (r.body === '') return [];
  expect(r.body.endsWith('\n')).toBe(true);
  return r.body.slice(0, -1).split('\n').map((l) => JSON.parse(l) as Row);
}

/** An RFC 4180 reader written for the test: records of fields, CRLF or LF line ends, "" inside quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '', rec: string[] = [], i = 0, quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c; i++; continue;
    }
    if (c === '"' && field === '') { quoted = true; i++; continue; }
    if (c === ',') { rec.push(field); field = ''; i++; continue; }
    if (c === '\r' && text[i + 1] === '\n') { rec.push(field); records.push(rec); rec = []; field = ''; i += 2; continue; }
    if (c === '\n') { rec.push(field); records.push(rec); rec = []; field = ''; i++; continue; }
    field += c; i++;
  }
  if (field !== '' || rec.length) { rec.push(field); records.push(rec); }
  return records;
}

/** What CSV must hold for a JSON row value: NULL empty, strings as they are, everything else as JSON text. */
function csvText(v: unknown): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

describe('the same rows in every format', () => {
  for (const ep of ['fmt.mixed', 'fmt.stored']) {
    it(`${ep}: NDJSON and CSV hold exactly the JSON rows`, async () => {
      const rows = jsonRows(await get(`/api/endpoints/query/${ep}`));
      expect(rows.length).toBe(3);
      expect(ndjsonRows(await get(`/api/endpoints/query/${ep}`, { Accept: 'application/x-ndjson' }))).toEqual(rows);
      const csv = await get(`/api/endpoints/query/${ep}`, { Accept: 'text/csv' });
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const [header, ...records] = parseCsv(csv.body);
      const names = Object.keys(rows[0]!);
      expect(header).toEqual(names);
      expect(records).toEqual(rows.map((r) => names.map((n) => csvText(r[n]))));
    });
  }

  it('NDJSON lines follow the SELECT order of keys; the row count header is the same', async () => {
    const nd = await get('/api/endpoints/query/fmt.mixed?format=ndjson');
    const first = nd.body.split('\n')[0]!;
    expect(Object.keys(JSON.parse(first) as Row)).toEqual(['id', 'event_message', 'metadata', 'nothing', 'f', 'n', 'b', 'rec', 'arr', 'timestamp']);
    expect(nd.headers['x-row-count']).toBe('3');
  });

  it('CSV quoting by RFC 4180, reasoned by hand', async () => {
    const r = await get(`/api/endpoints/query/fmt.mixed?format=csv&sql=${encodeURIComponent("select 'a,b' as x, 'say \"hi\"' as y, cast(null as int64) as z, 1 as n, 'line\\nbreak' as w, '' as e from src where id = 'a'")}`);
    expect(r.status).toBe(200);
    expect(r.body).toBe('x,y,z,n,w,e\r\n"a,b","say ""hi""",,1,"line\nbreak",\r\n');
  });

  it('an empty result: CSV is only the header, NDJSON is empty, JSON the empty array', async () => {
    const sql = encodeURIComponent("select id, event_message from src where id = 'none'");
    expect((await get(`/api/endpoints/query/fmt.mixed?format=csv&sql=${sql}`)).body).toBe('id,event_message\r\n');
    expect((await get(`/api/endpoints/query/fmt.mixed?format=ndjson&sql=${sql}`)).body).toBe('');
    expect((await get(`/api/endpoints/query/fmt.mixed?sql=${sql}`)).body).toBe('{"result":[]}');
  });

  it('JSON stays byte-identical whether asked by Accept, */*, ?format=json or nothing', async () => {
    const plain = await get('/api/endpoints/query/fmt.mixed');
    for (const [q, h] of [['', { Accept: 'application/json' }], ['', { Accept: '*/*' }], ['?format=json', {}], ['', { Accept: 'text/html, */*;q=0.1' }]] as const) {
      const r = await get(`/api/endpoints/query/fmt.mixed${q}`, h);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.body).toBe(plain.body);
    }
    expect(plain.body.startsWith('{"result":[{"id":"a","event_message":"plain text",')).toBe(true);
  });
});

describe('choosing the format', () => {
  it('q-values: the highest acceptable q wins; q=0 excludes', async () => {
    expect((await get('/api/endpoints/query/fmt.mixed', { Accept: 'text/csv;q=0.4, application/x-ndjson;q=0.9' })).headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect((await get('/api/endpoints/query/fmt.mixed', { Accept: 'application/json;q=0, text/*' })).headers['content-type']).toMatch(/^text\/csv/);
    expect((await get('/api/endpoints/query/fmt.mixed', { Accept: 'text/csv, */*' })).headers['content-type']).toMatch(/^text\/csv/);
  });

  it('an Accept that excludes all three is 406 not_acceptable, as a JSON error', async () => {
    for (const accept of ['text/html', 'application/xml, image/*', '*/*;q=0']) {
      const r = await get('/api/endpoints/query/fmt.mixed', { Accept: accept });
      expect(r.status).toBe(406);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect((JSON.parse(r.body) as { error: { code: string } }).error.code).toBe('not_acceptable');
    }
  });

  it('?format= wins over Accept (links and curl), and a bad value is 400 naming the allowed ones', async () => {
    const r = await get('/api/endpoints/query/fmt.mixed?format=csv', { Accept: 'text/html' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/csv/);
    const bad = await get('/api/endpoints/query/fmt.mixed?format=xml');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'invalid_parameter', param: 'format', allowed: ['json', 'ndjson', 'csv'] } });
  });

  it('an endpoint that uses @format keeps it as its own parameter', async () => {
    const r = await get('/api/endpoints/query/fmt.own?format=csv');
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(r.body)).toEqual({ result: [{ format_value: 'csv', n: 3 }] });
    const viaAccept = await get('/api/endpoints/query/fmt.own?format=xml', { Accept: 'text/csv' });
    expect(viaAccept.body).toBe('format_value,n\r\nxml,3\r\n');
  });

  it('errors come as the JSON error body with their status whatever the format', async () => {
    for (const h of [{ Accept: 'text/csv' }, { Accept: 'application/x-ndjson' }]) {
      const r = await get('/api/endpoints/query/fmt.required', h);
      expect(r.status).toBe(400);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'missing_parameter', param: 'who' } });
    }
    const syntax = await get(`/api/endpoints/query/fmt.mixed?format=ndjson&sql=${encodeURIComponent('select from')}`);
    expect(syntax.status).toBe(400);
    expect((JSON.parse(syntax.body) as { error: { code: string } }).error.code).toBe('syntax_error');
  });
});

describe('the result cache keeps formats apart', () => {
  it('a cached JSON answer is not served to a CSV or NDJSON request, and each format is cached on its own', async () => {
    const j1 = await get('/api/endpoints/query/fmt.cached');
    const c1 = await get('/api/endpoints/query/fmt.cached', { Accept: 'text/csv' });
    expect(c1.headers['x-cache']).toBe('MISS');
    expect(c1.body.startsWith('id,timestamp,event_message,metadata\r\n')).toBe(true);
    const c2 = await get('/api/endpoints/query/fmt.cached?format=csv');
    expect(c2.headers['x-cache']).toBe('HIT');
    expect(c2.body).toBe(c1.body);
    const n1 = await get('/api/endpoints/query/fmt.cached', { Accept: 'application/x-ndjson' });
    expect(n1.headers['x-cache']).toBe('MISS');
    const j2 = await get('/api/endpoints/query/fmt.cached');
    expect(j2.headers['x-cache']).toBe('HIT');
    expect(j2.body).toBe(j1.body);
  });
});

describe('redaction reaches every format', () => {
  it('LF-ENDPOINT-REDACT-PII: true hides the address in CSV and NDJSON too', async () => {
    for (const accept of ['text/csv', 'application/x-ndjson']) {
      const r = await get('/api/endpoints/query/fmt.mixed', { Accept: accept, 'LF-ENDPOINT-REDACT-PII': 'true' });
      expect(r.status).toBe(200);
      expect(r.body).not.toContain('10.1.2.3');
      expect(r.body).toContain('REDACTED');
    }
  });
});
