// `npx tsx bench/cluster-run.ts [--quick]` (also part of `npm run bench`): 3 nats-server + 3 ringql nodes
// on loopback against one plain node in the same run — ingest, acknowledgement latency, owner and
// forwarded query rates, a partition rebuild after kill -9, and per-component costs; writes bench/CLUSTER-RUN.md.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { partitionOf } from '../src/cluster/partition.ts';
import { startNatsCluster } from '../src/cluster/nats-servers.ts';
import { clusterBodies, totalsPerProject, projectName, type ClusterBody } from './cluster-events.ts';
import { consumeCost, frontCosts, publishCost } from './cluster-components.ts';
import { ingestOver } from './cluster-ingest.ts';
import { BENCH_PARTITIONS, clusterHealth, cpuSeconds, startBenchNode, stopNode, storeBytes, waitSettled, type BenchNode } from './cluster-procs.ts';
import { QUERY_PATHS, queryLoad, spreadLoad, type QueryName, type SpreadFigure } from './cluster-query.ts';
import { checkCounts, killAndRebuild } from './cluster-rebuild.ts';
import { renderCluster, type ClusterResults, type QueryPair } from './cluster-report.ts';
import { progress } from './stats.ts';

const PROJECTS = 24;

const cpuOf = (pids: readonly number[]): number => pids.reduce((a, p) => a + cpuSeconds(p), 0);

/** Ingest + queries on one plain node (write-ahead log on), the baseline of the ratios. */
async function singleNode(bodies: readonly ClusterBody[], project: string, seconds: number): Promise<Pick<ClusterResults, 'single' | 'singleQueries'>> {
  const node = await startBenchNode('single', null);
  try {
    const single = await ingestOver([node.base], bodies, 12, { ringql: [node.child.pid!] });
    const singleQueries = {} as Record<QueryName, Awaited<ReturnType<typeof queryLoad>>>;
    for (const [name, path] of Object.entries(QUERY_PATHS) as [QueryName, (p: string) => string][]) singleQueries[name] = await queryLoad(node, path(project), [node], seconds);
    return { single, singleQueries };
  } finally {
    await stopNode(node);
  }
}

