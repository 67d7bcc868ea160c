// The cluster's JetStream pieces against a real 3-server nats-server cluster on loopback: the node's own
// partition function agrees with the servers' mapping, batches publish as per-project messages read back
// once each (a retried Nats-Msg-Id is stored once), and membership sees nodes come and go.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream } from '@nats-io/jetstream';
import { startNatsCluster, type NatsCluster } from '../../src/cluster/nats-servers.ts';
import { connectJetStream, type JetStreamConnection } from '../../src/cluster/jetstream-ready.ts';
import { ensureStreams } from '../../src/cluster/streams.ts';
import { ingestSubject, partitionOf, streamName } from '../../src/cluster/partition.ts';
import { batchMessages, publishMessages } from '../../src/cluster/publisher.ts';
import { PartitionConsumer } from '../../src/cluster/partition-consumer.ts';
import { Membership } from '../../src/cluster/membership.ts';
import { ownedBy, ownerOf } from '../../src/cluster/rendezvous.ts';
import { decodeBatch } from '../../src/durable/batch-record.ts';

const PARTITIONS = 4;
let cluster: NatsCluster;
let conn: JetStreamConnection;

beforeAll(async () => {
  cluster = await startNatsCluster({ dir: mkdtempSync(join(tmpdir(), 'ringql-nats-')), partitions: PARTITIONS });
  conn = await connectJetStream(cluster.urls);
  await ensureStreams(conn.jsm, { partitions: PARTITIONS, replicas: 3, retentionUs: 3600e6 });
}, 90_000);

afterAll(async () => {
  await conn?.nc.close();
  await cluster?.stop();
});

describe('cluster JetStream pieces', () => {
  it('the partition a node computes is the one the servers map a subject to', async () => {
    const js = jetstream(conn.nc);
    const projects = ['abc', 'proj-1', 'proj-2', 'zzzzzzzz', 'a.b', 'with space', '*', 'ümlaut', 'x>y', ''];
    for (const p of projects) {
      const ack = await js.publish(ingestSubject(p, 'edge.logs.prod'), Buffer.from('{}'));
      expect({ p, stream: ack.stream }).toEqual({ p, stream: streamName(partitionOf(p, PARTITIONS)) });
    }
  });

  it('a batch becomes per-project messages under the size bound; consumers read every event once', async () => {
    const js = jetstream(conn.nc);
    const events = Array.from({ length: 600 }, (_, i) => ({ id: `e${i}`, project: `p${i % 7}`, event_message: 'x'.repeat(200) }));
    const msgs = batchMessages('edge.logs.prod', events, (e) => (e as { project: string }).project, { maxMessageBytes: 8 * 1024 });
    expect(new Set(msgs.map((m) => m.subject)).size).toBe(7);
    expect(msgs.every((m) => m.payload.length <= 8 * 1024 + 200)).toBe(true);
    expect(msgs.reduce((n, m) => n + m.events, 0)).toBe(600);
    // Stream positions before, so the consumers read only this test's messages.
    const start = new Map<number, number>();
    for (let p = 0; p < PARTITIONS; p++) start.set(p, (await conn.jsm.streams.info(streamName(p))).state.last_seq + 1);
    await publishMessages(js, msgs);
    // A retry of an acknowledged message (same Nats-Msg-Id) is stored once.
    await publishMessages(js, msgs.slice(0, 3));
    const seen = new Map<string, number>();
    const consumers = Array.from({ length: PARTITIONS }, (_, p) => new PartitionConsumer(js, conn.jsm, p, (payload) => {
      for (const e of decodeBatch(Buffer.from(payload)).events as { id: string }[]) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
    }));
    await Promise.all(consumers.map((c) => c.start(start.get(c.partition))));
    await Promise.all(consumers.map((c) => c.caughtUp()));
    for (const c of consumers) c.stop();
    expect(seen.size).toBe(600);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
  });

  it('membership sees members join, leave, and expire; ownership moves only what it must', async () => {
    const a = new Membership(conn.nc, { id: 'node-a', url: 'http://127.0.0.1:1' }, { ttlMs: 2000, heartbeatMs: 300 });
    const b = new Membership(conn.nc, { id: 'node-b', url: 'http://127.0.0.1:2' }, { ttlMs: 2000, heartbeatMs: 300 });
    await a.join();
    await b.join();
    await a.beat();
    expect([...a.members.keys()].sort()).toEqual(['node-a', 'node-b']);
    const both = ['node-a', 'node-b'];
    const owned = [...ownedBy('node-a', 64, both), ...ownedBy('node-b', 64, both)].sort((x, y) => x - y);
    expect(owned).toEqual(Array.from({ length: 64 }, (_, i) => i));
    // With a third member, a partition moves only to the newcomer, never between the first two.
    const three = [...both, 'node-c'];
    for (let p = 0; p < 64; p++) {
      const now = ownerOf(p, three);
      expect(now === ownerOf(p, both) || now === 'node-c').toBe(true);
    }
    b.stopHeartbeat(); // as a crash: its entry expires after the TTL
    const t0 = Date.now();
    while (a.members.has('node-b') && Date.now() - t0 < 8000) { await new Promise((r) => setTimeout(r, 200)); await a.beat(); }
    expect([...a.members.keys()]).toEqual(['node-a']);
    await a.leave();
  });
});
