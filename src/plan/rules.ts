// Rewrite rules over the logical plan: push `project = const` and timestamp ranges into the scans
// they restrict, satisfy ORDER BY timestamp from the scan's own order, and let scans feeding
// order-insensitive operators (aggregates, sorts) run in whatever order is fastest; then drop the
// projected columns nothing reads (PruneUnusedColumns, prune-columns.ts).

import type { BExpr, Clock, Plan, ScanPlan } from './bound.ts';
import { engineCounters } from '../core/engine-counters.ts';
import { andAll, conjuncts } from './conjuncts.ts';
import { originOf } from './origin-of.ts';
import { children } from './explain.ts';
import { pruneUnusedColumns } from './prune-columns.ts';
import { kindClass, noteDecision, traced, type Const, type Revaluer } from './param-trace.ts';

/** `pruneColumns: false` leaves every projected column (the result-equality tests' reference plan). */
export function optimize(plan: Plan, opts: { pruneColumns?: boolean } = {}): Plan {
  engineCounters.plans++;
  const p = pushFilters(plan);
  const sorted = eliminateSorts(p);
  const q = opts.pruneColumns === false ? sorted : pruneUnusedColumns(sorted);
  relaxScanOrder(q, true);
  return q;
}

// ─── filter pushdown ──────────────────────────────────────────────────────────────────────

type Pushable = { scan: ScanPlan; apply: () => void };

const FLIP: Record<string, string> = { '$<': '$>', '$<=': '$>=', '$>': '$<', '$>=': '$<=', '$=': '$=' };

function recognise(c: BExpr): Pushable | null {
  if (c.k !== 'call' || c.args.length !== 2 || !(c.fn.name in FLIP)) return null;
  let [a, b] = c.args as [BExpr, BExpr];
  let op = c.fn.name;
  if (a.k === 'const') { [a, b] = [b, a]; op = FLIP[op]!; }
  if (b.k !== 'const') return null;
  const o = originOf(a);
  if (!o || o.element) return null;
  const scan = o.scan;
  const v = b.value;
  const clock = b.clock;
  const bc = b;
  // Which kind of value it is decides whether it is pushed: a prepared plan holds for values of that kind.
  if (traced(bc)) noteDecision([bc], kindClass, [v]);
  if (o.path.length === 1 && o.path[0] === 'timestamp' && typeof v === 'number' && b.type === 'TIMESTAMP') {
    return { scan, apply: () => { tightenTime(scan, op, v); if (clock) markClock(scan, op, clock); noteBoundSource(scan, op, clock !== undefined); notePushed(scan).time.push({ op, c: bc }); } };
  }
  // A project that depends on the clock stays a filter (visible to the bucket cache's clock check).
  if (op === '$=' && typeof v === 'string' && !clock && samePath(o.path, scan.source.def.projectPath)) {
    return {
      scan,
      apply: () => {
        // Two different project equalities can never both hold: an impossible project matches nothing.
        scan.project = scan.project === undefined || scan.project === v ? v : '\u0000no-project';
        notePushed(scan).project.push(bc);
      },
    };
  }
  return null;
}

