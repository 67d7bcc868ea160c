// Saved endpoints in cluster mode (issue 20 item 4) with three nats-servers and two ringql nodes: a create on
// one node is listed and runs on the other within a second, an update made on either drops the owner's cached
// results, a delete disappears everywhere, a name created at once on both nodes is taken exactly once (201 +
// 409), built-ins stay fixed, and a node started later serves every endpoint from its first request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOf } from '../../src/cluster/partition.ts';
import { api, ClusterHarness, owned, until, type TestNode } from '../helpers/cluster-harness.ts';

const PARTITIONS = 4;
/** The bound for a change on one node to be seen on every node. */
const VISIBLE_MS = 1000;
let h: ClusterHarness;
let a: TestNode, b: TestNode;

beforeAll(async () => {
  h = await ClusterHarness.start(PARTITIONS);
  [a, b] = [await h.node('node-a', { RINGQL_MAX_EVENTS_PER_BATCH: '5' }), await h.node('node-b', { RINGQL_MAX_EVENTS_PER_BATCH: '5' })];
  // Each node owns some partitions once it has seen the other's heartbeat.
  await until('ownership split', 15_000, async () => {
    const [oa, ob] = [await owned(a.port), await owned(b.port)];
    return oa.length > 0 && ob.length > 0 && oa.length + ob.length === PARTITIONS;
  });
}, 90_000);

afterAll(async () => { await h?.stop(); });

const QUERY = 'select count(*) as n from `edge.logs.prod` where project = @project';
type Ep = { id: string; name: string; query: string };
const seen: number[] = [];

