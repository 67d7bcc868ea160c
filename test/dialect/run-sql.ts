// Helpers for the dialect tests: run SQL over the fixture store (clock fixed) and catch its error.

import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';
import { querySql } from '../../src/endpoints/query-sql.ts';
import { RingqlError } from '../../src/core/errors.ts';
import type { Value } from '../../src/core/values.ts';

const store = fixtureStore();

export function rows(sql: string): Record<string, Value>[] {
  return querySql(store, sql, { nowUs: FIXTURE_NOW });
}

/** The error a query fails with (code and message); fails the test if it runs. */
export function errorOf(sql: string): { code: string; message: string } {
  try {
    rows(sql);
  } catch (e) {
    if (e instanceof RingqlError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error(`expected an error from: ${sql}`);
}
