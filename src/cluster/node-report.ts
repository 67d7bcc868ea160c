// What each cluster node reports for /api/sources and /health (SPEC §13, issue 20 item 3), and how the reports
// add up: every partition is counted once, from the node owning it; a partition whose owner did not answer (or
// is still rebuilding it) is listed as missing rather than silently left out.

import type { SourceInfo } from '../endpoints/service-types.ts';
import type { Store } from '../store/store.ts';
import type { MemberInfo } from './membership.ts';
import { partitionOf } from './partition.ts';
import { ownerOf } from './rendezvous.ts';

export interface NodeReport {
  node: string;
  owned: number[];
  rebuilding: number[];
  /** Per source: rows evicted on this node, and [partition, rows, min ts, max ts] per caught-up owned partition holding rows. */
  sources: { name: string; evicted: number; parts: [number, number, number, number][] }[];
}

/** A member's answer: its report, or null when it did not answer in time. */
export interface NodeAnswer {
  id: string;
  url: string;
  report: NodeReport | null;
}

/** This node's report: figures of the partitions it owns and has caught up on. */
export function localReport(store: Store, nodeId: string, status: { owned: number[]; rebuilding: number[] }, partitions: number): NodeReport {
  const ready = new Set(status.owned.filter((p) => !status.rebuilding.includes(p)));
  return {
    node: nodeId,
    owned: status.owned,
    rebuilding: status.rebuilding,
    sources: store.sources().map((s) => ({
      name: s.def.name,
      evicted: s.evicted,
      parts: [...s.groupStats((project) => partitionOf(project ?? '', partitions))]
        .filter(([p]) => ready.has(p))
        .map(([p, g]): [number, number, number, number] => [p, g.rows, g.minTs, g.maxTs]),
    })),
  };
}

export interface ClusterTotals {
  sources: SourceInfo[];
  /** Partitions counted nowhere: their owner did not answer, or is rebuilding them. */
  missing: number[];
  /** Members that did not answer in time. */
  unanswered: string[];
  /** Rows per source each answering member contributed (its owned, caught-up partitions). */
  perNode: Map<string, Record<string, number>>;
}

/** Adds the answers up over `sources` (id and name, the same on every node). */
export function addUp(answers: readonly NodeAnswer[], partitions: number, sources: readonly { id: string; name: string }[]): ClusterTotals {
  const ids = answers.map((a) => a.id);
  const byId = new Map(answers.map((a) => [a.id, a.report]));
  const countedFrom = new Map<number, string>();
  const missing: number[] = [];
  for (let p = 0; p < partitions; p++) {
    const owner = ownerOf(p, ids);
    const rep = owner === null ? null : byId.get(owner) ?? null;
    if (rep && rep.owned.includes(p) && !rep.rebuilding.includes(p)) countedFrom.set(p, rep.node);
    else missing.push(p);
  }
  const perNode = new Map<string, Record<string, number>>();
  const out = sources.map((def): SourceInfo => {
    const s: SourceInfo = { id: def.id, name: def.name, rows: 0, min_timestamp: null, max_timestamp: null, evicted: 0 };
    for (const a of answers) {
      const src = a.report?.sources.find((x) => x.name === def.name);
      if (!src) continue;
      s.evicted += src.evicted;
      let rows = 0;
      for (const [p, n, min, max] of src.parts) {
        if (countedFrom.get(p) !== a.id) continue;
        rows += n;
        s.min_timestamp = s.min_timestamp === null ? min : Math.min(s.min_timestamp, min);
        s.max_timestamp = s.max_timestamp === null ? max : Math.max(s.max_timestamp, max);
      }
      s.rows += rows;
      const node = perNode.get(a.id) ?? {};
      node[def.name] = rows;
      perNode.set(a.id, node);
    }
    return s;
  });
  return { sources: out, missing, unanswered: answers.filter((a) => a.report === null).map((a) => a.id), perNode };
}

/** The members a report is asked of: the live ones, and this node even before its first heartbeat is seen. */
export function askedMembers(members: ReadonlyMap<string, MemberInfo>, self: MemberInfo): MemberInfo[] {
  return members.has(self.id) ? [...members.values()] : [...members.values(), self];
}
