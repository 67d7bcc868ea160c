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
import { PartitionOwner, type PartitionSink } from '../../src/cluster/partition-owner.ts';
import { decodeBatch, encodeBatch } from '../../src/durable/batch-record.ts';

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
      const ack = await js.publish(ingestSubject(p, 'edge.logs.prod'), encodeBatch('edge.logs.prod', []));
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

  it('partition owners split the partitions, rebuild what a dead member held, and hand over to a newcomer', async () => {
    const js = jetstream(conn.nc);
    // Fresh streams' content is shared with the tests above: count only this test's batch ids.
    const tag = `own-${Date.now()}`;
    class RecordingSink implements PartitionSink {
      readonly held = new Map<number, string[]>();
      apply(p: number, payload: Uint8Array): void {
        const ids = (decodeBatch(Buffer.from(payload)).events as { id: string }[]).map((e) => e.id).filter((id) => id.startsWith(tag));
        this.held.set(p, [...(this.held.get(p) ?? []), ...ids]);
      }
      drop(ps: readonly number[]): void { for (const p of ps) this.held.delete(p); }
      all(): string[] { return [...this.held.values()].flat(); }
    }
    const events = Array.from({ length: 300 }, (_, i) => ({ id: `${tag}-${i}`, project: `proj-${i % 23}` }));
    await publishMessages(js, batchMessages('edge.logs.prod', events, (e) => (e as { project: string }).project));
    const node = (id: string) => {
      const sink = new RecordingSink();
      const self = { id, url: `http://${id}` };
      const m = new Membership(conn.nc, self, { ttlMs: 2000, heartbeatMs: 300 });
      const o = new PartitionOwner(js, conn.jsm, self, PARTITIONS, sink);
      return { id, sink, m, o };
    };
    type Node = ReturnType<typeof node>;
    // Members learn of each other by heartbeats, so two views may differ for a beat (a listing cut short by
    // an expiring entry keeps the old view): ownership is checked once every view names exactly `live`.
    const converge = async (live: Node[]): Promise<void> => {
      const want = live.map((n) => n.id).sort().join(',');
      const views = (): string[] => [...new Set(live.map((n) => [...n.m.members.keys()].sort().join(',')))];
      const t0 = Date.now();
      while (views().join('|') !== want && Date.now() - t0 < 8000) { await new Promise((r) => setTimeout(r, 100)); for (const n of live) await n.m.beat(); }
      expect(views()).toEqual([want]);
      for (const n of live) await n.o.settled();
    };
    const a = node('own-a'), b = node('own-b');
    await a.m.join(); await b.m.join(); await a.m.beat(); await b.m.beat();
    a.m.onChange((ms) => void a.o.setMembers(ms));
    b.m.onChange((ms) => void b.o.setMembers(ms));
    await converge([a, b]);
    const sorted = (x: string[]): string[] => [...x].sort();
    expect(a.o.status().owned.filter((p) => b.o.status().owned.includes(p))).toEqual([]);
    expect(sorted([...a.sink.all(), ...b.sink.all()])).toEqual(sorted(events.map((e) => e.id)));
    const project = 'proj-5';
    const routes = [a.o.route(project).kind, b.o.route(project).kind].sort();
    expect(routes).toEqual(['local', 'remote']);

    // b dies (no heartbeat, no goodbye): a takes everything over from the streams, each event once.
    b.m.stopHeartbeat(); b.o.stop();
    const t0 = Date.now();
    while (a.m.members.has('own-b') && Date.now() - t0 < 8000) { await new Promise((r) => setTimeout(r, 200)); await a.m.beat(); }
    await converge([a]);
    expect(a.o.status().owned).toEqual(Array.from({ length: PARTITIONS }, (_, i) => i));
    expect(sorted(a.sink.all())).toEqual(sorted(events.map((e) => e.id)));

    // A newcomer takes some partitions; a drops exactly those and keeps the rest whole.
    const c = node('own-c');
    await c.m.join(); await c.m.beat(); await a.m.beat();
    c.m.onChange((ms) => void c.o.setMembers(ms));
    await converge([a, c]);
    expect(sorted([...a.sink.all(), ...c.sink.all()])).toEqual(sorted(events.map((e) => e.id)));
    expect(c.o.status().owned.length).toBeGreaterThan(0);
    a.o.stop(); c.o.stop();
    await a.m.leave(); await c.m.leave(); await b.m.leave();
  }, 60_000);
});
