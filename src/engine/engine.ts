// The engine facade endpoints/ and cache/ use instead of planner internals: prepare(sql) parses once;
// instantiate() gives the bound, planned and physically planned query for one request's parameter
// values (reusing a prepared instance, moved to the request's clock, whenever it can); run() executes.

import { LRUMapWithDelete } from 'mnemonist';
import { engineCounters } from '../core/engine-counters.ts';
import { withMeter, type WorkMeter } from '../core/work-meter.ts';
import type { Query } from '../sql/ast.ts';
import { Binder } from '../plan/binder.ts';
import { optimize } from '../plan/rules.ts';
import type { Plan } from '../plan/bound.ts';
import type { Catalog } from '../plan/catalog.ts';
import { planPhysical, type PhysicalOptions } from '../exec/physical/plan-physical.ts';
import type { PhysicalPlan } from '../exec/physical/physical-plan.ts';
import { clockFree, retimable, retime } from './retime.ts';
import { cachedAggregate, type BucketShape } from '../exec/physical/rules/bucket-aggregate-from-cache.ts';
import { dependsOnlyOnScanAndWindowStart } from '../plan/clock.ts';

/** Prepared instances kept per saved query (distinct parameter values and sandbox texts), least recently used dropped. */
export const MAX_INSTANCES = 128;
/** Sandbox `sql`/`lql` texts kept parsed per saved query. */
export const MAX_CONSUMER_TEXTS = 256;

export interface PrepareOptions {
  catalog: Catalog;
  /** Declared parameter names (lower case) of a saved query; null: any parameter (plain queries). */
  declaredParams: ReadonlySet<string> | null;
  /** How the physical plan is made for runs (row cap hint, bucket cache). */
  physical: PhysicalOptions;
}

/** A consumer query of a sandboxable endpoint. */
export interface Consumer {
  kind: 'sql' | 'lql';
  text: string;
}

/** One bound, planned and physically planned query, as of `boundAt` (µs). */
export interface Instance {
  logical: Plan;
  physical: PhysicalPlan;
  boundAt: number;
  /** 'always': independent of the clock; 'retime': move it to the request's clock; 'never': bind per request. */
  reuse: 'always' | 'retime' | 'never';
  /** The sources' schemas as bound (columns of `*`, field types): a changed schema binds again. */
  stamps: SchemaStamp[];
}

type SchemaStamp = number | undefined;

function schemaStamps(catalog: Catalog): SchemaStamp[] {
  return catalog.sourceNames().map((n) => catalog.source(n)?.schemaStamp?.());
}

function sameSchemas(catalog: Catalog, stamps: SchemaStamp[]): boolean {
  const now = schemaStamps(catalog);
  return now.length === stamps.length && now.every((s, i) => s === stamps[i]);
}

export interface Prepared {
  query: Query;
  opts: PrepareOptions;
  instances: LRUMapWithDelete<string, Instance>;
  consumers: LRUMapWithDelete<string, Query>;
}

/** Prepares a parsed saved query (parse it with parseSavedQuery; the parse is counted there). */
export function prepare(query: Query, opts: PrepareOptions): Prepared {
  return { query, opts, instances: new LRUMapWithDelete(MAX_INSTANCES), consumers: new LRUMapWithDelete(MAX_CONSUMER_TEXTS) };
}

export interface InstantiateOptions {
  nowUs: number;
  consumer?: Consumer | null;
  /** Parses a consumer text (once per distinct text: the result is kept). */
  parseConsumer?: (c: Consumer) => Query;
  /** The request's budget: binding and folding are charged to it. */
  meter?: WorkMeter;
}

/**
 * The query for one request: a kept instance when its parameter values (and consumer text) were seen,
 * moved to the request's clock if it depends on it; else bound, planned and physically planned now.
 */
export function instantiate(p: Prepared, values: ReadonlyMap<string, string | null>, o: InstantiateOptions): Instance {
  const key = instanceKey(values, o.consumer ?? null);
  const kept = p.instances.get(key);
  if (kept && sameSchemas(p.opts.catalog, kept.stamps)) {
    engineCounters.reuses++;
    if (kept.reuse === 'always' || kept.boundAt === o.nowUs) return kept;
    const moved = retime({ logical: kept.logical, physical: kept.physical }, o.nowUs - kept.boundAt);
    return { ...moved, boundAt: o.nowUs, reuse: 'retime', stamps: kept.stamps };
  }
  const inst = o.meter ? withMeter(o.meter, () => plan(p, values, o)) : plan(p, values, o);
  if (inst.reuse !== 'never') p.instances.set(key, inst);
  return inst;
}

function plan(p: Prepared, values: ReadonlyMap<string, string | null>, o: InstantiateOptions): Instance {
  const stamps = schemaStamps(p.opts.catalog);
  const binder = new Binder({ catalog: p.opts.catalog, params: values, declaredParams: p.opts.declaredParams, nowUs: o.nowUs });
  let bound: Plan;
  if (!o.consumer) bound = binder.bindTop(p.query);
  else bound = binder.bindSandboxed(p.query, consumerQuery(p, o.consumer, o.parseConsumer));
  const logical = optimize(bound);
  const physical = planPhysical(logical, p.opts.physical);
  const graph = { logical, physical };
  const reuse = clockFree(graph) ? 'always' : retimable(graph) ? 'retime' : 'never';
  return { logical, physical, boundAt: o.nowUs, reuse, stamps };
}

function consumerQuery(p: Prepared, c: Consumer, parse: ((c: Consumer) => Query) | undefined): Query {
  const key = `${c.kind}:${c.text}`;
  const kept = p.consumers.get(key);
  if (kept) return kept;
  if (!parse) throw new Error('internal: a consumer query without a parser');
  const q = parse(c);
  p.consumers.set(key, q);
  return q;
}

/** Length-prefixed parameter values (in the order given) and consumer text: no two requests share a key. */
function instanceKey(values: ReadonlyMap<string, string | null>, consumer: Consumer | null): string {
  let key = '';
  for (const [name, v] of values) key += `${name.length}:${name}=${v === null ? '~' : `${v.length}:${v}`};`;
  if (consumer) key += `${consumer.kind}:${consumer.text.length}:${consumer.text}`;
  return key;
}

/** Plans an ad-hoc (not saved) query end to end: the full parse-free bind + plan + physical path. */
export function planOnce(query: Query, catalog: Catalog, params: ReadonlyMap<string, string | null>, nowUs: number, physical: PhysicalOptions = {}): Instance {
  return plan(prepare(query, { catalog, declaredParams: null, physical }), params, { nowUs });
}

/** The aggregation the instance answers from the bucket cache (rule BucketAggregateFromCache), if any. */
export function bucketAggregateOf(inst: Instance): BucketShape | null {
  return cachedAggregate(inst.physical);
}

/** Whether the answer changes with the clock only as the bucket scan's window start moves (bucket memo). */
export function movesOnlyWithWindowStart(inst: Instance, shape: BucketShape): boolean {
  return dependsOnlyOnScanAndWindowStart(inst.logical, shape.scan);
}
