// Starts a local NATS JetStream cluster (Debian's nats-server, installed with apt-get when missing) on
// loopback ports, with the subject mapping SPEC §13 names: `logs.<project>.<source>` → `plogs.<partition>...`.
// For `npm run cluster`, the cluster tests and the cluster benchmark; production runs its own servers.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';

export interface NatsServerHandle {
  name: string;
  clientPort: number;
  url: string;
  process: ChildProcess | null;
  /** Starts the server again after kill() (same config and store). */
  start(): Promise<void>;
  /** SIGKILL, as a crash; resolves once the process is gone (its ports and store are free to start() again). */
  kill(): Promise<void>;
}

export interface NatsCluster {
  servers: NatsServerHandle[];
  urls: string[];
  stop(): Promise<void>;
}

/** Makes sure `nats-server` is on PATH, installing Debian's package when it is not (and saying so). */
export function ensureNatsServer(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): void {
  if (spawnSync('nats-server', ['--version']).status === 0) return;
  log('nats-server is missing: installing Debian\'s nats-server package with apt-get (needs root)');
  const r = spawnSync('sh', ['-c', 'apt-get install -y nats-server || (apt-get update && apt-get install -y nats-server)'], { stdio: 'inherit' });
  if (r.status !== 0 || spawnSync('nats-server', ['--version']).status !== 0) throw new Error('nats-server could not be installed (apt-get install -y nats-server failed)');
}

function configText(name: string, clientPort: number, clusterPort: number, routes: number[], storeDir: string, partitions: number): string {
  return [
    `server_name: ${name}`,
    `listen: 127.0.0.1:${clientPort}`,
    `jetstream { store_dir: "${storeDir}" }`,
    `cluster { name: ringql-test, listen: 127.0.0.1:${clusterPort}, routes: [${routes.map((p) => `nats-route://127.0.0.1:${p}`).join(', ')}] }`,
    `mappings = { "logs.*.*": "plogs.{{partition(${partitions},1)}}.{{wildcard(1)}}.{{wildcard(2)}}" }`,
    'max_payload: 1MB',
  ].join('\n') + '\n';
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

/** A loopback port free right now. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `size` servers under `dir` (client ports from `basePort` up, cluster ports from basePort + 100,
 * or free ports when no basePort is given); resolves once all accept clients.
 */
export async function startNatsCluster(opts: { dir: string; basePort?: number; size?: number; partitions: number }): Promise<NatsCluster> {
  ensureNatsServer();
  // Free ports are found before the servers bind them, so another process can take one in between: then
  // the cluster starts again on new ports (in a fresh folder), up to three times.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce({ ...opts, dir: attempt === 1 ? opts.dir : join(opts.dir, `attempt-${attempt}`) });
    } catch (err) {
      if (!(err instanceof PortTakenError) || opts.basePort !== undefined || attempt >= 3) throw err;
      process.stderr.write(`ringql: nats-server: ${err.message.split('\n')[0]}; starting the cluster again on other ports\n`);
    }
  }
}

/** A server could not bind a port picked as free (another process took it first). */
class PortTakenError extends Error {}

async function startOnce(opts: { dir: string; basePort?: number; size?: number; partitions: number }): Promise<NatsCluster> {
  const size = opts.size ?? 3;
  const port = async (i: number, offset: number): Promise<number> => (opts.basePort === undefined ? freeLoopbackPort() : opts.basePort + offset + i);
  const clusterPorts: number[] = [];
  const clientPorts: number[] = [];
  for (let i = 0; i < size; i++) { clusterPorts.push(await port(i, 100)); clientPorts.push(await port(i, 0)); }
  const servers: NatsServerHandle[] = [];
  for (let i = 0; i < size; i++) {
    const name = `n${i + 1}`;
    const clientPort = clientPorts[i]!;
    const home = join(opts.dir, name);
    mkdirSync(home, { recursive: true });
    const conf = join(home, 'nats.conf');
    writeFileSync(conf, configText(name, clientPort, clusterPorts[i]!, clusterPorts.filter((_, j) => j !== i), join(home, 'js'), opts.partitions));
    const h: NatsServerHandle = {
      name, clientPort, url: `nats://127.0.0.1:${clientPort}`, process: null,
      async start() {
        const p = spawn('nats-server', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        p.stderr!.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-4000); });
        h.process = p;
        const t0 = Date.now();
        while (!(await portOpen(clientPort))) {
          if (p.exitCode !== null) {
            const Cls = /address already in use/.test(err) ? PortTakenError : Error;
            throw new Cls(`nats-server ${name} exited ${p.exitCode}: ${err}`);
          }
          if (Date.now() - t0 > 15_000) throw new Error(`nats-server ${name} did not listen on ${clientPort} within 15 s: ${err}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      },
      async kill() {
        const p = h.process;
        h.process = null;
        if (!p || p.exitCode !== null || p.signalCode !== null) return;
        const gone = new Promise<void>((r) => p.once('exit', () => r()));
        p.kill('SIGKILL');
        await gone;
      },
    };
    servers.push(h);
  }
  const started = await Promise.allSettled(servers.map((s) => s.start()));
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.all(servers.map((s) => s.kill()));
    throw failed.reason;
  }
  return {
    servers,
    urls: servers.map((s) => s.url),
    async stop() {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => {
        const p = s.process;
        if (!p || p.exitCode !== null) return resolve();
        p.once('exit', () => resolve());
        p.kill('SIGTERM');
      })));
    },
  };
}
