// Renders the cluster bench's figures (bench/cluster-run.ts) as Markdown: ingest and queries against one
// plain node measured in the same run, per-component costs, the rebuild after kill -9, and the model.

import { loadavg } from 'node:os';
import type { CpuCost, FrontCosts } from './cluster-components.ts';
import type { IngestFigures } from './cluster-ingest.ts';
import { model, type ModelInputs } from './cluster-model.ts';
import type { QueryFigure, QueryName, SpreadFigure } from './cluster-query.ts';
import type { RebuildFigures } from './cluster-rebuild.ts';
import { describeMachine } from './machine.ts';
import { num } from './stats.ts';

export interface QueryPair { owner: QueryFigure; forwarded: QueryFigure }

export interface ClusterResults {
  quick: boolean;
  events: number;
  projects: number;
  partitions: number;
  front: FrontCosts;
  publish: CpuCost;
  consume: CpuCost & { events: number };
  consumePartition: number;
  single: IngestFigures;
  singleQueries: Record<QueryName, QueryFigure>;
  ingest: IngestFigures;
  /** CPU µs per event from the start of ingest until every event was visible on the owners. */
  untilVisibleUs: { ringql: number; nats: number };
  visibleS: number;
  /** What each node's store held after ingest (bytes RINGQL_MAX_MEMORY counts). */
  heldBytes: number[];
  queries: Record<QueryName, QueryPair>;
  /** All nodes loaded at once: each asked for a project it owns, then for one its neighbour owns. */
  spread: Record<QueryName, { own: SpreadFigure; neighbour: SpreadFigure }>;
  rebuild: RebuildFigures;
  project: string;
  owned: number[][];
  loadStart: string;
  minutes: number;
}

const k0 = (x: number): string => Math.round(x).toLocaleString('en-US');

export function modelInputs(r: ClusterResults): ModelInputs {
  const q = r.queries['logs.all (computed each time)'];
  return {
    frontUs: r.untilVisibleUs.ringql - r.consume.cpuUs, consumeUs: r.consume.cpuUs, natsUs: r.untilVisibleUs.nats, bytesPerEvent: r.front.bytesPerEvent,
    queryUs: q.owner.cpuUsPerRequest.node1!, forwardUs: q.forwarded.cpuUsPerRequest.node2!,
  };
}

function ingestSection(r: ClusterResults): string[] {
  const s = r.single, c = r.ingest;
  return [
    '## Ingest over HTTP (500-event bodies of ~600 B edge events, 12 requests in flight in all)', '',
    '| | events/s (all nodes) | events/s per node | ack p50 ms (min–max) | ack p99 ms | ringql CPU µs/event | nats-server CPU µs/event (all 3) |',
    '|---|---|---|---|---|---|---|',
    `| one plain node (write-ahead log, fsync interval) | ${k0(s.eventsPerS)} | ${k0(s.eventsPerS)} | ${num(s.ackMs.median)} (${num(s.ackMs.min)}–${num(s.ackMs.max)}) | ${num(s.p99Ms)} | ${num(s.cpuUsPerEvent.ringql!)} | – |`,
    `| 3 ringql nodes + 3 nats-server (R3), 4 in flight per node | ${k0(c.eventsPerS)} | ${c.perNode.map(k0).join(' / ')} | ${num(c.ackMs.median)} (${num(c.ackMs.min)}–${num(c.ackMs.max)}) | ${num(c.p99Ms)} | ${num(c.cpuUsPerEvent.ringql!)} (${num(r.untilVisibleUs.ringql)} until stored on the owners) | ${num(c.cpuUsPerEvent.nats!)} (${num(r.untilVisibleUs.nats)}) |`,
    '', `Cluster ÷ single node: ingest ${num(c.eventsPerS / s.eventsPerS)}×, ack p50 ${num(c.ackMs.median / s.ackMs.median)}×. ` +
    `Every acknowledged event was queryable on its owner ${num(r.visibleS)} s after the last acknowledgement. Load generator CPU: ${num(c.clientCpuUsPerEvent)} µs/event. ` +
    `Each node's store then held ${r.heldBytes.map((b, i) => `node${i + 1} ${num(b / 2 ** 20)} MiB`).join(', ')} (the partitions it owns, nothing else).`, '',
  ];
}

