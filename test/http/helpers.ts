// Helpers for the HTTP tests: a recording fake QueryService, a real server on 127.0.0.1 port 0, and
// raw node:http requests for what fetch cannot do (gzip bodies as-is, aborts, oversized bodies).

import http from 'node:http';
import { RingqlError } from '../../src/core/errors.ts';
import type { EndpointInfo, QueryService, RunRequest, RunResponse } from '../../src/endpoints/service-types.ts';
import { tokenSet, type TokenSet } from '../../src/http/auth.ts';
import { startServer, type RunningServer, type ServerOptions } from '../../src/http/server.ts';

export const TOKENS = { priv: 'tok-private', query: 'tok-query', ingest: 'tok-ingest', both: 'tok-both' } as const;

export function testTokens(): TokenSet {
  return tokenSet([
    { token: TOKENS.priv },
    { token: TOKENS.query, scopes: ['query'] },
    { token: TOKENS.ingest, scopes: ['ingest'] },
    { token: TOKENS.both, scopes: ['ingest', 'query'] },
  ]);
}

export interface FakeService extends QueryService {
  runs: RunRequest[];
  ingests: { source: string; events: unknown[] }[];
  runResponse: RunResponse;
  /** When set, run() waits for this before answering. */
  runGate: Promise<void> | null;
}

export const FAKE_ENDPOINT: EndpointInfo = {
  id: '11111111-2222-4333-8444-555555555555', token: '11111111-2222-4333-8444-555555555555', name: 'fake.one', description: '',
  query: 'select 1', max_limit: 1000, cache_duration_seconds: 0, proactive_requerying_seconds: 0, sandboxable: false,
  redact_pii: false, params: [], builtin: false,
};

export function fakeService(): FakeService {
  const svc: FakeService = {
    runs: [],
    ingests: [],
    runGate: null,
    runResponse: { body: Buffer.from('{"result":[{"a":1}]}'), rowCount: 1, truncated: false, cache: 'MISS', ageSeconds: 0, timings: [{ name: 'plan', ms: 0.12 }, { name: 'exec', ms: 1.5 }] },
    async run(req) {
      svc.runs.push(req);
      if (req.endpoint === 'missing') throw new RingqlError('endpoint_not_found', 'No endpoint missing');
      if (req.endpoint === 'boom') throw new Error('secret internal detail');
      if (req.endpoint === 'slow') throw new RingqlError('query_timeout', 'too slow', { retry_after: 2 });
      if (svc.runGate) await svc.runGate;
      return svc.runResponse;
    },
    endpointRedacts: (idOrName) => idOrName === 'redacting',
    subscribe() {
      throw new RingqlError('endpoint_not_found', 'The fake service has no live feeds');
    },
    onIngest: () => () => {},
    ingest(source, events) {
      if (source !== 'edge.logs.prod' && source !== 'a5a1e2b4-0000-5000-8000-000000000001') throw new RingqlError('source_not_found', `No source ${source}`);
      svc.ingests.push({ source, events });
      const dropped = events.filter((e) => (e as { old?: boolean } | null)?.old === true).length;
      return { stored: events.length - dropped, dropped };
    },
    listEndpoints: () => [FAKE_ENDPOINT],
    getEndpoint(idOrName) {
      if (idOrName !== FAKE_ENDPOINT.name && idOrName !== FAKE_ENDPOINT.id) throw new RingqlError('endpoint_not_found', `No endpoint ${idOrName}`);
      return FAKE_ENDPOINT;
    },
    async createEndpoint(input) {
      return { ...FAKE_ENDPOINT, name: String(input.name) };
    },
    async updateEndpoint(idOrName, input) {
      return { ...svc.getEndpoint(idOrName), ...(input.description !== undefined ? { description: String(input.description) } : {}) };
    },
    async deleteEndpoint(idOrName) {
      svc.getEndpoint(idOrName);
    },
    sources: () => [{ id: 'a5a1e2b4-0000-5000-8000-000000000001', name: 'edge.logs.prod', rows: 0, min_timestamp: null, max_timestamp: null, evicted: 0 }],
    schema(name) {
      if (name !== 'edge.logs.prod') throw new RingqlError('source_not_found', `No source ${name}`);
      return [{ path: ['id'], type: 'STRING', mode: 'NULLABLE' }];
    },
    health: () => ({ rows: { 'edge.logs.prod': 0 } }),
  };
  return svc;
}

export interface TestServer extends RunningServer {
  url: string;
  logs: string[];
}

export async function startTestServer(service: QueryService, overrides: Partial<ServerOptions> = {}): Promise<TestServer> {
  const logs: string[] = [];
  const s = await startServer({
    service, host: '127.0.0.1', port: 0, tokens: testTokens(), corsOrigin: '*',
    maxBodyBytes: 64 * 1024, maxUrlBytes: 4096, maxDecompressedBytes: 256 * 1024,
    log: (line) => logs.push(line),
    ...overrides,
  });
  return { ...s, url: `http://127.0.0.1:${s.port}`, logs };
}

export const bearer = (t: string): Record<string, string> => ({ Authorization: `Bearer ${t}` });

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request over node:http; `body` is written as given. Write errors after the response arrived
 * (the server answered early and closed) are ignored, as a real client would.
 */
export function rawRequest(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string | number | string[]>; body?: Buffer | string | Buffer[] },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const body = opts.body;
    if (Array.isArray(body)) for (const b of body) req.write(b);
    else if (body !== undefined) req.write(body);
    req.end();
  });
}
