// Over a real server on loopback: a malformed JSONPath and a text PARSE_DATE cannot read are 400
// query_error; the same calls under SAFE. and with good arguments answer 200.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'ringql-fn-http-'));
let server: TestServer;
let closeService: () => void;

beforeAll(async () => {
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir });
  closeService = () => service.close();
  server = await startTestServer(service);
});
afterAll(async () => {
  await server.close();
  closeService();
  rmSync(stateDir, { recursive: true, force: true });
});

const query = (sql: string): Promise<Response> =>
  fetch(`${server.url}/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent(sql)}`, { headers: bearer(TOKENS.priv) });

describe('JSON and date-parsing errors over HTTP', () => {
  it('a malformed JSONPath is 400 query_error; SAFE. gives NULL', async () => {
    const bad = await query(`select json_value('{"a": 1}', 'a.b') as x`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'query_error', message: expect.stringContaining('Invalid JSONPath') });
    const ok = await query(`select json_value('{"a": 1}', '$.a') as x, safe.json_value('{"a": 1}', 'a.b') as y`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: unknown[] }).result).toEqual([{ x: '1', y: null }]);
  });

  it('a text that does not match the format is 400 query_error; SAFE. gives NULL', async () => {
    const bad = await query(`select parse_date('%Y-%m-%d', '25/12/2008') as d`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('query_error');
    const ok = await query(`select parse_date('%d/%m/%Y', '25/12/2008') as d, safe.parse_date('%Y-%m-%d', '25/12/2008') as e`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: unknown[] }).result).toEqual([{ d: '2008-12-25', e: null }]);
  });
});
