// What every per-source event builder receives: the PRNG, the current event's clock, id and
// timestamp value, the seeded pools, and whether this event comes from a container log shipper.

import { Rng } from './random.ts';
import { EventClock } from './time-format.ts';
import { ClientPool } from './client-pool.ts';
import type { Project } from './projects.ts';

export type GenEvent = Record<string, unknown>;

export interface GenContext {
  rng: Rng;
  clock: EventClock;
  clients: ClientPool;
  /** Pool of 64-hex TLS authenticator values (fresh strings per event would be costly and add nothing). */
  tlsHex: string[];
  /** Ingest worker ids of the edge pipeline. */
  workerIds: string[];
  /** The `id` of the event being built. */
  id: string;
  /** The `timestamp` value of the event being built (string in one of several forms, or epoch µs). */
  timestamp: string | number;
  /** True when the event should look like a container log shipper sent it (SAMPLE-EVENTS, last section). */
  shipper: boolean;
}

export type EventBuilder = (ctx: GenContext, project: Project) => GenEvent;

export function createContext(rng: Rng): GenContext {
  const tlsHex: string[] = [];
  for (let i = 0; i < 1024; i++) tlsHex.push(rng.hex(64));
  const workerIds: string[] = [];
  for (let i = 0; i < 24; i++) workerIds.push(rng.alnumUpper(6));
  return {
    rng,
    clock: new EventClock(),
    clients: new ClientPool(rng),
    tlsHex,
    workerIds,
    id: '',
    timestamp: '',
    shipper: false,
  };
}
