// Runs compiled LQL over a small real store: the CTE `edge_logs` reads source `edge.logs.prod`, as
// logs.all's do, so tests can state LQL → SQL text → rows with rows written down by hand.

import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { querySql } from '../../src/endpoints/query-sql.ts';
import { printSql } from '../../src/sql/print.ts';
import type { Value } from '../../src/core/values.ts';
import { lql } from './helpers.ts';

export const NOW = Date.UTC(2025, 0, 15, 12) * 1000;
const MINUTE = 60_000_000;

/** `NOW - n minutes` in µs. */
export const minutesAgo = (n: number): number => NOW - n * MINUTE;

/** One SQL line: compiled LQL printed with whitespace runs collapsed. */
export function lqlSql(text: string): string {
  return printSql(lql(text)).replace(/\s+/g, ' ').trim();
}

/** The rows LQL gives over `events` stored in `edge.logs.prod`. */
export function lqlRows(text: string, events: Record<string, unknown>[]): Record<string, Value>[] {
  const store = new Store(defaultStoreConfig({}));
  store.source('edge.logs.prod')!.ingest(events, NOW);
  const sql = `WITH edge_logs AS (SELECT timestamp, id, event_message, metadata, '' AS project FROM \`edge.logs.prod\`) ${printSql(lql(text))}`;
  return querySql(store, sql, { nowUs: NOW });
}

/** Just the `id` column of lqlRows. */
export function lqlIds(text: string, events: Record<string, unknown>[]): unknown[] {
  return lqlRows(text, events).map((r) => r['id']);
}
