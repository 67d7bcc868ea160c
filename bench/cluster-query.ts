// Query load for the cluster bench: wrk (autocannon when wrk is missing) against one node for `seconds`,
// with the CPU each ringql process spent per answered request (the owner's, and the forwarder's when the
// request went to a node that does not own the project).

import { load, type LoadFigure } from './http-bench.ts';
import { cpuSeconds, type BenchNode } from './cluster-procs.ts';

export interface QueryFigure extends LoadFigure {
  /** CPU µs per request of each node given, by node id. */
  cpuUsPerRequest: Record<string, number>;
}

export const QUERY_PATHS = {
  'logs.all (computed each time)': (project: string) => `/api/endpoints/query/logs.all?project=${project}`,
  'usage.api-counts daily (cached)': (project: string) => `/api/endpoints/query/usage.api-counts?interval=daily&project=${project}`,
} as const;

export type QueryName = keyof typeof QUERY_PATHS;

/** Loads `target` with `path` and reads the CPU of every node in `watch` around it. */
export async function queryLoad(target: BenchNode, path: string, watch: readonly BenchNode[], seconds: number, connections = 8): Promise<QueryFigure> {
  const warm = await fetch(target.base + path, { headers: { 'X-API-KEY': 'bench-token' } });
  const text = await warm.text();
  if (warm.status !== 200) throw new Error(`${path} on ${target.id} answered ${warm.status}: ${text.slice(0, 300)}`);
  const cpu0 = watch.map((n) => cpuSeconds(n.child.pid!));
  const f = await load(target.base + path, seconds, connections);
  const requests = f.reqPerSec * seconds;
  const cpuUsPerRequest: Record<string, number> = {};
  watch.forEach((n, i) => { cpuUsPerRequest[n.id] = ((cpuSeconds(n.child.pid!) - cpu0[i]!) * 1e6) / requests; });
  return { ...f, cpuUsPerRequest };
}

export interface SpreadFigure {
  /** req/s each node answered while all were loaded at once. */
  perNode: number[];
  total: number;
  p50ms: number[];
  non2xx: number;
}

/** One wrk per node at the same time, node i asked for `pathFor(i)`. */
export async function spreadLoad(nodes: readonly BenchNode[], pathFor: (i: number) => string, seconds: number, connections = 8): Promise<SpreadFigure> {
  const fs = await Promise.all(nodes.map((n, i) => load(n.base + pathFor(i), seconds, connections)));
  return { perNode: fs.map((f) => f.reqPerSec), total: fs.reduce((a, f) => a + f.reqPerSec, 0), p50ms: fs.map((f) => f.p50ms), non2xx: fs.reduce((a, f) => a + f.non2xx, 0) };
}
