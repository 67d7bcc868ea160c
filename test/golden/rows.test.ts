// Golden results: each case of test/golden/rows/*.slt runs over the fixture events (ingested out
// of order) and must give exactly the expected JSON body or error code.

import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { querySqlJson } from '../../src/endpoints/query-sql.ts';
import { RingqlError } from '../../src/core/errors.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';
import { goldenInputs, parseSlt, printSlt, UPDATE } from './golden-files.ts';

const dir = fileURLToPath(new URL('./rows/', import.meta.url));

function run(sql: string, params: Map<string, string>, store: ReturnType<typeof fixtureStore>): string {
  try {
    return querySqlJson(store, sql, { params, nowUs: FIXTURE_NOW });
  } catch (err) {
    if (err instanceof RingqlError) return `error ${err.code}`;
    throw err;
  }
}

describe('SQL + data → rows goldens', () => {
  const store = fixtureStore();
  for (const file of goldenInputs(dir, '.slt')) {
    if (UPDATE) {
      const old = parseSlt(readFileSync(file, 'utf8'));
      writeFileSync(file, printSlt(old.map((c) => ({ ...c, expected: run(c.sql, c.params, store) }))));
    }
    const cases = parseSlt(readFileSync(file, 'utf8'));
    describe(file.split('/').pop()!, () => {
      for (const c of cases) {
        it(c.name, () => {
          expect(run(c.sql, c.params, store)).toBe(c.expected);
        });
      }
    });
  }
});
