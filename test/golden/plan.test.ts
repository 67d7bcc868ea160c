// Golden plans: each test/golden/plan/*.sql must EXPLAIN to its .plan.txt (rules included:
// folded parameters, project and time range pushed into scans, sorts satisfied by scan order).

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { explainSql } from '../../src/endpoints/query-sql.ts';
import { fixtureStore, FIXTURE_NOW } from '../helpers/fixture-store.ts';
import { expectedFor, goldenInputs } from './golden-files.ts';

const dir = fileURLToPath(new URL('./plan/', import.meta.url));

describe('SQL → plan goldens', () => {
  const store = fixtureStore();
  for (const file of goldenInputs(dir, '.sql')) {
    it(file.split('/').pop()!, () => {
      let text = readFileSync(file, 'utf8');
      const endpoint = /^-- endpoint (\S+)$/m.exec(text)?.[1];
      if (endpoint) text = readFileSync(fileURLToPath(new URL(`../../data/endpoints/${endpoint}.sql`, import.meta.url)), 'utf8') + '\n' + text;
      const params = new Map<string, string | null>();
      for (const m of text.matchAll(/^-- param (\w+)=(.*)$/gm)) params.set(m[1]!, m[2]!);
      const actual = explainSql(store, text, { params, nowUs: FIXTURE_NOW }) + '\n';
      expect(actual).toBe(expectedFor(file.replace(/\.sql$/, '.plan.txt'), actual));
    });
  }
});
