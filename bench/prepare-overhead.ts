// Per-request planning overhead of a saved endpoint, before and after prepare-once (`npx tsx
// bench/prepare-overhead.ts`; also part of `npm run bench`). "Full" is the ad-hoc path (parse + bind +
// plan + physical plan), "bind+plan" what every request did before, "prepared" what a request does now
// (reuse the prepared instance, moved to the request's clock). "New values" gives every request a
// parameter value never seen: before, it bound and planned; now it puts the value into the prepared
// template's logical and physical plan and plans nothing. Planning only: execution is not included.
// A hand-written part of PREPARE-OVERHEAD.md below KEPT_MARK (figures of another checkout) is kept.

import { Bench } from 'tinybench';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describeMachine } from './machine.ts';
import { Store, defaultStoreConfig } from '../src/store/store.ts';
import { createQueryService } from '../src/endpoints/service.ts';
import { loadBuiltins } from '../src/endpoints/endpoint-files.ts';
import { parseSavedQuery, prepareEndpoint } from '../src/endpoints/prepare.ts';
import { parseConsumerSql, planRequest, resolveRequest } from '../src/endpoints/execute.ts';
import { planOnce } from '../src/engine/engine.ts';
import { Binder } from '../src/plan/binder.ts';
import { optimize } from '../src/plan/rules.ts';
import { planPhysical } from '../src/exec/physical/plan-physical.ts';

const NOW = Date.parse('2025-01-15T12:00:00Z') * 1000;

interface Case { name: string; endpoint: string; params: Record<string, string> }

const CASES: Case[] = [
  { name: 'logs.all', endpoint: 'logs.all', params: { project: 'alpha' } },
  { name: 'usage.api-counts minutely', endpoint: 'usage.api-counts', params: { interval: 'minutely', project: 'alpha' } },
  { name: 'usage.api-counts daily', endpoint: 'usage.api-counts', params: { interval: 'daily', project: 'alpha' } },
  { name: 'logs.all sandbox sql', endpoint: 'logs.all', params: { project: 'alpha', sql: 'select id, timestamp from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r where r.path like \'/rest%\' order by timestamp desc limit 10' } },
];

export interface OverheadRow { name: string; fullUs: number; bindPlanUs: number; preparedUs: number; newBeforeUs: number; newNowUs: number }

/** The case's values with its free-text parameter (project) new on every call. */
function freshValues(values: Map<string, string | null>, n: number): Map<string, string | null> {
  const out = new Map(values);
  out.set('project', `p${n}`);
  return out;
}

/** Median microseconds per request of each path, per case. */
export async function measurePrepareOverhead(timeMs = 500): Promise<OverheadRow[]> {
  const svc = await createQueryService({ store: new Store(defaultStoreConfig({})), stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
  const catalog = svc.catalog;
  const rows: OverheadRow[] = [];
  for (const c of CASES) {
    const def = loadBuiltins().find((b) => b.def.name === c.endpoint)!.def;
    const prep = prepareEndpoint(def, catalog, NOW);
    const req = resolveRequest(prep, new Map(Object.entries(c.params)));
    const physical = { limitHint: def.max_limit + 1, bucketCache: def.cache_duration_seconds > 0 };
    let tick = 0;
    const bindPlan = (): unknown => {
      const binder = new Binder({ catalog, params: req.values, declaredParams: prep.paramNames, nowUs: NOW + ++tick });
      const bound = req.consumer ? binder.bindSandboxed(prep.query, parseConsumerSql(req.consumer.text)) : binder.bindTop(prep.query);
      return planPhysical(optimize(bound), physical);
    };
    const full = (): unknown => {
      const saved = parseSavedQuery(def.query);
      if (!req.consumer) return planOnce(saved, catalog, req.values, NOW + ++tick, physical);
      const binder = new Binder({ catalog, params: req.values, declaredParams: prep.paramNames, nowUs: NOW + ++tick });
      return planPhysical(optimize(binder.bindSandboxed(saved, parseConsumerSql(req.consumer.text))), physical);
    };
    const prepared = (): unknown => planRequest(prep, req, catalog, NOW + ++tick * 1000);
    const newBefore = (): unknown => {
      const binder = new Binder({ catalog, params: freshValues(req.values, ++tick), declaredParams: prep.paramNames, nowUs: NOW + tick });
      const bound = req.consumer ? binder.bindSandboxed(prep.query, parseConsumerSql(req.consumer.text)) : binder.bindTop(prep.query);
      return planPhysical(optimize(bound), physical);
    };
    const newNow = (): unknown => planRequest(prep, { ...req, values: freshValues(req.values, ++tick) }, catalog, NOW + tick * 1000);
    const bench = new Bench({ time: timeMs, warmupTime: Math.min(200, timeMs / 4) });
    bench.add('full', full).add('bindPlan', bindPlan).add('prepared', prepared).add('newBefore', newBefore).add('newNow', newNow);
    await bench.run();
    const us = (n: string): number => (bench.tasks.find((t) => t.name === n)!.result as { latency: { p50: number } }).latency.p50 * 1000;
    rows.push({ name: c.name, fullUs: us('full'), bindPlanUs: us('bindPlan'), preparedUs: us('prepared'), newBeforeUs: us('newBefore'), newNowUs: us('newNow') });
  }
  svc.close();
  return rows;
}

/** The figures as a Markdown table. */
export function overheadTable(rows: OverheadRow[]): string {
  const f = (x: number): string => x.toFixed(1);
  const lines = [
    '| saved query | full parse+bind+plan (µs) | bind+plan per request, before (µs) | prepared, now (µs) | speed-up vs before | new values per request, before (µs) | new values per request, now (µs) | speed-up |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.name} | ${f(r.fullUs)} | ${f(r.bindPlanUs)} | ${f(r.preparedUs)} | ${(r.bindPlanUs / r.preparedUs).toFixed(1)}× | ${f(r.newBeforeUs)} | ${f(r.newNowUs)} | ${(r.newBeforeUs / r.newNowUs).toFixed(1)}× |`);
  }
  return lines.join('\n');
}

const NEW_VALUES_NOTE = 'The last three columns give every request a project never asked for before. Before, such a request ' +
  'bound, planned and physically planned its query; now it checks the decisions its values take against the ' +
  "prepared templates and puts the values into the matching one's logical and physical plan: the engine's parse, " +
  'bind, plan and physical-plan counters do not move (test/engine/prepare-once-counters.test.ts). A value that changes ' +
  'the plan shape in a way no sample value at create/load took (say a CASE on a free-text parameter) binds once for that shape.';

/** Where the file's hand-written part starts (kept when the script writes the file again). */
const KEPT_MARK = '<!-- kept: written by hand, not by bench/prepare-overhead.ts -->';

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = overheadTable(await measurePrepareOverhead(Number(process.argv[2] ?? 500)));
  const file = new URL('./PREPARE-OVERHEAD.md', import.meta.url);
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const kept = old.includes(KEPT_MARK) ? '\n' + old.slice(old.indexOf(KEPT_MARK)) : '';
  writeFileSync(file, `# Per-request planning overhead (bench/prepare-overhead.ts)\n\nMedian per request, planning only; ${describeMachine().cpu}.\n\n${text}\n\n${NEW_VALUES_NOTE}\n${kept}`);
  process.stdout.write(text + '\n');
}
