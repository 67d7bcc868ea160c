// Per-component costs of cluster ingest, each measured alone in the bench process with the same code the
// nodes run: parse + validate (ClusterService.ingest's check, nothing stored), encode into messages,
// publish + acknowledgement by an R3 stream, and consume + store (a partition replayed into a fresh store).

import { jetstream, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { connectJetStream } from '../src/cluster/jetstream-ready.ts';
import { PartitionConsumer } from '../src/cluster/partition-consumer.ts';
import { batchMessages, publishMessages, type PublishMessage } from '../src/cluster/publisher.ts';
import { decodeBatch, stampBatch } from '../src/durable/batch-record.ts';
import { parseEventsBody } from '../src/endpoints/events-body.ts';
import { projectAt } from '../src/store/hot-paths.ts';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { CLUSTER_SOURCE, type ClusterBody } from './cluster-events.ts';
import { cpuSeconds } from './cluster-procs.ts';

export interface CpuCost {
  /** Wall events per second of the step alone. */
  eventsPerS: number;
  /** CPU µs per event in the bench process. */
  cpuUs: number;
  /** CPU µs per event in the nats-server processes (all of them together). */
  natsCpuUs?: number;
}

export interface FrontCosts { parseUs: number; validateUs: number; encodeUs: number; bytesPerEvent: number }

const VALID = Symbol('valid');
const nowUs = (): number => Date.now() * 1000;

function benchStore(): Store {
  return new Store({ ...defaultStoreConfig({}), retentionUs: 48 * 3600e6, maxRows: 20_000_000 });
}

/** CPU µs per event of parsing the bodies (as the ingest route does), of validation without storing, and of splitting into messages. */
export function frontCosts(bodies: readonly ClusterBody[]): FrontCosts {
  const store = benchStore();
  const s = store.source(CLUSTER_SOURCE)!;
  let events = 0, parse = 0, validate = 0, encode = 0, bytes = 0;
  for (let round = 0; round < 2; round++) { // round 0 warms the JIT
    for (const b of bodies) {
      const t0 = process.cpuUsage();
      const parsed = parseEventsBody(b.bytes, 'application/json');
      const t1 = process.cpuUsage();
      const now = nowUs();
      const stamped = stampBatch(parsed, now);
      try { s.ingest(stamped, now, () => { throw VALID; }); } catch (err) { if (err !== VALID) throw err; }
      const t2 = process.cpuUsage();
      const messages = batchMessages(CLUSTER_SOURCE, stamped, (e) => projectAt(e, s.def.projectPath));
      const t3 = process.cpuUsage();
      if (round === 0) continue;
      for (const m of messages) bytes += m.payload.length;
      const us = (a: NodeJS.CpuUsage, z: NodeJS.CpuUsage): number => z.user + z.system - a.user - a.system;
      parse += us(t0, t1); validate += us(t1, t2); encode += us(t2, t3); events += b.events;
    }
  }
  return { parseUs: parse / events, validateUs: validate / events, encodeUs: encode / events, bytesPerEvent: bytes / events };
}

/** Publishes the bodies' messages to a scratch R3 stream (as a node does, `inflight` batches at once), then deletes it. */
export async function publishCost(natsUrls: string[], natsPids: number[], bodies: readonly ClusterBody[], inflight: number): Promise<CpuCost> {
  const { nc, jsm } = await connectJetStream(natsUrls, { name: 'cluster bench publisher' });
  const name = 'RINGQL_BENCH_PUBLISH';
  await jsm.streams.add({ name, subjects: ['cbench.>'], num_replicas: Math.min(3, natsPids.length), storage: StorageType.File, retention: RetentionPolicy.Limits, duplicate_window: 120e9 });
  const js = jetstream(nc);
  const store = benchStore();
  const s = store.source(CLUSTER_SOURCE)!;
  const batches: PublishMessage[][] = bodies.map((b) => {
    const stamped = stampBatch((JSON.parse(b.bytes.toString('utf8')) as { batch: unknown[] }).batch, nowUs());
    return batchMessages(CLUSTER_SOURCE, stamped, (e) => projectAt(e, s.def.projectPath)).map((m) => ({ ...m, subject: `cbench.${m.subject}` }));
  });
  const events = bodies.reduce((a, b) => a + b.events, 0);
  const nats0 = natsPids.reduce((a, p) => a + cpuSeconds(p), 0);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => { while (next < batches.length) await publishMessages(js, batches[next++]!); };
  await Promise.all(Array.from({ length: inflight }, worker));
  const wallS = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const natsS = natsPids.reduce((a, p) => a + cpuSeconds(p), 0) - nats0;
  await jsm.streams.delete(name);
  await nc.drain();
  return { eventsPerS: events / wallS, cpuUs: (c.user + c.system) / events, natsCpuUs: (natsS * 1e6) / events };
}

/** Replays partition `p` from its first message into a fresh store, as a node rebuilding it does. */
export async function consumeCost(natsUrls: string[], natsPids: number[], p: number): Promise<CpuCost & { events: number }> {
  const { nc, jsm } = await connectJetStream(natsUrls, { name: 'cluster bench consumer' });
  const s = benchStore().source(CLUSTER_SOURCE)!;
  let events = 0;
  const nats0 = natsPids.reduce((a, pid) => a + cpuSeconds(pid), 0);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const consumer = new PartitionConsumer(jetstream(nc), jsm, p, (payload) => {
    const b = decodeBatch(Buffer.from(payload));
    events += s.ingest(b.events, nowUs()).stored;
  });
  await consumer.start(1);
  await consumer.caughtUp();
  const wallS = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const natsS = natsPids.reduce((a, pid) => a + cpuSeconds(pid), 0) - nats0;
  consumer.stop();
  await nc.drain();
  return { events, eventsPerS: events / wallS, cpuUs: (c.user + c.system) / events, natsCpuUs: (natsS * 1e6) / events };
}
