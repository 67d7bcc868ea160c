// The processes of the cluster bench: ringql nodes in cluster mode (or one plain node) as children on
// loopback, their CPU time from /proc, their /health, and waiting until the members share the partitions.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startMainProcess } from '../test/helpers/main-process.ts';

export const BENCH_TOKEN = 'bench-token';
export const BENCH_PARTITIONS = 16;

export interface BenchNode {
  id: string;
  base: string;
  child: ChildProcess;
  /** Its RINGQL_STATE_DIR (removed by stopNode). */
  stateDir: string;
  /** stderr and stdout lines, with the time each arrived (performance.now()). */
  lines: { t: number; line: string }[];
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

const COMMON = {
  RINGQL_ACCESS_TOKENS: BENCH_TOKEN, RINGQL_RETENTION_HOURS: '48', RINGQL_MAX_ROWS_PER_SOURCE: '20000000',
};

/** A ringql node: in cluster mode when `natsUrls` is given, else one node with its write-ahead log. */
export async function startBenchNode(id: string, natsUrls: string[] | null): Promise<BenchNode> {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), `ringql-cbench-${id}-`));
  const env: Record<string, string> = { ...COMMON, RINGQL_STATE_DIR: stateDir };
  if (natsUrls) Object.assign(env, { RINGQL_NATS_URL: natsUrls.join(','), RINGQL_PARTITIONS: String(BENCH_PARTITIONS), RINGQL_NODE_ID: id });
  const child = await startMainProcess(port, env);
  const node: BenchNode = { id, base: `http://127.0.0.1:${port}`, child, stateDir, lines: [] };
  const keep = (d: Buffer): void => { for (const line of d.toString().split('\n')) if (line) node.lines.push({ t: performance.now(), line }); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return node;
}

export interface ClusterHealth { node: string; owned: number[]; rebuilding: number[] }

export async function clusterHealth(n: BenchNode): Promise<ClusterHealth> {
  const h = await (await fetch(`${n.base}/health`)).json() as { cluster: ClusterHealth };
  return h.cluster;
}

/** Bytes the node's store holds (what RINGQL_MAX_MEMORY counts), from /health. */
export async function storeBytes(n: BenchNode): Promise<number> {
  const h = await (await fetch(`${n.base}/health`)).json() as { memory_budget?: { used_bytes?: number } };
  return h.memory_budget?.used_bytes ?? NaN;
}

/** Waits until the live nodes own every partition exactly once and none is rebuilding. */
export async function waitSettled(nodes: readonly BenchNode[], timeoutMs = 60_000): Promise<ClusterHealth[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const hs = await Promise.all(nodes.map(clusterHealth));
    const owned = hs.flatMap((h) => h.owned).sort((a, b) => a - b);
    const whole = owned.length === BENCH_PARTITIONS && owned.every((p, i) => p === i);
    if (whole && hs.every((h) => h.rebuilding.length === 0 && h.owned.length > 0)) return hs;
    if (Date.now() > until) throw new Error(`the cluster did not settle: ${JSON.stringify(hs)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Stops the node (SIGKILL after 10 s) and removes its state directory. */
export async function stopNode(n: BenchNode, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (n.child.exitCode === null && n.child.signalCode === null) {
    const done = new Promise<void>((r) => n.child.once('exit', () => r()));
    n.child.kill(signal);
    await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
    if (n.child.exitCode === null && n.child.signalCode === null) n.child.kill('SIGKILL');
  }
  rmSync(n.stateDir, { recursive: true, force: true });
}
