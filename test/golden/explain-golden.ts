// Plans one golden input (test/golden/plan/*.sql) as ringql would run it: a plain query over the fixture
// store, or (`-- endpoint <name>` with `-- param k=v` lines, sql/lql included) a request to that built-in endpoint.

import { readFileSync } from 'node:fs';
import { explainPlan } from '../../src/plan/explain.ts';
import { explainPhysical } from '../../src/exec/physical/explain-physical.ts';
import { planSqlOnCatalog } from '../../src/endpoints/query-sql.ts';
import { prepareEndpoint } from '../../src/endpoints/prepare.ts';
import { planRequest, resolveRequest } from '../../src/endpoints/execute.ts';
import { loadBuiltins } from '../../src/endpoints/endpoint-files.ts';
import { catalogFromStore } from '../../src/endpoints/store-catalog.ts';
import type { Store } from '../../src/store/store.ts';
import { FIXTURE_NOW } from '../helpers/fixture-store.ts';

export function goldenPlans(store: Store, file: string): { logical: string; physical: string } {
  const text = readFileSync(file, 'utf8');
  const endpoint = /^-- endpoint (\S+)$/m.exec(text)?.[1];
  const params = new Map<string, string>();
  for (const m of text.matchAll(/^-- param (\w+)=(.*)$/gm)) params.set(m[1]!, m[2]!);
  const catalog = catalogFromStore(store);
  if (!endpoint) {
    const inst = planSqlOnCatalog(catalog, text, { params, nowUs: FIXTURE_NOW });
    return { logical: explainPlan(inst.logical), physical: explainPhysical(inst.physical) };
  }
  const def = loadBuiltins().find((b) => b.def.name === endpoint)!.def;
  const prep = prepareEndpoint(def, catalog, FIXTURE_NOW);
  const inst = planRequest(prep, resolveRequest(prep, params), catalog, FIXTURE_NOW);
  return { logical: explainPlan(inst.logical), physical: explainPhysical(inst.physical) };
}
