// /api/sources and /health across cluster nodes (issue 20 item 3), three nats-servers and two ringql nodes: the
// figures are the sum over partition owners (each partition once), the same from either node; a node that
// stops answering (SIGSTOP, still a member until its lease expires) is named, its partitions listed missing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionOf } from '../../src/cluster/partition.ts';
import { api, ClusterHarness, owned, until, type TestNode } from '../helpers/cluster-harness.ts';

const PARTITIONS = 4;
let h: ClusterHarness;
let a: TestNode, b: TestNode;

beforeAll(async () => {
  h = await ClusterHarness.start(PARTITIONS);
  [a, b] = [await h.node('node-a'), await h.node('node-b')];
  await until('ownership split', 15_000, async () => {
    const [oa, ob] = [await owned(a.port), await owned(b.port)];
    return oa.length > 0 && ob.length > 0 && oa.length + ob.length === PARTITIONS;
  });
}, 90_000);

afterAll(async () => { await h?.stop(); });

type Src = { name: string; rows: number; min_timestamp: number | null; max_timestamp: number | null; evicted: number; partitions_missing: number[]; nodes_unanswered: string[] };
type Health = { rows: Record<string, number>; cluster: { nodes_unanswered: string[]; partitions_missing: number[]; nodes: { id: string; answered: boolean; rows?: Record<string, number> }[] } };
const edge = async (n: TestNode): Promise<Src> => ((await api(n.port, 'GET', '/api/sources')).json as Src[]).find((s) => s.name === 'edge.logs.prod')!;

describe('sources and health across nodes', () => {
  it('add up over the partition owners, and name a node that does not answer', async () => {
    // Project i holds i + 1 events, at known times; half the batch goes through each node.
    const projects = Array.from({ length: 8 }, (_, i) => `proj${i}`);
    const t0 = Math.floor(Date.now() / 1000) * 1_000_000 - 3_600_000_000;
    const events = projects.flatMap((project, i) => Array.from({ length: i + 1 }, (_, k) => ({ id: `${project}-${k}`, project, event_message: 'x', timestamp: t0 + i * 1000 + k })));
    for (const [n, part] of [[a, events.filter((_, j) => j % 2 === 0)], [b, events.filter((_, j) => j % 2 === 1)]] as const) {
      expect((await api(n.port, 'POST', '/api/logs?source_name=edge.logs.prod', { batch: part })).status).toBe(200);
    }
    const total = events.length; // 36
    const rowsIn = (ps: number[]): number => events.filter((e) => ps.includes(partitionOf(e.project, PARTITIONS))).length;
    await until('every event counted', 15_000, async () => (await edge(a)).rows === total);

    const whole = await edge(a);
    expect(whole).toMatchObject({ rows: total, min_timestamp: t0, max_timestamp: t0 + 7 * 1000 + 7, evicted: 0, partitions_missing: [], nodes_unanswered: [] });
    expect((await api(b.port, 'GET', '/api/sources')).json).toEqual((await api(a.port, 'GET', '/api/sources')).json);
    const [ownedA, ownedB] = [await owned(a.port), await owned(b.port)];
    const health = (await api(b.port, 'GET', '/health')).json as Health;
    expect(health.rows['edge.logs.prod']).toBe(total);
    expect(health.cluster.nodes.map((n) => [n.id, n.answered, n.rows?.['edge.logs.prod']]).sort()).toEqual([
      ['node-a', true, rowsIn(ownedA)], ['node-b', true, rowsIn(ownedB)],
    ]);

    b.child.kill('SIGSTOP');
    try {
      const partial = await edge(a);
      expect(partial).toMatchObject({ rows: rowsIn(ownedA), nodes_unanswered: ['node-b'], partitions_missing: ownedB });
      const hp = (await api(a.port, 'GET', '/health')).json as Health;
      expect([hp.rows['edge.logs.prod'], hp.cluster.nodes_unanswered, hp.cluster.partitions_missing]).toEqual([rowsIn(ownedA), ['node-b'], ownedB]);
      expect(hp.cluster.nodes.find((n) => n.id === 'node-b')).toMatchObject({ answered: false });
    } finally {
      b.child.kill('SIGCONT');
    }
  }, 40_000);
});
