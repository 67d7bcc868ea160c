// The scaling model of bench/CLUSTER.md, from the per-component costs one run measured: how ingest and
// query capacity grow with k ringql nodes (one busy JS thread each) and 3 nats-servers, each on its own
// machine. Each term is a measured CPU cost per event or per request; the smallest term is the bottleneck.

import { ownedBy } from '../src/cluster/rendezvous.ts';

export interface ModelInputs {
  /** ringql CPU µs per event on the node that receives the batch: HTTP, parse, validate, encode, publish. */
  frontUs: number;
  /** ringql CPU µs per event on the partition's owner: receive from the stream, decode, store. */
  consumeUs: number;
  /** nats-server CPU µs per event, all servers together (R3: three stored copies, plus delivery). */
  natsUs: number;
  /** Stream payload bytes per event. */
  bytesPerEvent: number;
  /** ringql CPU µs per query on the owner. */
  queryUs: number;
  /** ringql CPU µs per query on a node that forwards it (its own side only). */
  forwardUs: number;
}

export interface ModelRow {
  k: number;
  /** Partitions the busiest node owns (rendezvous hashing over node1..nodek). */
  busiest: number;
  ingestNodes: number;
  ingestNats: number;
  ingestNetwork: number;
  ingest: number;
  bottleneck: string;
  queries: number;
  hotProjectQueries: number;
}

/** Each node's share of the partitions when the members are node1..nodek (how `npm run cluster` names them). */
export function partitionShares(k: number, partitions: number): number[] {
  const ids = Array.from({ length: k }, (_, i) => `node${i + 1}`);
  return ids.map((id) => ownedBy(id, partitions, ids).length / partitions);
}

/**
 * Clients spread requests evenly over the k nodes and traffic evenly over the partitions; node i owns a
 * share s_i of them. Per event node i spends front/k + s_i·consume; per query s_i·q + (1−s_i)·fwd/k (its
 * own projects' queries from every node, and forwarding the others of those it receives). The busiest node
 * saturates first. The 3 nats-servers have `natsCores` cores each (nats-server is multi-threaded), and
 * links of `linkBytesPerS` per machine.
 */
export function model(x: ModelInputs, k: number, partitions: number, natsServers = 3, natsCores = 2, linkBytesPerS = 125e6): ModelRow {
  const shares = partitionShares(k, partitions);
  const ingestNodes = Math.min(...shares.map((s) => 1e6 / (x.frontUs / k + s * x.consumeUs)));
  const ingestNats = (natsServers * natsCores * 1e6) / x.natsUs;
  // A stream leader receives each event once and sends it to 2 replicas and to the owner's consumer: the
  // leaders (spread over the servers) send about 3 payloads per event.
  const ingestNetwork = (natsServers * linkBytesPerS) / (3 * x.bytesPerEvent);
  const ingest = Math.min(ingestNodes, ingestNats, ingestNetwork);
  const bottleneck = ingest === ingestNodes ? 'ringql CPU (busiest node)' : ingest === ingestNats ? 'nats-server CPU' : 'network out of the stream leaders';
  const queries = Math.min(...shares.map((s) => 1e6 / (s * x.queryUs + ((1 - s) * x.forwardUs) / k)));
  return { k, busiest: Math.round(Math.max(...shares) * partitions), ingestNodes, ingestNats, ingestNetwork, ingest, bottleneck, queries, hotProjectQueries: 1e6 / x.queryUs };
}
