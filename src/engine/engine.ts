// The engine facade endpoints/ and cache/ use instead of planner internals: prepare(sql) parses once;
// instantiate() gives the bound, planned and physically planned query for one request's parameter
// values: a kept instance for values seen before, else a prepared template (bound, planned and physically
// planned with its parameters traced) with the values put in; binds and plans only for a new plan shape.

import { LRUMapWithDelete } from '../core/lru.ts';
import { engineCounters } from '../core/engine-counters.ts';
import { RingqlError } from '../core/errors.ts';
import { withMeter, type WorkMeter } from '../core/work-meter.ts';
import type { Query } from '../sql/ast.ts';
import { Binder } from '../plan/binder.ts';
import { optimize } from '../plan/rules.ts';
import type { Plan } from '../plan/bound.ts';
import type { Catalog } from '../plan/catalog.ts';
import { planPhysical, type PhysicalOptions } from '../exec/physical/plan-physical.ts';
import type { PhysicalPlan } from '../exec/physical/physical-plan.ts';
import { clockFree, retimable, retime } from './retime.ts';
import { recordDecisions, Revaluer, type Decision } from '../plan/param-trace.ts';
import { dependsOnParams, dirtyNodes, substitute, type DirtyNodes } from './substitute.ts';
import { cachedAggregate, type BucketShape } from '../exec/physical/rules/bucket-aggregate-from-cache.ts';
import { dependsOnlyOnScanAndWindowStart } from '../plan/clock.ts';

/** Prepared instances kept per saved query (distinct parameter values and sandbox texts), least recently used dropped. */
export const MAX_INSTANCES = 128;
/** Sandbox `sql`/`lql` texts kept parsed per saved query. */
export const MAX_CONSUMER_TEXTS = 256;
/** Plan shapes (templates) kept for a saved query itself, and per sandbox text; the oldest dropped. */
export const MAX_TEMPLATES = 32;
export const MAX_SANDBOX_TEMPLATES = 4;

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

/**
 * A bound and planned query whose constants remember the parameters they came from: it serves every
 * request whose values take the same planning decisions, those constants recomputed.
 */
interface Template {
  inst: Instance;
  decisions: Decision[];
  /** Whether values must be put in (a constant or scan bound came from a parameter, or mixed bounds are set again). */
  traced: boolean;
  /** How it follows the clock: 'retime' moves it by the time since it was bound. */
  clock: 'always' | 'retime';
  /** The logical and physical plan as one graph: values are put into both at once. */
  graph: PlanGraph;
  /** What substituting copies (substitute.ts dirtyNodes); the rest of the plan is shared. */
  dirty: DirtyNodes | null;
}

/** A logical plan and the physical plan made from it (whose nodes point into it). */
interface PlanGraph {
  logical: Plan;
  physical: PhysicalPlan;
}

export interface Prepared {
  query: Query;
  opts: PrepareOptions;
  instances: LRUMapWithDelete<string, Instance>;
  /** Hashes of the instance keys asked for lately: an instance is kept only when its key comes again. */
  asked: AskedKeys;
  consumers: LRUMapWithDelete<string, Query>;
  /** Per sandbox text ('' for none): the templates, newest first. */
  templates: LRUMapWithDelete<string, Template[]>;
}

/** Prepares a parsed saved query (parse it with parseSavedQuery; the parse is counted there). */
export function prepare(query: Query, opts: PrepareOptions): Prepared {
  return { query, opts, instances: new LRUMapWithDelete(MAX_INSTANCES), asked: { hashes: new Int32Array(MAX_INSTANCES * 2), next: 0 }, consumers: new LRUMapWithDelete(MAX_CONSUMER_TEXTS), templates: new LRUMapWithDelete(MAX_INSTANCES) };
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
 * moved to the request's clock if it depends on it; else a template's logical and physical plan with
 * these values put in (no parse, bind, logical or physical planning); else bound and planned now.
 */
export function instantiate(p: Prepared, values: ReadonlyMap<string, string | null>, o: InstantiateOptions): Instance {
  const key = instanceKey(values, o.consumer ?? null);
  const kept = p.instances.get(key);
  if (kept && sameSchemas(p.opts.catalog, kept.stamps)) {
    engineCounters.reuses++;
    return moveTo(kept, o.nowUs);
  }
  const run = (): Instance => fromTemplate(p, values, o) ?? build(p, values, o);
  const inst = o.meter ? withMeter(o.meter, run) : run();
  if (inst.reuse !== 'never' && askedBefore(p.asked, key)) p.instances.set(key, inst);
  return inst;
}

/**
 * A ring of the hashes of the last instance keys asked for (no strings kept). Values asked for once (a
 * rotated parameter: every request a new value) are not kept: each kept instance is a copied plan that
 * outlives the young generation, so keeping one-off values cost garbage collection on every request; a
 * value that comes again is kept from its second request. A hash collision only keeps an instance early.
 */
interface AskedKeys {
  hashes: Int32Array;
  next: number;
}

/** Whether `key` (by hash) was asked for among the last hashes.length keys; records it either way. */
function askedBefore(asked: AskedKeys, key: string): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  // 0 marks an empty slot.
  h = h === 0 ? 1 : h;
  if (asked.hashes.includes(h)) return true;
  asked.hashes[asked.next] = h;
  asked.next = (asked.next + 1) % asked.hashes.length;
  return false;
}

