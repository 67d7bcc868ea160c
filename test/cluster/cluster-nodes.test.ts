// Cluster mode end to end (SPEC §13): three nats-server processes and two ringql nodes on loopback.
// A batch ingested on one node is queryable on both (one answers, the other forwards, same bytes); after
// kill -9 of a node, the survivor rebuilds its partitions from the streams and every event is there once.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsCluster, type NatsCluster } from '../../src/cluster/nats-servers.ts';
import { freePort, startMainProcess } from '../helpers/main-process.ts';

const PARTITIONS = 4;
const auth = { Authorization: 'Bearer tok' };
let nats: NatsCluster;
const nodes: ChildProcess[] = [];

beforeAll(async () => {
  nats = await startNatsCluster({ dir: mkdtempSync(join(tmpdir(), 'ringql-cluster-nats-')), partitions: PARTITIONS });
}, 90_000);

afterAll(async () => {
  for (const n of nodes) n.kill('SIGKILL');
  await nats?.stop();
});

async function startNode(id: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = await startMainProcess(port, {
    RINGQL_ACCESS_TOKENS: 'tok', RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), `ringql-cluster-${id}-`)),
    RINGQL_NATS_URL: nats.urls.join(','), RINGQL_PARTITIONS: String(PARTITIONS), RINGQL_NODE_ID: id,
  });
  nodes.push(child);
  return { port, child };
}

const COUNT = encodeURIComponent('select count(*) as n, count(distinct id) as d from edge_logs');
async function counts(port: number, project: string): Promise<{ status: number; body: string }> {
  const r = await fetch(`http://127.0.0.1:${port}/api/endpoints/query/logs.all?project=${project}&sql=${COUNT}`, { headers: auth });
  return { status: r.status, body: await r.text() };
}

/** Polls until every project answers `want` events (503 while a partition rebuilds), or the deadline. */
async function until(port: number, projects: string[], want: number, ms: number): Promise<Map<string, string>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = new Map<string, string>();
    for (const p of projects) {
      const r = await counts(port, p);
      if (r.status === 200) got.set(p, r.body);
      else expect(r.status).toBe(503);
    }
    if ([...got.values()].length === projects.length && [...got.values()].every((b) => b === `{"result":[{"n":${want},"d":${want}}]}`)) return got;
    if (Date.now() > deadline) throw new Error(`not all projects reached ${want} events: ${JSON.stringify([...got])}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('cluster mode', () => {
  it('ingest on any node, the same answer from every node, and a node killed loses nothing', async () => {
    const a = await startNode('node-a');
    const b = await startNode('node-b');
    const projects = Array.from({ length: 8 }, (_, i) => `proj${i}`);
    const now = Date.now();
    for (const [k, node] of [[0, a], [1, b]] as const) {
      const batch = projects.flatMap((project) => Array.from({ length: 25 }, (_, i) => ({
        id: `${project}-${k}-${i}`, project, event_message: `GET /x/${i}`, timestamp: new Date(now - 60_000 + i).toISOString(),
      })));
      const r = await fetch(`http://127.0.0.1:${node.port}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ batch }) });
      expect(r.status).toBe(200);
    }
    const fromA = await until(a.port, projects, 50, 20_000);
    const fromB = await until(b.port, projects, 50, 20_000);
    expect(fromB).toEqual(fromA);
    // Both nodes own some partitions: each answers some projects itself and forwards the others.
    // (Each node sees the other at its next heartbeat; until then the first one still holds everything.)
    const owned = async (port: number): Promise<number[]> => ((await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { cluster: { owned: number[] } }).cluster.owned;
    const t0 = Date.now();
    while ((await owned(a.port)).length === PARTITIONS && Date.now() - t0 < 15_000) await new Promise((r) => setTimeout(r, 250));
    const [ownedA, ownedB] = [await owned(a.port), await owned(b.port)];
    expect(ownedA.length).toBeGreaterThan(0);
    expect([...ownedA, ...ownedB].sort()).toEqual(Array.from({ length: PARTITIONS }, (_, i) => i));
    // After the hand-over, each project still answers the same from both nodes.
    expect(await until(a.port, projects, 50, 20_000)).toEqual(fromA);
    expect(await until(b.port, projects, 50, 20_000)).toEqual(fromA);

    b.child.kill('SIGKILL');
    // The survivor takes every partition over once b's membership expires, and rebuilds from the streams.
    await until(a.port, projects, 50, 30_000);
    const after = await (await fetch(`http://127.0.0.1:${a.port}/health`)).json() as { cluster: { owned: number[]; rebuilding: number[] } };
    expect(after.cluster.owned).toEqual(Array.from({ length: PARTITIONS }, (_, i) => i));
  }, 120_000);
});
