// Moves a planned query to another instant. A plan whose every clock-dependent constant is 'affine'
// (exactly now + a fixed offset) and whose time bounds never mix fixed and moving constants is the
// plan of the same query at now + Δ once each such constant and bound is shifted by Δ.

import type { ScanPlan } from '../plan/bound.ts';
import { mixedTimeBounds } from '../plan/rules.ts';
import { copyGraph, isObj, SHARED_KEYS, type Obj } from './copy-graph.ts';

/**
 * Whether `graph` (a logical plan and what was planned from it) can be moved in time by `retime`;
 * with `allowMixed`, by substitute.ts, which sets scan bounds again from what was pushed into them.
 */
export function retimable(graph: unknown, allowMixed = false): boolean {
  const seen = new Set<unknown>();
  const ok = (x: unknown): boolean => {
    if (!isObj(x) || seen.has(x)) return true;
    seen.add(x);
    if (x instanceof Map) return [...x.entries()].every(([k, v]) => ok(k) && ok(v));
    if (Array.isArray(x)) return x.every(ok);
    if (x.clock === 'other' || x.minTsClock === 'other' || x.maxTsClock === 'other') return false;
    if (!allowMixed && x.k === 'scan' && mixedTimeBounds(x as unknown as ScanPlan)) return false;
    for (const [key, v] of Object.entries(x)) if (!SHARED_KEYS.has(key) && key !== 'value' && !ok(v)) return false;
    return true;
  };
  return ok(graph);
}

/** Whether anything in `graph` depends on the clock (else it is the same plan at every instant). */
export function clockFree(graph: unknown): boolean {
  const seen = new Set<unknown>();
  const free = (x: unknown): boolean => {
    if (!isObj(x) || seen.has(x)) return true;
    seen.add(x);
    if (x instanceof Map) return [...x.entries()].every(([k, v]) => free(k) && free(v));
    if (Array.isArray(x)) return x.every(free);
    if (x.clock !== undefined || x.minTsClock !== undefined || x.maxTsClock !== undefined) return false;
    for (const [key, v] of Object.entries(x)) if (!SHARED_KEYS.has(key) && key !== 'value' && !free(v)) return false;
    return true;
  };
  return free(graph);
}

/**
 * A copy of `graph` (sharing kept: one scan stays one scan everywhere it is referenced) with every
 * affine clock constant and clock-marked scan bound shifted by `deltaUs`. Only for retimable graphs.
 * `only` (substitute.ts dirtyNodes of the graph, as it moves) copies just what moves and what reaches it.
 */
export function retime<T>(graph: T, deltaUs: number, only?: WeakMap<object, readonly (string | number)[]>): T {
  const shifted = (_: Obj, o: Obj): Obj => {
    shift(o, deltaUs);
    return o;
  };
  return copyGraph(graph, only ? (x) => only.get(x) : () => 'all', shifted);
}

/** Shifts one copied node's affine clock constant or clock-marked scan bounds by `deltaUs`. */
export function shift(o: Obj, deltaUs: number): void {
  if (o.clock === 'affine' && typeof o.value === 'number') o.value += deltaUs;
  if (o.k === 'scan') {
    const s = o as unknown as ScanPlan;
    if (s.minTsClock === 'affine' && s.minTs !== undefined) s.minTs += deltaUs;
    if (s.maxTsClock === 'affine' && s.maxTs !== undefined) s.maxTs += deltaUs;
  }
}

