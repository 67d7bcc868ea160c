// `npm run cluster`: a whole cluster on this machine for trying cluster mode — three nats-server
// processes (installed with apt-get when missing) and three ringql nodes on loopback ports, each node
// printing to this terminal; Ctrl-C stops them all.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../core/project-root.ts';
import { freeLoopbackPort, startNatsCluster } from './nats-servers.ts';

const NODES = 3;
const PARTITIONS = 16;
const token = process.env.RINGQL_ACCESS_TOKENS?.split(',')[0]?.split(':')[0] ?? 'cluster-demo-token';
const dir = projectPath('.state/cluster');
mkdirSync(dir, { recursive: true });
const nats = await startNatsCluster({ dir: join(dir, 'nats'), partitions: PARTITIONS });
process.stdout.write(`nats: ${nats.urls.join(', ')}\n`);
const children: ChildProcess[] = [];
for (let i = 0; i < NODES; i++) {
  const port = await freeLoopbackPort();
  const child = spawn(process.execPath, ['--import', 'tsx', projectPath('src/main.ts')], {
    env: {
      ...process.env, HOST: '127.0.0.1', PORT: String(port), RINGQL_DEMO: '0', RINGQL_ACCESS_TOKENS: process.env.RINGQL_ACCESS_TOKENS ?? token,
      RINGQL_STATE_DIR: join(dir, `node${i + 1}`), RINGQL_NATS_URL: nats.urls.join(','), RINGQL_PARTITIONS: String(PARTITIONS), RINGQL_NODE_ID: `node${i + 1}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
}
process.stdout.write(`token: ${token}\nthree ringql nodes are starting (their addresses follow); any of them takes ingest and queries. Ctrl-C stops everything.\n`);
const stop = async (): Promise<void> => {
  for (const c of children) c.kill('SIGTERM');
  await nats.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