function componentSection(r: ClusterResults): string[] {
  const f = r.front, p = r.publish, c = r.consume;
  const rest = r.untilVisibleUs.ringql - f.parseUs - f.validateUs - f.encodeUs - p.cpuUs - c.cpuUs;
  return [
    '## Per-component costs (each step alone, the nodes\' own code, in the bench process)', '',
    '| step | CPU µs/event | alone: events/s wall | nats-server CPU µs/event |', '|---|---|---|---|',
    `| parse the JSON body | ${num(f.parseUs)} | – | – |`,
    `| validate (stamp + the store's checks, nothing stored) | ${num(f.validateUs)} | – | – |`,
    `| encode into per-project messages (${num(f.bytesPerEvent)} B/event on the stream) | ${num(f.encodeUs)} | – | – |`,
    `| publish + ack on an R3 stream (client side) | ${num(p.cpuUs)} | ${k0(p.eventsPerS)} | ${num(p.natsCpuUs!)} |`,
    `| consume + store (replay of partition ${r.consumePartition}, ${k0(c.events)} events) | ${num(c.cpuUs)} | ${k0(c.eventsPerS)} | ${num(c.natsCpuUs!)} |`,
    `| the rest on the nodes (HTTP, responses, heartbeats): measured total − the steps above | ${num(rest)} | – | – |`, '',
  ];
}

function querySection(r: ClusterResults): string[] {
  const L = [
    `## Queries (project ${r.project}; wrk, 8 connections)`, '',
    '| endpoint | single node req/s | owner req/s | forwarded req/s | p50 ms single / owner / forwarded | owner CPU µs/req (direct, forwarded) | forwarder CPU µs/req | owner ÷ single | forwarded ÷ owner |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, q] of Object.entries(r.queries) as [QueryName, QueryPair][]) {
    const s = r.singleQueries[name];
    L.push(`| ${name} | ${k0(s.reqPerSec)} | ${k0(q.owner.reqPerSec)} | ${k0(q.forwarded.reqPerSec)} | ${num(s.p50ms)} / ${num(q.owner.p50ms)} / ${num(q.forwarded.p50ms)} | ` +
      `${num(q.owner.cpuUsPerRequest.node1!)}, ${num(q.forwarded.cpuUsPerRequest.node1!)} | ${num(q.forwarded.cpuUsPerRequest.node2!)} | ${num(q.owner.reqPerSec / s.reqPerSec)} | ${num(q.forwarded.reqPerSec / q.owner.reqPerSec)} |`);
  }
  const bad = Object.values(r.queries).reduce((a, q) => a + q.owner.non2xx + q.forwarded.non2xx, 0);
  L.push('', 'All three nodes loaded at once (one wrk per node, 8 connections each): each node asked for a project it owns, then for one its neighbour owns (every request forwarded).', '',
    '| endpoint | own projects: req/s per node | in all | neighbour\'s projects: req/s per node | in all | single node |', '|---|---|---|---|---|---|');
  for (const [name, sp] of Object.entries(r.spread) as [QueryName, { own: SpreadFigure; neighbour: SpreadFigure }][]) {
    L.push(`| ${name} | ${sp.own.perNode.map(k0).join(' / ')} | ${k0(sp.own.total)} | ${sp.neighbour.perNode.map(k0).join(' / ')} | ${k0(sp.neighbour.total)} | ${k0(r.singleQueries[name].reqPerSec)} |`);
  }
  const spreadBad = Object.values(r.spread).reduce((a, sp) => a + sp.own.non2xx + sp.neighbour.non2xx, 0);
  L.push('', `Non-2xx answers during the cluster query runs: ${bad + spreadBad}. Tool: ${r.queries['logs.all (computed each time)'].owner.tool}.`, '');
  return L;
}

