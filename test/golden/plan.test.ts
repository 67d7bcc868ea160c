// Golden plans: each test/golden/plan/*.sql must EXPLAIN to its .plan.txt (logical: folded parameters,
// project and time range pushed into scans, sorts satisfied by scan order) and its .physical.txt (the
// operators chosen and the named rules that chose them).

import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { fixtureStore } from '../helpers/fixture-store.ts';
import { expectedFor, goldenInputs } from './golden-files.ts';
import { goldenPlans } from './explain-golden.ts';

const dir = fileURLToPath(new URL('./plan/', import.meta.url));

describe('SQL → plan goldens', () => {
  const store = fixtureStore();
  for (const file of goldenInputs(dir, '.sql')) {
    it(file.split('/').pop()!, () => {
      const { logical, physical } = goldenPlans(store, file);
      expect(logical + '\n').toBe(expectedFor(file.replace(/\.sql$/, '.plan.txt'), logical + '\n'));
      expect(physical + '\n').toBe(expectedFor(file.replace(/\.sql$/, '.physical.txt'), physical + '\n'));
    });
  }
});