function samePath(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function tightenTime(s: ScanPlan, op: string, v: number): void {
  const lower = (t: number, inc: boolean) => {
    if (s.minTs === undefined || t > s.minTs || (t === s.minTs && !inc)) { s.minTs = t; s.minInclusive = inc; }
  };
  const upper = (t: number, inc: boolean) => {
    if (s.maxTs === undefined || t < s.maxTs || (t === s.maxTs && !inc)) { s.maxTs = t; s.maxInclusive = inc; }
  };
  if (op === '$>') lower(v, false);
  else if (op === '$>=') lower(v, true);
  else if (op === '$<') upper(v, false);
  else if (op === '$<=') upper(v, true);
  else if (op === '$=') { lower(v, true); upper(v, true); }
}

/**
 * Remembers that a clock-dependent bound was folded into the scan, whichever bound won: a fixed
 * bound that is tighter now may be overtaken by the moving one later.
 */
function markClock(s: ScanPlan, op: string, clock: Clock): void {
  const worst = (a: Clock | undefined): Clock => (a === 'other' || clock === 'other' ? 'other' : 'affine');
  if (op === '$>' || op === '$>=' || op === '$=') s.minTsClock = worst(s.minTsClock);
  if (op === '$<' || op === '$<=' || op === '$=') s.maxTsClock = worst(s.maxTsClock);
}

/** Per scan, which kinds of constant (fixed, clock-dependent) bounded each side of its time range. */
const boundSources = new WeakMap<ScanPlan, { min: Set<boolean>; max: Set<boolean> }>();

function noteBoundSource(s: ScanPlan, op: string, clock: boolean): void {
  let b = boundSources.get(s);
  if (!b) boundSources.set(s, (b = { min: new Set(), max: new Set() }));
  if (op === '$>' || op === '$>=' || op === '$=') b.min.add(clock);
  if (op === '$<' || op === '$<=' || op === '$=') b.max.add(clock);
}

/**
 * Whether a side of the scan's time range was bounded by both a fixed and a clock-dependent constant:
 * which one wins then depends on the clock, so the plan cannot simply be moved to another instant.
 */
export function mixedTimeBounds(s: ScanPlan): boolean {
  const b = boundSources.get(s);
  return !!b && (b.min.size > 1 || b.max.size > 1);
}

/** Per scan, the constants pushed into its time range and project, to recompute them for other parameter values. */
const pushedConsts = new WeakMap<ScanPlan, { time: { op: string; c: Const }[]; project: Const[] }>();

function notePushed(s: ScanPlan): { time: { op: string; c: Const }[]; project: Const[] } {
  let p = pushedConsts.get(s);
  if (!p) pushedConsts.set(s, (p = { time: [], project: [] }));
  return p;
}

/**
 * Sets `copy`'s time range and project (a copy of `orig`) from the constants pushed into `orig`, as
 * `r` evaluates them and with clock-dependent ones moved by `deltaUs`: the same pushdown under other
 * parameter values at another instant. Returns false (and leaves the copy) when no bound is traced or
 * clock-dependent.
 */
export function repushBounds(orig: ScanPlan, copy: ScanPlan, r: Revaluer, deltaUs: number): boolean {
  const p = pushedConsts.get(orig);
  if (!p || (!p.time.some((t) => traced(t.c) || t.c.clock !== undefined) && !p.project.some(traced))) return false;
  if (p.time.length) {
    delete copy.minTs; delete copy.minInclusive; delete copy.maxTs; delete copy.maxInclusive;
    for (const t of p.time) tightenTime(copy, t.op, (r.value(t.c) as number) + (t.c.clock === 'affine' ? deltaUs : 0));
  }
  if (p.project.length) {
    delete copy.project;
    for (const c of p.project) {
      const v = r.value(c) as string;
      copy.project = copy.project === undefined || copy.project === v ? v : '\u0000no-project';
    }
  }
  return true;
}

/**
 * A copy of `scan` with `patch` applied (e.g. another order) that remembers what was pushed into it and
 * how its bounds were made, so putting other values in (repushBounds) or moving it in time treats it as `scan`.
 */
export function derivedScan(scan: ScanPlan, patch: Partial<ScanPlan>): ScanPlan {
  const copy: ScanPlan = { ...scan, ...patch };
  const pushed = pushedConsts.get(scan);
  if (pushed) pushedConsts.set(copy, pushed);
  const bounds = boundSources.get(scan);
  if (bounds) boundSources.set(copy, bounds);
  return copy;
}

/** Whether repushBounds sets the scan's bounds again (a traced or clock-dependent constant was pushed into it). */
export function needsRepush(s: ScanPlan): boolean {
  const p = pushedConsts.get(s);
  return !!p && (p.time.some((t) => traced(t.c) || t.c.clock !== undefined) || p.project.some(traced));
}

/** Whether a traced constant was pushed into the scan. */
export function hasTracedPushdown(s: ScanPlan): boolean {
  const p = pushedConsts.get(s);
  return !!p && (p.time.some((t) => traced(t.c)) || p.project.some(traced));
}

/**
 * Whether `target` is reached from `p` only through operators a filter on its columns commutes
 * with (filters, projections, unnests, sorts, distinct, and the non-nullable side of joins).
 */
function reachable(p: Plan, target: ScanPlan): boolean {
  if (p === target) return true;
  switch (p.k) {
    case 'filter': case 'project': case 'unnest': case 'sort': case 'distinct':
      return reachable(p.input, target);
    case 'join':
      return ((p.type !== 'right' && p.type !== 'full') && reachable(p.left, target)) ||
        ((p.type !== 'left' && p.type !== 'full') && reachable(p.right, target));
    default:
      return false;
  }
}

function pushFilters(p: Plan): Plan {
  const rebuilt = mapInputs(p, pushFilters);
  if (rebuilt.k !== 'filter') return rebuilt;
  const keep: BExpr[] = [];
  for (const c of conjuncts(rebuilt.pred)) {
    const r = recognise(c);
    if (r && reachable(rebuilt.input, r.scan)) r.apply();
    else keep.push(c);
  }
  const pred = andAll(keep);
  return pred ? { ...rebuilt, pred } : rebuilt.input;
}

// ─── ORDER BY timestamp from the scan ───────────────────────────────────────────────────────

function orderPreservingPath(p: Plan, target: ScanPlan): boolean {
  if (p === target) return true;
  if (p.k === 'filter' || p.k === 'project' || p.k === 'unnest') return orderPreservingPath(p.input, target);
  return false;
}

function eliminateSorts(p: Plan): Plan {
  const rebuilt = mapInputs(p, eliminateSorts);
  if (rebuilt.k !== 'sort' || rebuilt.keys.length !== 1) return rebuilt;
  const key = rebuilt.keys[0]!;
  const o = originOf(key.expr);
  if (!o || o.element || o.path.length !== 1 || o.path[0] !== 'timestamp') return rebuilt;
  if (!orderPreservingPath(rebuilt.input, o.scan)) return rebuilt;
  o.scan.order = key.desc ? 'desc' : 'asc';
  markOrdered(o.scan);
  return rebuilt.input;
}

const orderedScans = new WeakSet<ScanPlan>();
function markOrdered(s: ScanPlan): void {
  orderedScans.add(s);
}

/** Scans whose order no consumer observes may run in storage order ('any'). */
function relaxScanOrder(p: Plan, orderMatters: boolean): void {
  if (p.k === 'scan') {
    if (!orderMatters && !orderedScans.has(p)) p.order = 'any';
    return;
  }
  const insensitive = p.k === 'aggregate' || p.k === 'sort' || (p.k === 'setop' && !p.all);
  for (const c of children(p)) relaxScanOrder(c, orderMatters && !insensitive);
}

/** Rebuilds a node with its inputs mapped (scans are shared objects and kept as they are). */
function mapInputs(p: Plan, f: (c: Plan) => Plan): Plan {
  switch (p.k) {
    case 'scan': case 'values': case 'rows': return p;
    case 'join': return { ...p, left: f(p.left), right: f(p.right) };
    case 'setop': return { ...p, inputs: p.inputs.map(f) };
    default: return { ...p, input: f(p.input) } as Plan;
  }
}