/** Polls one node until every project counts what was acknowledged; seconds after the last ack. */
async function timeToVisible(node: BenchNode, totals: ReadonlyMap<string, number>): Promise<number> {
  const t0 = performance.now();
  while ((await checkCounts([node], totals)).length > 0) {
    if (performance.now() - t0 > 120_000) throw new Error('acknowledged events were not all visible within 120 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return (performance.now() - t0) / 1000;
}

/** Owner against forwarded for one project (nodes[0] owns it), then all nodes loaded at once. */
async function queryPhases(nodes: readonly BenchNode[], project: string, ownProject: readonly string[], seconds: number): Promise<Pick<ClusterResults, 'queries' | 'spread'>> {
  const [owner, forwarder] = [nodes[0]!, nodes[1]!];
  progress(`cluster: queries for ${project} on its owner and forwarded`);
  const queries = {} as Record<QueryName, QueryPair>;
  for (const [name, path] of Object.entries(QUERY_PATHS) as [QueryName, (p: string) => string][]) {
    queries[name] = { owner: await queryLoad(owner, path(project), [owner, forwarder], seconds), forwarded: await queryLoad(forwarder, path(project), [owner, forwarder], seconds) };
  }
  progress('cluster: all three nodes queried at once, own projects then a neighbour\'s');
  const spread = {} as Record<QueryName, { own: SpreadFigure; neighbour: SpreadFigure }>;
  for (const [name, path] of Object.entries(QUERY_PATHS) as [QueryName, (p: string) => string][]) {
    spread[name] = { own: await spreadLoad(nodes, (i) => path(ownProject[i]!), seconds), neighbour: await spreadLoad(nodes, (i) => path(ownProject[(i + 1) % nodes.length]!), seconds) };
  }
  return { queries, spread };
}

export async function clusterBench(quick: boolean): Promise<ClusterResults> {
  const seconds = quick ? 3 : 8;
  const bodies = clusterBodies(quick ? 60 : 400, PROJECTS, Date.now());
  const totals = totalsPerProject(bodies);
  const started = performance.now();
  const loadStart = loadavg().map((v) => v.toFixed(1)).join(' ');
  progress(`cluster: ${bodies.length * 500} events in 500-event bodies over ${PROJECTS} projects; per-component costs in-process`);
  const front = frontCosts(bodies);
  const natsDir = mkdtempSync(join(tmpdir(), 'ringql-cbench-nats-'));
  const nats = await startNatsCluster({ dir: natsDir, partitions: BENCH_PARTITIONS });
  const natsPids = nats.servers.map((s) => s.process!.pid!);
  const nodes: BenchNode[] = [];
  try {
    progress('cluster: publish + ack cost on a scratch R3 stream');
    const publish = await publishCost(nats.urls, natsPids, bodies, 12);
    const projects = [...totals.keys()];
    progress('cluster: starting 3 ringql nodes');
    for (const id of ['node1', 'node2', 'node3']) nodes.push(await startBenchNode(id, nats.urls));
    const settled = await waitSettled(nodes);
    const owner = nodes[0]!, forwarder = nodes[1]!, victim = nodes[2]!;
    const project = projects.find((p) => settled[0]!.owned.includes(partitionOf(p, BENCH_PARTITIONS))) ?? projectName(0);
    // The baseline runs while the cluster nodes are up but idle (heartbeats only): both see the same machine.
    progress(`cluster: one plain node (baseline), queries for ${project}`);
    const base = await singleNode(bodies, project, seconds);
    progress('cluster: ingest over the 3 nodes');
    const ringqlPids = nodes.map((n) => n.child.pid!);
    const cpu0 = { ringql: cpuOf(ringqlPids), nats: cpuOf(natsPids) };
    const ingest = await ingestOver(nodes.map((n) => n.base), bodies, 4, { ringql: ringqlPids, nats: natsPids });
    const visibleS = await timeToVisible(owner, totals);
    const untilVisibleUs = { ringql: ((cpuOf(ringqlPids) - cpu0.ringql) * 1e6) / ingest.events, nats: ((cpuOf(natsPids) - cpu0.nats) * 1e6) / ingest.events };
    const heldBytes = await Promise.all(nodes.map(storeBytes));
    const perPartition = new Map<number, number>();
    for (const [p, n] of totals) perPartition.set(partitionOf(p, BENCH_PARTITIONS), (perPartition.get(partitionOf(p, BENCH_PARTITIONS)) ?? 0) + n);
    const biggest = [...perPartition].sort((a, b) => b[1] - a[1])[0]![0];
    progress(`cluster: consume + store cost (partition ${biggest} replayed in-process)`);
    const consume = await consumeCost(nats.urls, natsPids, biggest);
    const ownProject = settled.map((h) => projects.find((p) => h.owned.includes(partitionOf(p, BENCH_PARTITIONS))) ?? project);
    const { queries, spread } = await queryPhases(nodes, project, ownProject, seconds);
    progress('cluster: kill -9 of one ringql node, rebuild on the survivors');
    const victimOwned = (await clusterHealth(victim)).owned;
    const rebuild = await killAndRebuild(victim, [owner, forwarder], victimOwned, totals);
    return {
      quick, events: bodies.length * 500, projects: PROJECTS, partitions: BENCH_PARTITIONS, front, publish, consume, consumePartition: biggest,
      ingest, untilVisibleUs, visibleS, heldBytes, queries, spread, rebuild, project, owned: settled.map((h) => h.owned), ...base, loadStart, minutes: (performance.now() - started) / 60_000,
    };
  } finally {
    for (const n of nodes) await stopNode(n, 'SIGKILL');
    await nats.stop();
    rmSync(natsDir, { recursive: true, force: true }); // the streams hold every event three times
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await clusterBench(process.argv.includes('--quick'));
  const text = renderCluster(r);
  writeFileSync(new URL('./CLUSTER-RUN.md', import.meta.url), text);
  process.stdout.write(text);
}
