// Planning is work of the query (SPEC §11): binding and constant folding are charged to its time budget,
// so a query whose folding alone outlasts the budget ends with query_timeout instead of running unbounded.

import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { planRequest, resolveRequest } from '../../src/endpoints/execute.ts';
import { WorkMeter, DEFAULT_METER_LIMITS } from '../../src/core/work-meter.ts';

const FOLDS = Array.from({ length: 2000 }, (_, i) => `upper(concat('a', '${i}')) as c${i}`).join(', ');

async function service(timeoutMs: number) {
  return createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, budget: { timeoutMs, maxRows: 1e9 }, cache: { sweepMs: 0 } });
}

describe('planning under the budget', () => {
  it('folding is charged to the meter: planning itself ends with query_timeout once the budget is spent', async () => {
    const svc = await service(10_000);
    const prep = svc.resolve('logs.all');
    const req = resolveRequest(prep, new Map([['project', 'p'], ['sql', `select ${FOLDS}`]]));
    const spent = new WorkMeter({ ...DEFAULT_METER_LIMITS, timeoutMs: 0 }, performance.now() - 1);
    expect(() => planRequest(prep, req, svc.catalog, svc.now(), spent)).toThrow(expect.objectContaining({ code: 'query_timeout' }));
    // The same planning without a spent meter succeeds: the timeout above came from planning's own work.
    expect(() => planRequest(prep, req, svc.catalog, svc.now(), new WorkMeter())).not.toThrow();
    svc.close();
  });

  it('over HTTP-facing run(): a 1 ms budget rejects the query with query_timeout; a normal one answers', async () => {
    const tight = await service(1);
    await expect(tight.run({ endpoint: 'logs.all', params: new Map([['project', 'p'], ['sql', `select ${FOLDS}`]]), redactHeader: false }))
      .rejects.toMatchObject({ code: 'query_timeout' });
    tight.close();
    const svc = await service(10_000);
    const r = await svc.run({ endpoint: 'logs.all', params: new Map([['project', 'p'], ['sql', `select ${FOLDS}`]]), redactHeader: false });
    expect(JSON.parse(r.body.toString()).result[0].c1999).toBe('A1999');
    svc.close();
  });
});
