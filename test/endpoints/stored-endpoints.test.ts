// Stored endpoints at start (issue 13 items 4 and 14b): a real restart over one state directory never
// fails to start; an endpoint reading a field only events carried answers 400 unknown_name until
// events carry it again; unreadable files are skipped loudly; crash leftovers (*.tmp) are removed.

import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { bearer, startTestServer, TOKENS, type TestServer } from '../http/helpers.ts';

const auth = { ...bearer(TOKENS.priv), 'Content-Type': 'application/json' };
const dirs: string[] = [];
const running: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempStateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'ringql-stored-'));
  dirs.push(d);
  return d;
}

/** A service and HTTP server over `stateDir` with an empty store, as after a restart; start-up notes are kept. */
async function boot(stateDir: string): Promise<{ server: TestServer; notes: string[] }> {
  const notes: string[] = [];
  const service = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir, log: (l) => notes.push(l) });
  const server = await startTestServer(service);
  const r = { async close() { await server.close(); service.close(); } };
  running.push(r);
  return { server, notes };
}

async function stop(): Promise<void> {
  for (const r of running.splice(0)) await r.close();
}

const post = (url: string, path: string, body: unknown): Promise<Response> =>
  fetch(`${url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });

describe('a stored endpoint that reads a field only events carry', () => {
  it('survives a restart with an empty store: unknown_name until an event carries the field, then rows', async () => {
    const stateDir = tempStateDir();
    let { server } = await boot(stateDir);
    expect((await post(server.url, '/api/logs?source_name=edge.logs.prod', { batch: [{ project: 'p', zone: 'eu' }] })).status).toBe(200);
    const created = await post(server.url, '/api/endpoints', { name: 'zones', query: 'select zone from `edge.logs.prod`', cache_duration_seconds: 0 });
    expect(created.status).toBe(201);
    await stop();

    const again = await boot(stateDir);
    server = again.server;
    expect(again.notes.join('\n')).toMatch(/stored endpoint zones .* does not bind yet \(unknown_name/);
    const listed = (await (await fetch(`${server.url}/api/endpoints/zones`, { headers: auth })).json()) as { name: string };
    expect(listed.name).toBe('zones');
    const before = await fetch(`${server.url}/api/endpoints/query/zones`, { headers: auth });
    expect(before.status).toBe(400);
    expect(((await before.json()) as { error: { code: string } }).error.code).toBe('unknown_name');

    expect((await post(server.url, '/api/logs?source_name=edge.logs.prod', { batch: [{ project: 'p', zone: 'us' }] })).status).toBe(200);
    const after = await fetch(`${server.url}/api/endpoints/query/zones`, { headers: auth });
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ result: [{ zone: 'us' }] });
  });

  it('lets a sandboxed LQL request on such an endpoint find its CTE columns once the field is known', async () => {
    const stateDir = tempStateDir();
    let { server } = await boot(stateDir);
    await post(server.url, '/api/logs?source_name=edge.logs.prod', { batch: [{ project: 'p', zone: 'eu' }] });
    const created = await post(server.url, '/api/endpoints', {
      name: 'zones.cte', query: 'with z as (select timestamp, event_message, zone from `edge.logs.prod`) select zone from z', cache_duration_seconds: 0, sandboxable: true,
    });
    expect(created.status).toBe(201);
    await stop();

    ({ server } = await boot(stateDir));
    const sql = encodeURIComponent('select zone from z');
    const before = await fetch(`${server.url}/api/endpoints/query/zones.cte?sql=${sql}`, { headers: auth });
    expect(((await before.json()) as { error: { code: string } }).error.code).toBe('unknown_name');
    const lqlBefore = await fetch(`${server.url}/api/endpoints/query/zones.cte?lql=us`, { headers: auth });
    expect(lqlBefore.status).toBe(400);
    expect(((await lqlBefore.json()) as { error: { code: string } }).error.code).toBe('unknown_name');
    await post(server.url, '/api/logs?source_name=edge.logs.prod', { batch: [{ project: 'p', zone: 'us', event_message: 'to us' }] });
    const lql = await fetch(`${server.url}/api/endpoints/query/zones.cte?lql=${encodeURIComponent('f:z us')}`, { headers: auth });
    expect(lql.status).toBe(200);
    expect(((await lql.json()) as { result: { event_message: string }[] }).result.map((r) => r.event_message)).toEqual(['to us']);
  });

  it('still refuses to create such an endpoint while the field is unknown (create checks everything)', async () => {
    const { server } = await boot(tempStateDir());
    const r = await post(server.url, '/api/endpoints', { name: 'zones', query: 'select zone from `edge.logs.prod`' });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('unknown_name');
  });
});

describe('stored files that cannot be served', () => {
  it('skips a file that does not parse or does not read, and one whose name is taken, and says so', async () => {
    const stateDir = tempStateDir();
    const dir = join(stateDir, 'endpoints');
    mkdirSync(dir, { recursive: true });
    const file = (id: string, name: string, query: string): void =>
      writeFileSync(join(dir, `${id}.json`), JSON.stringify({ id, name, query, description: '', params: [], max_limit: 10, cache_duration_seconds: 0, proactive_requerying_seconds: 0, sandboxable: false, redact_pii: false }));
    file('00000000-0000-4000-8000-000000000001', 'good', 'select 1 as one');
    file('00000000-0000-4000-8000-000000000002', 'broken', 'select from where');
    file('00000000-0000-4000-8000-000000000003', 'logs.all', 'select 2 as two');
    writeFileSync(join(dir, '00000000-0000-4000-8000-000000000004.json'), '{"id": truncated');

    const { server, notes } = await boot(stateDir);
    const text = notes.join('\n');
    expect(text).toMatch(/ERROR: stored endpoint broken \(.*000000000002\.json:1:\d+\) does not parse/);
    expect(text).toMatch(/ERROR: stored endpoint logs\.all .* has a name another endpoint uses/);
    expect(text).toMatch(/ERROR: stored endpoint .*000000000004\.json cannot be read/);
    const good = await fetch(`${server.url}/api/endpoints/query/good`, { headers: auth });
    expect(await good.json()).toEqual({ result: [{ one: 1 }] });
    expect((await fetch(`${server.url}/api/endpoints/query/broken`, { headers: auth })).status).toBe(404);
    const names = ((await (await fetch(`${server.url}/api/endpoints`, { headers: auth })).json()) as { name: string }[]).map((e) => e.name).sort();
    expect(names).toEqual(['good', 'logs.all', 'usage.api-counts']);
  });
});

describe('temporary files a crash left', () => {
  it('are removed at start, with their count, and nothing else is', async () => {
    const stateDir = tempStateDir();
    let { server } = await boot(stateDir);
    expect((await post(server.url, '/api/endpoints', { name: 'kept', query: 'select 1 as one' })).status).toBe(201);
    await stop();
    const dir = join(stateDir, 'endpoints');
    const [json] = readdirSync(dir);
    writeFileSync(join(dir, `${json!}.123.tmp`), '{"half": ');
    writeFileSync(join(dir, `${json!}.456.tmp`), '');

    const again = await boot(stateDir);
    server = again.server;
    expect(again.notes.join('\n')).toMatch(/removed 2 leftover temporary endpoint file\(s\) \(\*\.tmp\)/);
    expect(readdirSync(dir)).toEqual([json]);
    expect((await fetch(`${server.url}/api/endpoints/query/kept`, { headers: auth })).status).toBe(200);
    await stop();

    const third = await boot(stateDir);
    expect(third.notes.join('\n')).not.toMatch(/temporary/);
  });
});
