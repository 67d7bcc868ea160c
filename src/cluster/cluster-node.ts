// Starts cluster mode on one node (SPEC §13): connects to JetStream, makes sure the partition streams
// exist, joins the members, consumes the partitions it owns into the local store (dropping the ones it
// hands over), serves the endpoint bucket and its figures to peers, and gives the server a ClusterService.

import { hostname } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { RingqlError } from '../core/errors.ts';
import { decodeBatch } from '../durable/batch-record.ts';
import type { EngineService } from '../endpoints/service.ts';
import type { Store } from '../store/store.ts';
import { ClusterService } from './cluster-service.ts';
import { connectJetStream } from './jetstream-ready.ts';
import { Membership } from './membership.ts';
import { partitionOf } from './partition.ts';
import { PartitionOwner, type PartitionSink } from './partition-owner.ts';
import { ensureStreams } from './streams.ts';
import { EndpointBucket } from './endpoint-bucket.ts';
import { localReport } from './node-report.ts';
import { PeerReports } from './peer-reports.ts';
import { readSnapshot, restoreSnapshot, takeSnapshot, writeSnapshot } from './partition-snapshot.ts';

/** How often (at least) a node writes its local snapshot, and once more when it stops. */
const SNAPSHOT_EVERY_MS = 30_000;
export const SNAPSHOT_FILE = 'cluster-snapshot.bin';

export interface ClusterNodeOptions {
  natsUrls: string[];
  partitions: number;
  nodeId: string | null;
  /** How peers reach this node (known once the server listens). */
  advertiseUrl: string;
  port: number;
  store: Store;
  service: EngineService;
  retentionUs: number;
  forwardToken: string;
  nowUs: () => number;
  log: (line: string) => void;
  /** How long /api/sources and /health wait for another node's figures (default 1 s). */
  peerTimeoutMs?: number;
  /** Where the node keeps its local snapshot (RINGQL_STATE_DIR); none: every gained partition replays its stream. */
  stateDir?: string;
}

export interface ClusterNode {
  service: ClusterService;
  nodeId: string;
  stop(): Promise<void>;
}

/** Stores each partition message locally; forgets the projects of partitions handed over. */
function storeSink(store: Store, service: EngineService, partitions: number, log: (l: string) => void): PartitionSink {
  return {
    apply(_p, payload) {
      const b = decodeBatch(Buffer.from(payload));
      try {
        service.ingestVolatile(b.source, b.events);
      } catch (err) {
        // Validated before it was published; refused now only if limits differ between nodes.
        if (!(err instanceof RingqlError)) throw err;
        log(`ringql: cluster: a batch of ${b.events.length} events for ${b.source} was refused here: ${err.message}`);
      }
    },
    drop(ps) {
      const gone = new Set(ps);
      let rows = 0;
      for (const s of store.sources()) rows += s.dropProjects((project) => gone.has(partitionOf(project, partitions)));
      service.cache.clearAll();
      log(`ringql: cluster: dropped ${rows} rows of partitions ${[...gone].join(',')}`);
    },
  };
}

/**
 * Restores the local snapshot into the (empty) store and returns the stream sequences it covers; rows of
 * partitions it does not cover are dropped. A missing, damaged or mismatched snapshot restores nothing.
 */
function loadSnapshot(path: string, o: ClusterNodeOptions, sink: PartitionSink): Map<number, number> {
  const all = Array.from({ length: o.partitions }, (_, p) => p);
  try {
    const snap = readSnapshot(path);
    if (snap === null) return new Map();
    if (snap.partitions !== o.partitions) {
      o.log(`ringql: cluster: the local snapshot was taken with ${snap.partitions} partitions, not ${o.partitions}: not used`);
      return new Map();
    }
    const t0 = performance.now();
    const events = restoreSnapshot(o.store, snap);
    sink.drop(all.filter((p) => !snap.covered.has(p)));
    o.log(`ringql: cluster: local snapshot: ${events} events of partitions ${[...snap.covered.keys()].join(',')} in ${Math.round(performance.now() - t0)} ms`);
    return snap.covered;
  } catch (err) {
    o.log(`ringql: cluster: the local snapshot ${path} was not used: ${err instanceof Error ? err.message : String(err)}`);
    sink.drop(all);
    return new Map();
  }
}

