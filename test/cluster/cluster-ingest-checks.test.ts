// Cluster ingest checks a batch as a single node does before anything is published (issue 20 review): the
// same source, empty-batch, events-per-batch (RINGQL_MAX_EVENTS_PER_BATCH) and per-event errors, and nothing
// reaches JetStream when the batch is refused. JetStream is a recording stand-in here; no servers run.

import { describe, expect, it } from 'vitest';
import type { JetStreamClient } from '@nats-io/jetstream';
import { ClusterService } from '../../src/cluster/cluster-service.ts';
import type { PartitionOwner } from '../../src/cluster/partition-owner.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { DEFAULT_LIMITS } from '../../src/core/limits.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';

const NOW = Date.parse('2025-01-15T12:00:00Z') * 1000;

async function setup(maxEventsPerBatch: number) {
  const make = () => createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, nowMicros: () => NOW, limits: { ...DEFAULT_LIMITS, maxEventsPerBatch }, cache: { sweepMs: 0 } });
  const single = await make();
  const local = await make();
  const published: string[] = [];
  const js = { publish: async (subject: string) => { published.push(subject); return { seq: published.length, duplicate: false, stream: 'S' }; } } as unknown as JetStreamClient;
  const owner = {} as PartitionOwner; // ingest never asks where a project lives
  const cluster = new ClusterService(local, owner, js, { selfId: 'n1', forwardToken: 't', nowUs: () => NOW });
  return { single, cluster, published };
}

/** The error a call throws (or resolves to), as [code, message, details]. */
async function refusal(f: () => unknown): Promise<[string, string, Record<string, unknown>]> {
  try {
    await f();
  } catch (err) {
    if (err instanceof RingqlError) return [err.code, err.message, err.details];
    throw err;
  }
  throw new Error('expected a refusal');
}

const ev = (i: number) => ({ id: `e${i}`, project: 'p1', event_message: `m${i}`, timestamp: '2025-01-15T11:00:00Z' });

describe('cluster ingest checks before publishing', () => {
  it('a batch over RINGQL_MAX_EVENTS_PER_BATCH is refused as on a single node, and nothing is published', async () => {
    const { single, cluster, published } = await setup(3);
    const batch = [ev(1), ev(2), ev(3), ev(4)];
    const want = await refusal(() => single.ingest('edge.logs.prod', batch));
    expect(want[0]).toBe('payload_too_large');
    expect(await refusal(() => cluster.ingest('edge.logs.prod', batch))).toEqual(want);
    expect(published).toEqual([]);
    // At the limit it goes through: one message for the one project.
    expect(await cluster.ingest('edge.logs.prod', batch.slice(0, 3))).toEqual({ stored: 3, dropped: 0 });
    expect(published).toEqual(['logs.p1.edge%2Elogs%2Eprod']);
  });

  it('unknown source, empty batch and an invalid event answer the single node\'s errors; nothing is published', async () => {
    const { single, cluster, published } = await setup(100);
    for (const [source, batch] of [['nope', [ev(1)]], ['edge.logs.prod', []], ['edge.logs.prod', [ev(1), 'not an object']]] as const) {
      const want = await refusal(() => single.ingest(source, [...batch]));
      expect(await refusal(() => cluster.ingest(source, [...batch]))).toEqual(want);
    }
    expect(published).toEqual([]);
  });
});
