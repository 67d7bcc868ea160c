// Ingest over HTTP for the cluster bench: bodies spread over the target nodes, `inflight` requests per
// node; per-node events/s, the latency from POST to its 200 (the acknowledgement), and the CPU each
// process group spent per event (read from /proc around the run).

import type { ClusterBody } from './cluster-events.ts';
import { CLUSTER_SOURCE } from './cluster-events.ts';
import { BENCH_TOKEN, cpuSeconds } from './cluster-procs.ts';
import { figure, type Figure } from './stats.ts';

export interface IngestFigures {
  events: number;
  wallS: number;
  eventsPerS: number;
  /** events/s acknowledged by each target node. */
  perNode: number[];
  /** ms from POST to 200, per 500-event request. */
  ackMs: Figure;
  p99Ms: number;
  /** CPU µs per event, per process group given (e.g. ringql nodes, nats servers). */
  cpuUsPerEvent: Record<string, number>;
  clientCpuUsPerEvent: number;
}

function p99(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]!;
}

export async function ingestOver(bases: readonly string[], bodies: readonly ClusterBody[], inflight: number, groups: Record<string, number[]>): Promise<IngestFigures> {
  const cpu0 = Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, pids.reduce((s, p) => s + cpuSeconds(p), 0)]));
  const client0 = process.cpuUsage();
  const latencies: number[] = [];
  const perNodeEvents = bases.map(() => 0);
  let next = 0;
  const t0 = performance.now();
  const worker = async (n: number): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= bodies.length) return;
      const b = bodies[i]!;
      const t = performance.now();
      const r = await fetch(`${bases[n]}/api/logs?source_name=${CLUSTER_SOURCE}`, { method: 'POST', headers: { 'X-API-KEY': BENCH_TOKEN, 'Content-Type': 'application/json' }, body: b.bytes });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`ingest on ${bases[n]} answered ${r.status}: ${text.slice(0, 300)}`);
      latencies.push(performance.now() - t);
      perNodeEvents[n]! += b.events;
    }
  };
  await Promise.all(bases.flatMap((_, n) => Array.from({ length: inflight }, () => worker(n))));
  const wallS = (performance.now() - t0) / 1000;
  const events = perNodeEvents.reduce((a, b) => a + b, 0);
  const client = process.cpuUsage(client0);
  const cpuUsPerEvent: Record<string, number> = {};
  for (const [k, pids] of Object.entries(groups)) cpuUsPerEvent[k] = ((pids.reduce((s, p) => s + cpuSeconds(p), 0) - cpu0[k]!) * 1e6) / events;
  return {
    events, wallS, eventsPerS: events / wallS, perNode: perNodeEvents.map((e) => e / wallS), ackMs: figure(latencies), p99Ms: p99(latencies),
    cpuUsPerEvent, clientCpuUsPerEvent: (client.user + client.system) / events,
  };
}
