// How often the engine parses, binds, plans and physically plans (and reuses a prepared plan instead):
// exported so tests can show that a request to a saved endpoint does none of the first four.

export interface EngineCounters {
  parses: number;
  binds: number;
  /** Logical rewrites (plan/rules.ts optimize). */
  plans: number;
  physicalPlans: number;
  /** Requests answered from a prepared plan (as is, or moved to the request's clock). */
  reuses: number;
}

export const engineCounters: EngineCounters = { parses: 0, binds: 0, plans: 0, physicalPlans: 0, reuses: 0 };

/** A copy of the counters now (subtract two snapshots to see what one request did). */
export function snapshotCounters(): EngineCounters {
  return { ...engineCounters };
}
