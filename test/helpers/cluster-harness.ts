// Cluster test harness: three nats-server processes and ringql nodes as child processes on loopback (the
// shape of test/cluster/cluster-nodes.test.ts), plus small HTTP helpers and a poll-until for the tests.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNatsCluster, type NatsCluster } from '../../src/cluster/nats-servers.ts';
import { freePort, startMainProcess } from './main-process.ts';

export const TOKEN = 'tok';

export interface TestNode { id: string; port: number; child: ChildProcess }

export class ClusterHarness {
  readonly nodes: TestNode[] = [];
  private constructor(readonly nats: NatsCluster, readonly partitions: number) {}

  static async start(partitions: number): Promise<ClusterHarness> {
    return new ClusterHarness(await startNatsCluster({ dir: mkdtempSync(join(tmpdir(), 'ringql-cluster-nats-')), partitions }), partitions);
  }

  async node(id: string, env: Record<string, string> = {}): Promise<TestNode> {
    const port = await freePort();
    const child = await startMainProcess(port, {
      RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: mkdtempSync(join(tmpdir(), `ringql-cluster-${id}-`)),
      RINGQL_NATS_URL: this.nats.urls.join(','), RINGQL_PARTITIONS: String(this.partitions), RINGQL_NODE_ID: id, ...env,
    });
    const n = { id, port, child };
    this.nodes.push(n);
    return n;
  }

  async stop(): Promise<void> {
    for (const n of this.nodes) { n.child.kill('SIGCONT'); n.child.kill('SIGKILL'); }
    await this.nats.stop();
  }
}

/** One request with the test token; the body parsed as JSON when there is one. */
export async function api(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; headers: Headers }> {
  const r = await fetch(`http://127.0.0.1:${port}${path}`, {
    method, headers: { Authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) as unknown : null, headers: r.headers };
}

/** Polls `ok` every 10 ms until it holds; returns how long that took (ms), or throws after `ms`. */
export async function until(what: string, ms: number, ok: () => Promise<boolean>): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await ok()) return performance.now() - t0;
    if (performance.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The partitions a node owns, from its /health. */
export async function owned(port: number): Promise<number[]> {
  return ((await api(port, 'GET', '/health')).json as { cluster: { owned: number[] } }).cluster.owned;
}