export async function startClusterNode(o: ClusterNodeOptions): Promise<ClusterNode> {
  const nodeId = o.nodeId ?? `${hostname()}-${o.port}`;
  const { nc, jsm } = await connectJetStream(o.natsUrls, { name: `ringql ${nodeId}` });
  // Three copies of each partition where there are three servers; one where JetStream has fewer.
  try {
    await ensureStreams(jsm, { partitions: o.partitions, replicas: 3, retentionUs: o.retentionUs }, 5000);
  } catch (err) {
    o.log(`ringql: cluster: JetStream cannot keep 3 copies of the partition streams (${err instanceof Error ? err.message : String(err)}); ` +
      'they get 1 copy, so losing that NATS server loses its events. Run three NATS servers for the durability of SPEC §13.');
    await ensureStreams(jsm, { partitions: o.partitions, replicas: 1, retentionUs: o.retentionUs });
  }
  const js = jetstream(nc);
  const self = { id: nodeId, url: o.advertiseUrl };
  const sink = storeSink(o.store, o.service, o.partitions, o.log);
  // Consumers are (re)created with a short API timeout: while a stream elects a leader, asking again every
  // 2 s gets a new consumer sooner after the election than waiting out 5 s timeouts.
  const owner = new PartitionOwner(jetstream(nc, { timeout: 2000 }), jsm, self, o.partitions, sink, { log: o.log }, o.log);
  const snapPath = o.stateDir === undefined ? null : join(o.stateDir, SNAPSHOT_FILE);
  if (snapPath) owner.resumeFrom(loadSnapshot(snapPath, o, sink));
  const membership = new Membership(nc, self, { replicas: 1 });
  await membership.join();
  membership.onChange((m) => void owner.setMembers(m));
  // Created endpoints live in the bucket (R3 where JetStream has three servers), read before the node serves.
  const endpoints = await EndpointBucket.open(nc, o.service, { replicas: 3, log: o.log });
  const reports = new PeerReports(nc, self, () => membership.members, () => localReport(o.store, nodeId, owner.status(), o.partitions), o.peerTimeoutMs);
  reports.serve();
  o.log(`ringql: cluster: node ${nodeId} joined (${o.partitions} partitions, advertised at ${o.advertiseUrl})`);
  const service = new ClusterService(o.service, owner, js, { selfId: nodeId, forwardToken: o.forwardToken, nowUs: o.nowUs, endpoints, reports });
  let writing = false;
  let timer: NodeJS.Timeout | null = null;
  /** Writes a snapshot; returns how long it took (0 when none was written). */
  const snapshot = async (): Promise<number> => {
    if (!snapPath || writing) return 0;
    writing = true;
    const t0 = performance.now();
    try {
      const snap = takeSnapshot(o.store, o.partitions, owner.covered());
      if (snap) await writeSnapshot(snapPath, snap);
    } catch (err) {
      o.log(`ringql: cluster: the local snapshot could not be written: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      writing = false;
    }
    return performance.now() - t0;
  };
  // The whole store is written each time: a store that takes long to write is written less often.
  let closed = false;
  const schedule = (afterMs: number): void => {
    if (closed) return;
    timer = setTimeout(() => void snapshot().then((ms) => schedule(Math.max(SNAPSHOT_EVERY_MS, 20 * ms))), afterMs);
    timer.unref();
  };
  if (snapPath) schedule(SNAPSHOT_EVERY_MS);
  return {
    service,
    nodeId,
    async stop() {
      reports.stop();
      endpoints.stop();
      closed = true;
      if (timer) clearTimeout(timer);
      await snapshot();
      owner.stop();
      await membership.leave();
      await nc.drain().catch(() => {});
    },
  };
}
