// Authentication (SPEC §3): token list parsing, the order tokens are read in, and 401/403 per route scope.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize, parseAccessTokens, presentedToken, sameToken } from '../../src/http/auth.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { bearer, fakeService, startTestServer, TOKENS, type TestServer } from './helpers.ts';

describe('RINGQL_ACCESS_TOKENS', () => {
  it('parses tokens with and without scopes; no scope means private', () => {
    const set = parseAccessTokens(' a , b:query , c:ingest+query ');
    expect(set.generated).toBeNull();
    expect(() => authorize(set, 'a', 'private')).not.toThrow();
    expect(() => authorize(set, 'b', 'query')).not.toThrow();
    expect(() => authorize(set, 'b', 'ingest')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => authorize(set, 'c', 'ingest')).not.toThrow();
    expect(() => authorize(set, 'c', 'private')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => authorize(set, 'zzz', 'query')).toThrow(expect.objectContaining({ code: 'unauthorized' }));
  });

  it('rejects an invalid scope at startup, naming the variable but not the token', () => {
    let msg = '';
    try {
      parseAccessTokens('s3cret:query+admin');
    } catch (err) {
      msg = (err as Error).message;
    }
    expect(msg).toMatch(/RINGQL_ACCESS_TOKENS.*invalid scope "admin"/);
    expect(msg).not.toContain('s3cret');
    expect(() => parseAccessTokens(':query')).toThrow(/empty token/);
  });

  it('generates one url-safe private token when unset', () => {
    const a = parseAccessTokens(undefined);
    const b = parseAccessTokens(undefined);
    expect(a.generated).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(a.generated).not.toBe(b.generated);
    expect(() => authorize(a, a.generated, 'private')).not.toThrow();
  });

  it('reads Bearer, then X-API-KEY, then api_key: the first present wins', () => {
    const q = new Map([['api_key', 'fromQuery']]);
    expect(presentedToken('Bearer fromBearer', 'fromHeader', q)).toBe('fromBearer');
    expect(presentedToken('bearer  fromBearer ', '', q)).toBe('fromBearer');
    expect(presentedToken('Basic abc', 'fromHeader', q)).toBe('fromHeader');
    expect(presentedToken('', '', q)).toBe('fromQuery');
    expect(presentedToken('', '', new Map())).toBeNull();
    expect(() => authorize(parseAccessTokens('x'), null, 'any')).toThrow(RingqlError);
  });
});

describe('sameToken', () => {
  it('is true for the same text only: not a prefix, an extension, a case change or a repetition', () => {
    expect(sameToken('s3cret-token', 's3cret-token')).toBe(true);
    expect(sameToken('s3cret', 's3cret-token')).toBe(false);
    expect(sameToken('s3cret-token-x', 's3cret-token')).toBe(false);
    expect(sameToken('S3cret-token', 's3cret-token')).toBe(false);
    // Compared cyclically over the presented length, so a repeated token must still not match.
    expect(sameToken('abab', 'ab')).toBe(false);
    expect(sameToken('', 'ab')).toBe(false);
    expect(sameToken('jeton-\u00e9t\u00e9', 'jeton-\u00e9t\u00e9')).toBe(true);
    expect(sameToken('jeton-\u00e9te', 'jeton-\u00e9t\u00e9')).toBe(false);
  });
});

describe('over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(fakeService());
  });
  afterAll(() => server.close());

  const status = async (path: string, init: RequestInit = {}): Promise<number> => (await fetch(`${server.url}${path}`, init)).status;
  const run = '/api/endpoints/query/fake.one';

  it('accepts each token source', async () => {
    expect(await status(run, { headers: bearer(TOKENS.query) })).toBe(200);
    expect(await status(run, { headers: { 'X-API-KEY': TOKENS.query } })).toBe(200);
    expect(await status(`${run}?api_key=${TOKENS.query}`)).toBe(200);
  });

  it('uses the first present source even when a later one is valid', async () => {
    expect(await status(run, { headers: { ...bearer('wrong'), 'X-API-KEY': TOKENS.query } })).toBe(401);
    expect(await status(`${run}?api_key=${TOKENS.query}`, { headers: { 'X-API-KEY': 'wrong' } })).toBe(401);
  });

  it('401 without or with an unknown token, with the error body and WWW-Authenticate', async () => {
    const r = await fetch(`${server.url}${run}`);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toBe('Bearer');
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('unauthorized');
    expect(body.error.message).toMatch(/Bearer/);
    expect(await status(run, { headers: bearer('nope') })).toBe(401);
  });

  it('401 comes before 404: an unknown endpoint is not revealed without a token', async () => {
    expect(await status('/api/endpoints/query/missing')).toBe(401);
    expect(await status('/api/endpoints/query/missing', { headers: bearer(TOKENS.query) })).toBe(404);
  });

  it('checks the scope of every route (403 when missing)', async () => {
    const cases: [string, RequestInit, Record<string, number>][] = [
      [run, {}, { priv: 200, query: 200, ingest: 403, both: 200 }],
      ['/api/sources', {}, { priv: 200, query: 200, ingest: 200, both: 200 }],
      ['/api/sources/edge.logs.prod/schema', {}, { priv: 200, query: 200, ingest: 403, both: 200 }],
      ['/api/logs?source_name=edge.logs.prod', { method: 'POST', body: '{}' }, { priv: 200, query: 403, ingest: 200, both: 200 }],
      ['/api/endpoints', {}, { priv: 200, query: 403, ingest: 403, both: 403 }],
      ['/api/endpoints/fake.one', { method: 'DELETE' }, { priv: 204, query: 403, ingest: 403, both: 403 }],
    ];
    for (const [path, init, expected] of cases) {
      for (const [who, want] of Object.entries(expected)) {
        const got = await status(path, { ...init, headers: bearer(TOKENS[who as keyof typeof TOKENS]) });
        expect(`${who} ${init.method ?? 'GET'} ${path} → ${got}`).toBe(`${who} ${init.method ?? 'GET'} ${path} → ${want}`);
      }
    }
    const r = await fetch(`${server.url}/api/endpoints`, { headers: bearer(TOKENS.query) });
    expect(((await r.json()) as { error: { code: string; allowed: string[] } }).error).toMatchObject({ code: 'forbidden', allowed: ['private'] });
    const s = await fetch(`${server.url}/api/sources/edge.logs.prod/schema`, { headers: bearer(TOKENS.ingest) });
    expect(((await s.json()) as { error: { allowed: string[] } }).error.allowed).toEqual(['query', 'private']);
  });

  it('never logs tokens', () => {
    expect(server.logs.join('\n')).not.toMatch(/tok-/);
  });
});
