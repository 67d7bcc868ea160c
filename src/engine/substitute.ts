// Puts other parameter values into a prepared plan (logical and physical together): every traced constant
// (plan/param-trace.ts) recomputed, every scan bound pushed from one set again, and the whole moved in time
// by Δ when asked. The copy keeps sharing (one scan stays one scan everywhere it is referenced), like retime.ts.

import type { BExpr, Plan, ScanPlan } from '../plan/bound.ts';
import { traced, type Revaluer } from '../plan/param-trace.ts';
import { hasTracedPushdown, needsRepush, repushBounds } from '../plan/rules.ts';
import { shift } from './retime.ts';
import { isObj, SHARED_KEYS, type Obj } from './copy-graph.ts';
import { compileCopy, copyWith, type CopyProgram } from './copy-program.ts';
import { registerSubqueryPlan } from '../plan/expr-key.ts';

/** Whether anything in `plan` was computed from a parameter value (else it is the same plan for every value). */
export function dependsOnParams(plan: Plan): boolean {
  const seen = new Set<unknown>();
  const walk = (x: unknown): boolean => {
    if (!isObj(x) || seen.has(x)) return false;
    seen.add(x);
    if (x instanceof Map) return [...x.entries()].some(([k, v]) => walk(k) || walk(v));
    if (Array.isArray(x)) return x.some(walk);
    if (x.k === 'const' && traced(x as unknown as BExpr)) return true;
    if (x.k === 'scan' && hasTracedPushdown(x as unknown as ScanPlan)) return true;
    for (const [key, v] of Object.entries(x)) if (!SHARED_KEYS.has(key) && key !== 'value' && walk(v)) return true;
    return false;
  };
  return walk(plan);
}

/** Per object a substitution copies: the keys (or array indexes) of its children it copies too. */
export type DirtyNodes = WeakMap<object, (string | number)[]>;

/**
 * The objects of `plan` a substitution must copy: traced constants, scans whose bounds are set again or
 * (when it `moves` in time) shifted, clock constants (when it moves), and every object that reaches one.
 * The rest is shared with the prepared plan. Cycles run only through scans (their columns' origins), whose
 * own need is decided before their children are visited.
 */
export function dirtyNodes(plan: unknown, moves: boolean): DirtyNodes {
  const memo = new Map<object, boolean>();
  const kids = (x: Obj): [string | number, unknown][] =>
    Array.isArray(x) ? x.map((v, i): [number, unknown] => [i, v]) : Object.entries(x).filter(([key]) => !SHARED_KEYS.has(key) && key !== 'value');
  const visit = (x: unknown): boolean => {
    if (!isObj(x)) return false;
    const known = memo.get(x);
    if (known !== undefined) return known;
    if (x.k === 'const') {
      const d = traced(x as unknown as BExpr) || (moves && x.clock === 'affine');
      memo.set(x, d);
      return d;
    }
    if (x instanceof Map) {
      memo.set(x, false);
      let d = false;
      for (const [k, v] of x) {
        // Both visited (no short cut): a value reached only through this Map must be known too.
        const dk = visit(k), dv = visit(v);
        if (dk || dv) d = true;
      }
      memo.set(x, d);
      return d;
    }
    const s = x as unknown as ScanPlan;
    const own = x.k === 'scan' && (needsRepush(s) || (moves && (s.minTsClock === 'affine' || s.maxTsClock === 'affine')));
    memo.set(x, own);
    let d = own;
    for (const [, v] of kids(x)) if (visit(v)) d = true;
    memo.set(x, d);
    return d;
  };
  visit(plan);
  const out: DirtyNodes = new WeakMap();
  for (const [x, d] of memo) {
    if (!d) continue;
    const o = x as Obj;
    out.set(x, x instanceof Map || o.k === 'const' ? [] : kids(o).filter(([, v]) => isObj(v) && memo.get(v) === true).map(([k]) => k));
  }
  return out;
}

/**
 * A copy of `plan` (a logical plan, or a logical and a physical plan together: the physical nodes that
 * reach a copied logical node are copied too) with the values `r` gives, moved in time by `deltaUs`
 * (0: not moved); only the objects in `dirty` (dirtyNodes) are copied, the rest shared.
 */
export function substitute<T>(plan: T, r: Revaluer, deltaUs: number, dirty: DirtyNodes): T {
  const putIn = (x: Obj, copied: Obj): Obj => {
    let o = copied;
    // A plain constant now: the trace is only needed on the prepared plan.
    if (x.k === 'const' && traced(x as unknown as BExpr)) {
      o = x.clock !== undefined ? { k: 'const', value: r.value(x as unknown as BExpr), type: x.type, clock: x.clock } : { k: 'const', value: r.value(x as unknown as BExpr), type: x.type };
    }
    // A copied subquery is another subquery: it gets its own id, as a fresh bind's would (expression keys).
    if (x.k === 'subquery' && o.plan !== x.plan && isObj(o.plan)) registerSubqueryPlan(o.plan);
    // Bounds set again from what was pushed are at the new instant already.
    if (x.k === 'scan' && repushBounds(x as unknown as ScanPlan, o as unknown as ScanPlan, r, deltaUs)) return o;
    if (deltaUs !== 0) shift(o, deltaUs);
    return o;
  };
  const pick = (x: object): (string | number)[] | undefined => dirty.get(x);
  return copyWith(plan, programFor(plan, dirty, pick), pick, putIn);
}

/** Per DirtyNodes (kept with its template): the copy program of the plan it was made for. */
const programs = new WeakMap<DirtyNodes, { plan: unknown; program: CopyProgram | null }>();

/** The walk a substitution of `plan` copies is the same for every request: traced once per plan and DirtyNodes. */
function programFor(plan: unknown, dirty: DirtyNodes, pick: (x: object) => (string | number)[] | undefined): CopyProgram | null {
  let e = programs.get(dirty);
  if (!e || e.plan !== plan) programs.set(dirty, (e = { plan, program: compileCopy(plan, pick) }));
  return e.program;
}
