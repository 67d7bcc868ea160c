// Planning alone of a computed logs.all (issue 18): planRequest with iso_timestamp_start new on every
// call, as the serving bench rotates it, CPU µs per request (best of rounds; prepared template path).
//   Run: node --import tsx bench/logs-all-plan-micro.ts [rounds] [n]

import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { createQueryService } from '../src/endpoints/service.ts';
import { loadBuiltins } from '../src/endpoints/endpoint-files.ts';
import { prepareEndpoint } from '../src/endpoints/prepare.ts';
import { planRequest, resolveRequest } from '../src/endpoints/execute.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const N = Number(process.argv[3] ?? 20000);
const NOW = Date.parse('2026-11-25T00:00:00Z') * 1000;

async function main(): Promise<void> {
  const svc = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
  const def = loadBuiltins().find((b) => b.def.name === 'logs.all')!.def;
  const prep = prepareEndpoint(def, svc.catalog, NOW);
  let i = 0;
  const once = (): unknown => {
    const start = `2020-01-01T00:00:00.${String(++i % 1_000_000).padStart(6, '0')}Z`;
    const req = resolveRequest(prep, new Map([['project', 'default'], ['iso_timestamp_start', start]]));
    return planRequest(prep, req, svc.catalog, NOW + i);
  };
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < N; k++) once();
    const c = process.cpuUsage(c0);
    const us = (c.user + c.system) / N;
    best = Math.min(best, us);
    process.stdout.write(`round ${round + 1}: ${us.toFixed(2)} CPU µs per request\n`);
  }
  process.stdout.write(`best: ${best.toFixed(2)} CPU µs per request\n`);
  const g = globalThis as any; console.log(g.__cg / (ROUNDS*N), g.__keys/(ROUNDS*N), g.__maps/(ROUNDS*N), g.__arr/(ROUNDS*N)); for (const [k,v] of g.__kinds ?? []) console.log(k, v/(ROUNDS*N));
  svc.close();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`logs.all plan micro failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
