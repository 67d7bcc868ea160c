// In-flight request slots per kind (ingest, query runs, everything else), so a flood of one kind —
// say stalled ingest bodies — sheds only that kind with 503 `overloaded`; `/health` never takes a slot.

import { RingqlError } from '../core/errors.ts';
import type { InflightLimits, RequestKind } from './http-limits.ts';

const VARS: Record<RequestKind, string> = { ingest: 'RINGQL_MAX_INFLIGHT_INGEST', query: 'RINGQL_MAX_INFLIGHT_QUERY', other: 'RINGQL_MAX_INFLIGHT_OTHER' };

export class Admission {
  private readonly inflight: Record<RequestKind, number> = { ingest: 0, query: 0, other: 0 };

  constructor(private readonly limits: InflightLimits) {}

  /** Takes a slot of `kind`, or throws 503 `overloaded` with Retry-After. Each admit is paired with one release. */
  admit(kind: RequestKind): void {
    const limit = this.limits[kind];
    if (this.inflight[kind] >= limit) {
      throw new RingqlError('overloaded', `The server is busy: ${limit} ${kind} requests are in progress (${VARS[kind]}); retry shortly`, { retry_after: 1 });
    }
    this.inflight[kind]++;
  }

  release(kind: RequestKind): void {
    this.inflight[kind]--;
  }

  counts(): Record<RequestKind, number> {
    return { ...this.inflight };
  }
}
