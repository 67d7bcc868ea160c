// A restarted cluster node resumes its partitions from its local snapshot plus the stream tail (SPEC §13,
// issue 20 item 2): events the stream no longer holds come back from the snapshot, events published while
// the node was down come from the stream, and none is applied twice.

import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jetstream } from '@nats-io/jetstream';
import { startNatsCluster, type NatsCluster } from '../../src/cluster/nats-servers.ts';
import { connectJetStream, type JetStreamConnection } from '../../src/cluster/jetstream-ready.ts';
import { SNAPSHOT_FILE } from '../../src/cluster/cluster-node.ts';
import { partitionOf, streamName } from '../../src/cluster/partition.ts';
import { batchMessages, publishMessages } from '../../src/cluster/publisher.ts';
import { stampBatch } from '../../src/durable/batch-record.ts';
import { freePort, startMainProcess } from '../helpers/main-process.ts';

const PARTITIONS = 2;
const auth = { Authorization: 'Bearer tok' };
let nats: NatsCluster | undefined;
let conn: JetStreamConnection | undefined;
let node: ChildProcess | undefined;

afterAll(async () => {
  node?.kill('SIGKILL');
  await conn?.nc.close();
  await nats?.stop();
});

const COUNT = encodeURIComponent('select count(*) as n, count(distinct id) as d from edge_logs');
async function counts(port: number, project: string): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/api/endpoints/query/logs.all?project=${project}&sql=${COUNT}`, { headers: auth });
  return `${r.status} ${await r.text()}`;
}

async function until(port: number, projects: string[], want: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let got: string[] = [];
  while (Date.now() < deadline) {
    got = await Promise.all(projects.map((p) => counts(port, p)));
    if (got.every((g) => g === `200 {"result":[{"n":${want},"d":${want}}]}`)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not every project reached ${want} events once: ${got.join(' | ')}`);
}

const events = (projects: string[], tag: string, n: number): object[] => projects.flatMap((project) => Array.from({ length: n }, (_, i) => ({
  id: `${project}-${tag}-${i}`, project, event_message: `GET /s/${i}`, timestamp: new Date(Date.now() - 60_000 + i).toISOString(),
})));

describe('cluster node restart', () => {
  it('resumes from its snapshot and the stream tail: nothing lost, nothing twice', async () => {
    nats = await startNatsCluster({ dir: mkdtempSync(join(tmpdir(), 'ringql-snap-nats-')), partitions: PARTITIONS });
    const stateDir = mkdtempSync(join(tmpdir(), 'ringql-snap-node-'));
    const port = await freePort();
    const env = { RINGQL_ACCESS_TOKENS: 'tok', RINGQL_STATE_DIR: stateDir, RINGQL_NATS_URL: nats.urls.join(','), RINGQL_PARTITIONS: String(PARTITIONS), RINGQL_NODE_ID: 'solo' };
    const projects = ['alpha', 'beta', 'gamma', 'delta'];
    expect(new Set(projects.map((p) => partitionOf(p, PARTITIONS))).size).toBe(PARTITIONS);
    node = await startMainProcess(port, env);
    for (const tag of ['a', 'b']) {
      const r = await fetch(`http://127.0.0.1:${port}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ batch: events(projects, tag, 10) }) });
      expect(r.status).toBe(200);
    }
    await until(port, projects, 20);
    // A graceful stop writes the snapshot (a running node also writes one every 30 s).
    const exited = new Promise((r) => node!.once('exit', r));
    node.kill('SIGTERM');
    await exited;
    expect(existsSync(join(stateDir, SNAPSHOT_FILE))).toBe(true);
    // While the node is down: the streams drop all but their last message (retention would, in time), and
    // another node publishes 5 more events per project.
    conn = await connectJetStream(nats.urls);
    for (let p = 0; p < PARTITIONS; p++) await conn.jsm.streams.purge(streamName(p), { keep: 1 });
    const more = stampBatch(events(projects, 'c', 5), Date.now() * 1000);
    await publishMessages(jetstream(conn.nc), batchMessages('edge.logs.prod', more, (e) => (e as { project: string }).project));
    node = await startMainProcess(port, env);
    // 20 from the snapshot (the stream holds only the last of them) + 5 from the tail, each once:
    // a full replay would find fewer, a replay from the start on top of the snapshot would double the kept one.
    await until(port, projects, 25);
  }, 120_000);
});
