// The nine sources the generator writes: name, share of all events, which projects use the
// service, how often a container log shipper variant appears, and the event builder.

import { SOURCE_NAMES, type SourceName } from '../store/sources.ts';
import type { EventBuilder } from './context.ts';
import type { Project } from './projects.ts';
import { buildEdgeEvent } from './events-edge.ts';
import { buildPostgresEvent } from './events-postgres.ts';
import { buildFunctionRelayEvent } from './events-function-relay.ts';
import { buildFunctionRuntimeEvent } from './events-function-runtime.ts';
import { buildAuthEvent } from './events-auth.ts';
import { buildRealtimeEvent } from './events-realtime.ts';
import { buildStorageEvent } from './events-storage.ts';
import { buildRestEvent } from './events-rest.ts';
import { buildPoolerEvent } from './events-pooler.ts';

export interface GenSource {
  name: string;
  /** Share of all generated events (the shares sum to 1). */
  share: number;
  /** Share of this source's events shaped like a container log shipper's. */
  shipperShare: number;
  uses: (p: Project) => boolean;
  build: EventBuilder;
}

const all = (): boolean => true;

/** Per source (store/sources.ts names them, in order): its generator settings. */
const GEN: Readonly<Record<SourceName, Omit<GenSource, 'name'>>> = {
  'edge.logs.prod': { share: 0.55, shipperShare: 0.02, uses: all, build: buildEdgeEvent },
  'postgres.logs': { share: 0.15, shipperShare: 0, uses: all, build: buildPostgresEvent },
  'function-relay-logs': { share: 0.05, shipperShare: 0.03, uses: (p) => p.usesFunctions, build: buildFunctionRelayEvent },
  'function-runtime-events': { share: 0.05, shipperShare: 0, uses: (p) => p.usesFunctions, build: buildFunctionRuntimeEvent },
  'auth.logs.prod': { share: 0.06, shipperShare: 0.03, uses: all, build: buildAuthEvent },
  'realtime.logs.prod': { share: 0.04, shipperShare: 0.02, uses: (p) => p.usesRealtime, build: buildRealtimeEvent },
  'storage.logs.prod': { share: 0.04, shipperShare: 0.03, uses: (p) => p.usesStorage, build: buildStorageEvent },
  'rest.logs.prod': { share: 0.03, shipperShare: 0.02, uses: all, build: buildRestEvent },
  'pooler.logs.prod': { share: 0.03, shipperShare: 0.02, uses: all, build: buildPoolerEvent },
};

export const GEN_SOURCES: readonly GenSource[] = SOURCE_NAMES.map((name) => ({ name, ...GEN[name] }));

export const GEN_SOURCE_NAMES: readonly string[] = GEN_SOURCES.map((s) => s.name);

/**
 * Splits `total` events over the given sources in proportion to their shares, exactly
 * (largest remainder), so the counts always sum to `total`.
 */
export function splitCounts(total: number, sources: readonly GenSource[]): number[] {
  const sum = sources.reduce((a, s) => a + s.share, 0);
  const exact = sources.map((s) => (total * s.share) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) counts[order[k]![1]]! += 1;
  return counts;
}
