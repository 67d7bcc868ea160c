// SPEC §3 in cluster mode: events already older than the retention window are not stored and are counted
// as "dropped" in the 200 body, as on one node, and are not published at all.

import type { JetStreamClient } from '@nats-io/jetstream';
import { describe, expect, it } from 'vitest';
import { ClusterService } from '../../src/cluster/cluster-service.ts';
import type { PartitionOwner } from '../../src/cluster/partition-owner.ts';
import { decodeBatch } from '../../src/durable/batch-record.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';

const NOW = Date.parse('2025-01-15T12:00:00Z') * 1000;
const HOUR = 3600e6;

async function services(): Promise<{ plain: Awaited<ReturnType<typeof createQueryService>>; cluster: ClusterService; published: string[][] }> {
  const cfg = { ...defaultStoreConfig({}), retentionUs: HOUR };
  const plain = await createQueryService({ store: new Store(cfg), stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
  const store = new Store(cfg);
  const local = await createQueryService({ store, stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
  /** The event ids of each published message. */
  const published: string[][] = [];
  // Only publish() is reached by ingest; the rest of the JetStream client is not used here.
  const js = { publish: async (_subject: string, payload: Uint8Array) => { published.push(decodeBatch(Buffer.from(payload)).events.map((e) => (e as { id: string }).id)); return { seq: published.length, duplicate: false, stream: 'RINGQL_P0' }; } } as unknown as JetStreamClient;
  // Ingest never asks who owns a project: the owner is not needed to validate and publish.
  const owner = null as unknown as PartitionOwner;
  return { plain, cluster: new ClusterService(local, owner, js, { selfId: 'n1', forwardToken: 't', nowUs: () => NOW }), published };
}

const batch = [
  { id: 'old', project: 'p1', event_message: 'GET /a', timestamp: new Date((NOW - 2 * HOUR) / 1000).toISOString() },
  { id: 'new', project: 'p1', event_message: 'GET /b', timestamp: new Date((NOW - 60e6) / 1000).toISOString() },
];

describe('cluster ingest answers like one node', () => {
  it('one node counts an event older than the retention window as dropped', async () => {
    const { plain } = await services();
    expect(await plain.ingest('edge.logs.prod', structuredClone(batch))).toMatchObject({ stored: 1, dropped: 1 });
  });

  it('a cluster node counts it as dropped too, and publishes only the event it keeps', async () => {
    const { cluster, published } = await services();
    expect(await cluster.ingest('edge.logs.prod', structuredClone(batch))).toMatchObject({ stored: 1, dropped: 1 });
    expect(published).toEqual([['new']]);
  });

  it('a batch wholly past retention publishes nothing', async () => {
    const { cluster, published } = await services();
    expect(await cluster.ingest('edge.logs.prod', structuredClone(batch.slice(0, 1)))).toMatchObject({ stored: 0, dropped: 1 });
    expect(published).toHaveLength(0);
  });
});