function rebuildSection(r: ClusterResults): string[] {
  const b = r.rebuild;
  return [
    '## Rebuild after kill -9 of one ringql node', '',
    `The killed node owned partitions ${b.partitions.join(', ')} (${k0(b.events)} events). The survivors listed them as theirs ${num(b.takeoverS)} s after the kill ` +
    `(membership TTL 6 s, heartbeat every 2 s) and replayed them in ${num(b.rebuildS)} s: **${k0(b.eventsPerS)} events/s** (longest single partition logged: ${b.loggedMaxMs} ms). ` +
    `Every project then counted exactly the events acknowledged for it on both survivors: ${b.exactlyOnce ? 'yes' : `NO: ${b.mismatches.slice(0, 3).join('; ')}`}.`, '',
  ];
}

function modelSection(r: ClusterResults): string[] {
  const x = modelInputs(r);
  const L = [
    '## Model: k ringql nodes and 3 nats-servers (2 cores each) on separate machines, 1 Gbit/s links', '',
    `Inputs from this run: ringql ${num(x.frontUs)} µs/event where the batch arrives + ${num(x.consumeUs)} µs/event on the owner; nats-server ${num(x.natsUs)} µs/event (all three); ` +
    `${num(x.bytesPerEvent)} B/event on the stream; a computed logs.all query ${num(x.queryUs)} µs on its owner, forwarding ${num(x.forwardUs)} µs on the forwarder. ` +
    `Node i owns a share sᵢ of the partitions (rendezvous hashing over node1…nodek); clients spread requests over the nodes. ` +
    'Ingest ≈ min(10⁶ / maxᵢ(front/k + sᵢ·consume), nats-server CPU, network); queries ≈ 10⁶ / maxᵢ(sᵢ·q + (1−sᵢ)·fwd/k); ' +
    `one project lives on one node, so its queries stay at 10⁶/q. For comparison, one plain node spends ${num(r.single.cpuUsPerEvent.ringql!)} µs/event: ${k0(1e6 / r.single.cpuUsPerEvent.ringql!)} events/s on one core.`, '',
    '| k | busiest node\'s partitions | ingest: ringql nodes | nats-server CPU 3·2·10⁶/nats | network 3·125 MB/s ÷ (3·B) | ingest ≈ min | bottleneck | logs.all queries/s | one project\'s queries/s |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const k of [1, 2, 3, 6, 12]) {
    const m = model(x, k, r.partitions);
    L.push(`| ${k} | ${m.busiest} of ${r.partitions} | ${k0(m.ingestNodes)} | ${k0(m.ingestNats)} | ${k0(m.ingestNetwork)} | ${k0(m.ingest)} | ${m.bottleneck} | ${k0(m.queries)} | ${k0(m.hotProjectQueries)} |`);
  }
  L.push('');
  return L;
}

export function renderCluster(r: ClusterResults): string {
  const m = describeMachine();
  return [
    `# Cluster bench (bench/cluster-run.ts${r.quick ? ' --quick' : ''})`, '',
    `Run ${new Date().toISOString()} on ${m.cpu}, **${m.cores} cores shared by everything**: 3 nats-server, 3 ringql nodes, the load generator and whatever else ran on the machine ` +
    `(load average at start ${r.loadStart}, at end ${loadavg().map((v) => v.toFixed(1)).join(' ')}). ${k0(r.events)} events over ${r.projects} projects, ${r.partitions} partitions ` +
    `(owned: ${r.owned.map((o, i) => `node${i + 1} ${o.length}`).join(', ')}). Wall rates here measure this machine; CPU µs per event or request are what carry over to separate machines. ${num(r.minutes)} min.`, '',
    ...ingestSection(r), ...componentSection(r), ...querySection(r), ...rebuildSection(r), ...modelSection(r),
  ].join('\n');
}
