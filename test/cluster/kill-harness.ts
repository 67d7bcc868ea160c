// The cluster kill test (issue 20, "Done when"): 3 nats-servers and 3 ringql nodes under continuous
// ingest and queries; kill -9 a node, later a nats-server, later restart both; then, once quiet, every
// acknowledged event is counted exactly once on every node, and every node answers with the same bytes.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startClusterProcs, type ClusterProcs } from './cluster-procs.ts';
import { KillLedger } from './kill-ledger.ts';
import { COUNT_SQL, publisherLoop, query, queryLoop, sleep, type LoopOptions } from './kill-loops.ts';

export interface KillTestOptions {
  /** Seconds of each phase: before the node kill, between kills, before and after the restarts. */
  phaseSeconds: number;
  projects: number;
  partitions: number;
  publishers: number;
  queriers: number;
  loop: LoopOptions;
  queryPauseMs: number;
  /** How long the quiet period may take to converge (ms). */
  settleMs: number;
  log: (line: string) => void;
  /** Keep the directory with the node and server logs (default: removed when the run passes). */
  keepDir?: boolean;
}

export interface KillTestResult {
  ledger: KillLedger;
  dir: string;
  /** Milliseconds from the end of ingest until every node answered every project exactly. */
  settledMs: number;
}

export async function runKillTest(o: KillTestOptions): Promise<KillTestResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ringql-kill-'));
  const ledger = new KillLedger(Array.from({ length: o.projects }, (_, i) => `kp${i}`));
  const procs = await startClusterProcs(dir, { nodes: 3, partitions: o.partitions });
  let stopped = false;
  let settledMs = -1;
  try {
    ledger.disrupt('cluster started'); // the nodes still agree on their members: 503s are expected for a moment
    o.log(`cluster up in ${dir}: nats ${procs.nats.urls.join(' ')}, nodes ${procs.nodes.map((n) => `${n.id}:${n.port}`).join(' ')}`);
    const loops = [
      ...Array.from({ length: o.publishers }, (_, i) => publisherLoop(`w${i}`, procs.nodes, ledger, o.loop, () => stopped)),
      ...Array.from({ length: o.queriers }, () => queryLoop(procs.nodes, ledger, o.queryPauseMs, () => stopped)),
    ];
    await schedule(procs, ledger, o);
    stopped = true;
    await Promise.all(loops);
    const t0 = Date.now();
    await verifyQuiet(procs, ledger, o);
    settledMs = Date.now() - t0;
    await checkOwnership(procs, ledger, o.partitions, o.log);
  } finally {
    stopped = true;
    await procs.stop();
  }
  if (ledger.violations.length === 0 && !o.keepDir) rmSync(dir, { recursive: true, force: true });
  return { ledger, dir, settledMs };
}

async function schedule(procs: ClusterProcs, ledger: KillLedger, o: KillTestOptions): Promise<void> {
  const phase = o.phaseSeconds * 1000;
  const node = procs.nodes[1]!;
  const server = procs.nats.servers[2]!;
  await sleep(phase);
  o.log(`kill -9 ${node.id}`);
  ledger.disrupt(`kill -9 ${node.id}`);
  await node.kill();
  await sleep(phase);
  o.log(`kill -9 nats-server ${server.name}`);
  ledger.disrupt(`kill -9 nats ${server.name}`);
  await server.kill();
  await sleep(phase);
  o.log(`restart ${node.id} and nats-server ${server.name}`);
  ledger.disrupt('restart');
  await Promise.all([server.start(), node.start()]);
  ledger.disrupt('restarted');
  await sleep(phase);
}

/** Once quiet: every node answers every project with exactly the acknowledged events plus the stored uncertain ones, identically. */
async function verifyQuiet(procs: ClusterProcs, ledger: KillLedger, o: KillTestOptions): Promise<void> {
  const deadline = Date.now() + o.settleMs;
  const expected = await expectedCounts(procs, ledger, deadline);
  for (const project of ledger.projects) {
    const want = `{"result":[{"n":${expected.get(project)},"d":${expected.get(project)}}]}`;
    let bodies: string[] = [];
    for (;;) {
      bodies = await Promise.all(procs.nodes.map(async (n) => (await query(n.port, project, COUNT_SQL)).body));
      if (bodies.every((b) => b === want) || Date.now() > deadline) break;
      await sleep(250);
    }
    bodies.forEach((b, i) => { if (b !== want) ledger.violate(`quiet: ${procs.nodes[i]!.id} ${project}: ${b.slice(0, 200)}, want ${want}`); });
    // Rows, not only counts: the owner's bytes and the forwarded bytes are the same.
    const rows = await Promise.all(procs.nodes.map(async (n) => query(n.port, project, 'select id, event_message from edge_logs order by id limit 200')));
    ledger.figures.forwardedChecks++;
    if (rows.some((r) => r.status !== 200 || r.body !== rows[0]!.body)) ledger.violate(`quiet: ${project}: the nodes answered different rows (${rows.map((r) => `${r.status}/${r.body.length}B`).join(', ')})`);
  }
}

/** Once quiet, the nodes split the partitions between them: each held by exactly one, none rebuilding. */
async function checkOwnership(procs: ClusterProcs, ledger: KillLedger, partitions: number, log: (line: string) => void): Promise<void> {
  const held: number[] = [];
  for (const n of procs.nodes) {
    const h = (await (await fetch(`http://127.0.0.1:${n.port}/health`)).json()) as { cluster: { owned: number[]; rebuilding: number[] } };
    log(`${n.id} owns ${h.cluster.owned.join(',')}${h.cluster.rebuilding.length ? `, rebuilding ${h.cluster.rebuilding.join(',')}` : ''}`);
    held.push(...h.cluster.owned);
    if (h.cluster.rebuilding.length) ledger.violate(`quiet: ${n.id} still rebuilds partitions ${h.cluster.rebuilding.join(',')}`);
  }
  const want = Array.from({ length: partitions }, (_, i) => i);
  if (held.sort((a, b) => a - b).join() !== want.join()) ledger.violate(`quiet: the nodes hold partitions ${held.join(',')}, want each of ${want.join(',')} once`);
}

/** Acknowledged events per project, plus each uncertain batch found stored (whole, or else a violation). */
async function expectedCounts(procs: ClusterProcs, ledger: KillLedger, deadline: number): Promise<Map<string, number>> {
  const out = new Map(ledger.acked);
  for (const u of ledger.uncertain) {
    const sql = `select count(*) as n, count(distinct id) as d from edge_logs where starts_with(id, '${u.prefix}')`;
    let r = await query(procs.nodes[0]!.port, u.project, sql);
    while (r.status !== 200 && Date.now() < deadline) { await sleep(250); r = await query(procs.nodes[0]!.port, u.project, sql); }
    const row = r.status === 200 ? (JSON.parse(r.body) as { result: { n: number; d: number }[] }).result[0]! : null;
    if (!row || (row.n !== 0 && row.n !== u.events) || row.n !== row.d) ledger.violate(`quiet: the unacknowledged batch ${u.prefix}* has ${r.body.slice(0, 200)}: want none or ${u.events} once`);
    else out.set(u.project, out.get(u.project)! + row.n);
  }
  return out;
}
