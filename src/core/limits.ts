// The request and data limits that are not HTTP framing (those live in main.ts): query text length and
// nesting, events per batch, event nesting and field size, concurrent requests, field paths per source.
// Read from the environment once, validated (a bad value stops the start with the variable named).

import { availableParallelism } from 'node:os';

export interface Limits {
  /** Characters of a `sql` or `lql` text (and of a saved query). */
  maxQueryLength: number;
  /** Nesting depth of a query (parentheses, subqueries, expressions). */
  maxQueryDepth: number;
  /** Events in one ingest request. */
  maxEventsPerBatch: number;
  /** Nesting depth of objects/arrays inside one event. */
  maxEventDepth: number;
  /** UTF-8 bytes of one string (or key) inside an event. */
  maxFieldBytes: number;
  /** Requests being served at once; more are shed with 503 and Retry-After. */
  maxConcurrentRequests: number;
  /** Computed (uncached) queries running at once; more get 503 overloaded (RINGQL_MAX_CONCURRENT_QUERIES). */
  maxConcurrentQueries: number;
  /** Distinct field paths (nested ones too) one source's schema may hold beyond the SAMPLE-EVENTS ones. */
  maxFieldsPerSource: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxQueryLength: 100_000,
  maxQueryDepth: 64,
  maxEventsPerBatch: 10_000,
  maxEventDepth: 32,
  maxFieldBytes: 1024 * 1024,
  maxConcurrentRequests: 512,
  maxConcurrentQueries: 2 * availableParallelism(),
  maxFieldsPerSource: 10_000,
};

const VARS: [keyof Limits, string, number, number][] = [
  ['maxQueryLength', 'RINGQL_MAX_QUERY_LENGTH', 16, 10_000_000],
  ['maxQueryDepth', 'RINGQL_MAX_QUERY_DEPTH', 4, 1000],
  ['maxEventsPerBatch', 'RINGQL_MAX_EVENTS_PER_BATCH', 1, 10_000_000],
  ['maxEventDepth', 'RINGQL_MAX_EVENT_DEPTH', 2, 1000],
  ['maxFieldBytes', 'RINGQL_MAX_FIELD_BYTES', 64, 2 ** 30],
  ['maxConcurrentRequests', 'RINGQL_MAX_CONCURRENT_REQUESTS', 1, 1_000_000],
  ['maxConcurrentQueries', 'RINGQL_MAX_CONCURRENT_QUERIES', 1, 10_000],
  ['maxFieldsPerSource', 'RINGQL_MAX_FIELDS_PER_SOURCE', 16, 1_000_000],
];

export function limitsFromEnv(env: Record<string, string | undefined> = process.env): Limits {
  const out: Limits = { ...DEFAULT_LIMITS };
  for (const [key, name, min, max] of VARS) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const v = Number(raw.trim());
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${name}="${raw}" is not valid: expected an integer from ${min} to ${max}`);
    out[key] = v;
  }
  return out;
}
