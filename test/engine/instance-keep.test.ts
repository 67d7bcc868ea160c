// Prepared instances are kept for parameter values that come again, not for one-off values (issue 18):
// a rotated parameter (a new value every request) must not fill the instance cache with plans that only
// outlive the young generation; a repeated value is still answered from a kept instance.

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { loadBuiltins } from '../../src/endpoints/endpoint-files.ts';
import { prepareEndpoint } from '../../src/endpoints/prepare.ts';
import { planRequest, resolveRequest } from '../../src/endpoints/execute.ts';
import { explainBoth } from '../../src/exec/physical/explain-physical.ts';

const NOW = Date.parse('2026-11-25T00:00:00Z') * 1000;

describe('instances kept for repeated values only', () => {
  it('keeps none for 300 one-off values, keeps a value from its second request, and plans it alike', async () => {
    const svc = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
    try {
      const def = loadBuiltins().find((b) => b.def.name === 'logs.all')!.def;
      const prep = prepareEndpoint(def, svc.catalog, NOW);
      const plan = (start: string) => planRequest(prep, resolveRequest(prep, new Map([['project', 'p'], ['iso_timestamp_start', start]])), svc.catalog, NOW);
      const base = prep.engine.instances.size;
      for (let i = 0; i < 300; i++) plan(`2020-01-01T00:00:00.${String(i).padStart(6, '0')}Z`);
      expect(prep.engine.instances.size).toBe(base);
      const first = plan('2021-06-01T00:00:00Z');
      expect(prep.engine.instances.size).toBe(base);
      const second = plan('2021-06-01T00:00:00Z');
      expect(prep.engine.instances.size).toBe(base + 1);
      const third = plan('2021-06-01T00:00:00Z');
      // The third request is the kept instance itself (its plan does not depend on the clock).
      expect(third).toBe(second);
      expect(explainBoth(third.physical)).toBe(explainBoth(first.physical));
      expect(third.physical.logical).not.toBe(first.physical.logical);
    } finally {
      svc.close();
    }
  });
});
