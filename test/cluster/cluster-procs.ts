// The processes of a kill test: a 3-server NATS cluster and ringql nodes on fixed loopback ports, each
// node killable with SIGKILL and restartable with the same id, port and state directory.

import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { startNatsCluster, type NatsCluster } from '../../src/cluster/nats-servers.ts';
import { freePort, startMainProcess } from '../helpers/main-process.ts';

export const TOKEN = 'kill-test-token';

export interface NodeHandle {
  id: string;
  port: number;
  up: boolean;
  start(): Promise<void>;
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface ClusterProcs {
  nats: NatsCluster;
  nodes: NodeHandle[];
  stop(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

function nodeHandle(id: string, port: number, env: Record<string, string>, log: WriteStream): NodeHandle {
  let child: ChildProcess | null = null;
  const h: NodeHandle = {
    id, port, up: false,
    async start() {
      child = await startMainProcess(port, env);
      const write = (d: Buffer): void => { log.write(d.toString().replace(/^(?=.)/gm, () => `${new Date().toISOString().slice(11, 23)} `)); };
      child.stdout!.on('data', write);
      child.stderr!.on('data', write);
      h.up = true;
    },
    async kill() {
      const c = child;
      h.up = false;
      if (!c) return;
      c.kill('SIGKILL');
      await exited(c);
      child = null;
    },
  };
  return h;
}

/** Starts 3 nats-servers and `nodes` ringql nodes under `dir` (node logs go to dir/nodeN.log). */
export async function startClusterProcs(dir: string, opts: { nodes: number; partitions: number }): Promise<ClusterProcs> {
  const nats = await startNatsCluster({ dir: join(dir, 'nats'), partitions: opts.partitions });
  const nodes: NodeHandle[] = [];
  const logs: WriteStream[] = [];
  for (let i = 1; i <= opts.nodes; i++) {
    const stateDir = join(dir, `node${i}`);
    mkdirSync(stateDir, { recursive: true });
    const log = createWriteStream(join(dir, `node${i}.log`), { flags: 'a' });
    logs.push(log);
    nodes.push(nodeHandle(`node${i}`, await freePort(), {
      RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: stateDir, RINGQL_NATS_URL: nats.urls.join(','),
      RINGQL_PARTITIONS: String(opts.partitions), RINGQL_NODE_ID: `node${i}`,
    }, log));
  }
  await Promise.all(nodes.map((n) => n.start()));
  return {
    nats, nodes,
    async stop() {
      await Promise.all(nodes.map((n) => n.kill()));
      await nats.stop();
      for (const l of logs) l.end();
    },
  };
}
