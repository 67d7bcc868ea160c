// Test helper for the checkpoint tests whose events carry ids `<phase>-<i>`: how many events of each
// phase a store holds, as a sandbox query over `logs.all` sees them.

import { createQueryService } from '../../src/endpoints/service.ts';
import type { RunRequest } from '../../src/endpoints/service-types.ts';
import type { Store } from '../../src/store/store.ts';

/** Held events per phase (the id's first letter), queried at `nowUs`. */
export async function heldByPhase(store: Store, nowUs: number): Promise<Record<string, number>> {
  const service = await createQueryService({ store, stateDir: null, nowMicros: () => nowUs, cache: { sweepMs: 0 } });
  const sql = 'select substr(id, 1, 1) as ph, count(*) as n from edge_logs group by ph order by ph';
  const req: RunRequest = { endpoint: 'logs.all', params: new Map([['project', 'default'], ['sql', sql]]), redactHeader: false };
  const body = JSON.parse((await service.run(req)).body.toString('utf8')) as { result: { ph: string; n: number }[] };
  service.close();
  return Object.fromEntries(body.result.map((r) => [r.ph, Number(r.n)]));
}