/** Per kept instance: its plans as one graph and what moving it in time copies (the rest is shared). */
const moveSets = new WeakMap<Instance, { graph: PlanGraph; dirty: DirtyNodes }>();

/** A kept instance at `nowUs`: as it is, or moved in time (only what depends on the clock copied). */
function moveTo(kept: Instance, nowUs: number): Instance {
  if (kept.reuse === 'always' || kept.boundAt === nowUs) return kept;
  let m = moveSets.get(kept);
  if (!m) {
    const graph = { logical: kept.logical, physical: kept.physical };
    moveSets.set(kept, (m = { graph, dirty: dirtyNodes(graph, true) }));
  }
  const moved = retime(m.graph, nowUs - kept.boundAt, m.dirty);
  return { ...moved, boundAt: nowUs, reuse: 'retime', stamps: kept.stamps };
}

/** The plan of a kept template whose decisions these values take alike, with the values put in; else null. */
function fromTemplate(p: Prepared, values: ReadonlyMap<string, string | null>, o: InstantiateOptions): Instance | null {
  const list = p.templates.get(consumerKey(o.consumer ?? null));
  if (!list) return null;
  const r = new Revaluer(values);
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    if (!sameSchemas(p.opts.catalog, t.inst.stamps)) { list.splice(i--, 1); continue; }
    if (!t.decisions.every((d) => r.holds(d))) continue;
    // The shape asked for last is tried first next time (most requests repeat a shape).
    if (i > 0) { list.splice(i, 1); list.unshift(t); }
    if (!t.traced) {
      engineCounters.reuses++;
      return moveTo(t.inst, o.nowUs);
    }
    const delta = t.clock === 'retime' ? o.nowUs - t.inst.boundAt : 0;
    // The physical plan holds no value of its own (memo keys are made by the run): the values go into it too.
    const g = substituteOrNull(t.graph, r, delta, (t.dirty ??= dirtyNodes(t.graph, t.clock === 'retime')));
    if (!g) continue;
    engineCounters.reuses++;
    return { logical: g.logical, physical: g.physical, boundAt: o.nowUs, reuse: t.inst.reuse, stamps: t.inst.stamps };
  }
  return null;
}

/** The plan with the values put in; null when a constant left in it does not fold for them (it would stay a node). */
function substituteOrNull(graph: PlanGraph, r: Revaluer, delta: number, dirty: DirtyNodes): PlanGraph | null {
  try {
    return substitute(graph, r, delta, dirty);
  } catch (err) {
    if (err instanceof RingqlError && err.code !== 'query_timeout') return null;
    throw err;
  }
}

/** Binds and plans with the parameters traced; kept as a template unless it cannot move in time. */
function build(p: Prepared, values: ReadonlyMap<string, string | null>, o: InstantiateOptions): Instance {
  const stamps = schemaStamps(p.opts.catalog);
  const { result: logical, decisions } = recordDecisions(() => {
    const binder = new Binder({ catalog: p.opts.catalog, params: values, declaredParams: p.opts.declaredParams, nowUs: o.nowUs, traceParams: true });
    const bound: Plan = o.consumer ? binder.bindSandboxed(p.query, consumerQuery(p, o.consumer, o.parseConsumer)) : binder.bindTop(p.query);
    return optimize(bound);
  });
  const physical = planPhysical(logical, p.opts.physical);
  const graph = { logical, physical };
  const reuse = clockFree(graph) ? 'always' : retimable(graph) ? 'retime' : 'never';
  const inst: Instance = { logical, physical, boundAt: o.nowUs, reuse, stamps };
  // A fixed and a moving bound on one side of a scan's time range: moved by setting the bounds again.
  const clock = reuse !== 'never' ? reuse : retimable(graph, true) ? 'retime' : null;
  if (clock) keepTemplate(p, consumerKey(o.consumer ?? null), { inst, decisions, traced: reuse === 'never' || dependsOnParams(logical), clock, graph, dirty: null });
  return inst;
}

function keepTemplate(p: Prepared, key: string, t: Template): void {
  let list = p.templates.get(key);
  if (!list) p.templates.set(key, (list = []));
  list.unshift(t);
  if (list.length > (key === '' ? MAX_TEMPLATES : MAX_SANDBOX_TEMPLATES)) list.pop();
}

/** Plans a query the old way, without templates (ad-hoc queries, and the bench's "before" column). */
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

function consumerKey(c: Consumer | null): string {
  return c ? `${c.kind}:${c.text}` : '';
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