describe('endpoints across cluster nodes', () => {
  it('create, update and delete on one node are seen on the other within a second; the owner\'s cache follows updates', async () => {
    const ownedA = await owned(a.port);
    const project = Array.from({ length: 64 }, (_, i) => `proj${i}`).find((p) => ownedA.includes(partitionOf(p, PARTITIONS)))!;
    const batch = [1, 2, 3].map((i) => ({ id: `e${i}`, project, event_message: `m${i}`, timestamp: new Date(Date.now() - 60_000).toISOString() }));
    expect((await api(b.port, 'POST', '/api/logs?source_name=edge.logs.prod', { batch })).status).toBe(200);

    const created = await api(a.port, 'POST', '/api/endpoints', { name: 'Counts.by_project', query: QUERY });
    expect(created.status).toBe(201);
    const id = (created.json as Ep).id;
    seen.push(await until('create seen on b', VISIBLE_MS, async () => (await api(b.port, 'GET', '/api/endpoints/counts.by_project')).status === 200));
    expect((await api(b.port, 'GET', '/api/endpoints')).json).toContainEqual(created.json);
    await until('events stored', 10_000, async () => JSON.stringify((await api(b.port, 'GET', `/api/endpoints/query/${id}?project=${project}`)).json) === '{"result":[{"n":3}]}');

    // a owns the project: its second answer comes from its cache.
    expect((await api(a.port, 'GET', `/api/endpoints/query/Counts.by_project?project=${project}`)).headers.get('x-cache')).toBe('HIT');
    const updated = await api(b.port, 'PUT', `/api/endpoints/${id}`, { query: QUERY.replace('count(*)', 'count(*) + 100') });
    expect(updated.status).toBe(200);
    seen.push(await until('update seen on a', VISIBLE_MS, async () => ((await api(a.port, 'GET', `/api/endpoints/${id}`)).json as Ep).query.includes('+ 100')));
    const after = await api(a.port, 'GET', `/api/endpoints/query/${id}?project=${project}`);
    expect([after.json, after.headers.get('x-cache')]).toEqual([{ result: [{ n: 103 }] }, 'MISS']);

    expect((await api(a.port, 'DELETE', `/api/endpoints/${id}`)).status).toBe(204);
    seen.push(await until('delete seen on b', VISIBLE_MS, async () => (await api(b.port, 'GET', `/api/endpoints/${id}`)).status === 404));
    expect((await api(b.port, 'GET', `/api/endpoints/query/counts.by_project?project=${project}`)).status).toBe(404);
    // The name is free again, on either node.
    expect((await api(b.port, 'POST', '/api/endpoints', { name: 'counts.by_project', query: QUERY })).status).toBe(201);
    process.stderr.write(`cluster endpoints: changes seen on the other node after ${seen.map((ms) => ms.toFixed(0)).join(', ')} ms\n`);
  }, 30_000);

  it('one name created on both nodes at once: exactly one 201 and one 409, and both nodes serve the winner', async () => {
    for (let round = 0; round < 5; round++) {
      const name = `race-${round}`;
      const rs = await Promise.all([a, b].map((n) => api(n.port, 'POST', '/api/endpoints', { name, query: `select ${n.id === 'node-a' ? 1 : 2} as n` })));
      expect(rs.map((r) => r.status).sort()).toEqual([201, 409]);
      const winner = rs.find((r) => r.status === 201)!.json as Ep;
      expect((rs.find((r) => r.status === 409)!.json as { error: { code: string } }).error.code).toBe('name_taken');
      for (const n of [a, b]) {
        await until(`${name} on ${n.id}`, VISIBLE_MS, async () => ((await api(n.port, 'GET', `/api/endpoints/${name}`)).json as Ep).id === winner.id);
      }
    }
    // A rename onto a taken name is refused too.
    expect((await api(b.port, 'PUT', '/api/endpoints/race-0', { name: 'RACE-1' })).status).toBe(409);
    // Two nodes changing different fields of one endpoint at once: neither change is lost.
    const [d, m] = await Promise.all([api(a.port, 'PUT', '/api/endpoints/race-2', { description: 'from a' }), api(b.port, 'PUT', '/api/endpoints/race-2', { max_limit: 7 })]);
    expect([d.status, m.status]).toEqual([200, 200]);
    for (const n of [a, b]) {
      await until(`both changes on ${n.id}`, VISIBLE_MS, async () => {
        const e = (await api(n.port, 'GET', '/api/endpoints/race-2')).json as Ep & { description: string; max_limit: number };
        return e.description === 'from a' && e.max_limit === 7;
      });
    }
    // A rename moves the endpoint on every node and frees the old name.
    const moved = await api(a.port, 'PUT', '/api/endpoints/race-0', { name: 'race-renamed' });
    expect(moved.status).toBe(200);
    await until('rename seen on b', VISIBLE_MS, async () => ((await api(b.port, 'GET', '/api/endpoints/race-renamed')).json as Ep | null)?.id === (moved.json as Ep).id);
    expect((await api(b.port, 'GET', '/api/endpoints/race-0')).status).toBe(404);
    expect((await api(b.port, 'POST', '/api/endpoints', { name: 'race-0', query: 'select 3 as n' })).status).toBe(201);
  }, 30_000);

  it('built-ins stay fixed and a node started later serves every created endpoint from its first request', async () => {
    expect((await api(b.port, 'PUT', '/api/endpoints/logs.all', { description: 'x' })).status).toBe(409);
    expect((await api(a.port, 'DELETE', '/api/endpoints/usage.api-counts')).status).toBe(409);
    expect((await api(a.port, 'POST', '/api/endpoints', { name: 'logs.all', query: 'select 1 as n' })).status).toBe(409);
    const c = await h.node('node-c');
    const list = (n: TestNode) => api(n.port, 'GET', '/api/endpoints').then((r) => (r.json as Ep[]).map((e) => `${e.id} ${e.name} ${e.query}`).sort());
    expect(await list(c)).toEqual(await list(a));
    expect((await list(c)).length).toBe(2 + 1 + 5 + 1);
  }, 30_000);

  it('a batch over RINGQL_MAX_EVENTS_PER_BATCH is refused before it is published, as on a single node', async () => {
    const batch = Array.from({ length: 6 }, (_, i) => ({ project: 'limit-test', event_message: `m${i}` }));
    const r = await api(a.port, 'POST', '/api/logs?source_name=edge.logs.prod', { batch });
    expect([r.status, (r.json as { error: { code: string; limit: number } }).error]).toMatchObject([413, { code: 'payload_too_large', limit: 5 }]);
  });
});
