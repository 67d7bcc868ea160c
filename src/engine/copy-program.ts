// A copyGraph (copy-graph.ts) of one graph and pick, traced once and replayed: the objects to copy, in
// the order copyGraph copies them, and where each copy links to another. A prepared template's copy is
// the same walk for every request; only the rewrite (the values put in) differs, so it is worked out once.

import { copyGraph, isObj, type Obj, type PickChildren, type RewriteCopy } from './copy-graph.ts';

/** One copied object: the original, and its picked children that are copied too (child's index in `nodes`). */
interface CopyStep {
  orig: Obj;
  isArray: boolean;
  keys: (string | number)[];
  kids: number[];
}

export interface CopyProgram {
  /** Copied objects in the order copyGraph first reaches them (index 0 is the graph itself). */
  steps: CopyStep[];
  /** Step indexes in the order copyGraph finishes them (children before parents, cycles aside). */
  finishOrder: number[];
}

/**
 * Traces copyGraph's walk of `graph` under `pick`; null when it would copy a Map or a whole object
 * ('all'), which the program does not replay (callers then use copyGraph), or when nothing is copied.
 */
export function compileCopy(graph: unknown, pick: PickChildren): CopyProgram | null {
  const index = new Map<object, number>();
  const steps: CopyStep[] = [];
  const finishOrder: number[] = [];
  let replayable = true;
  /** The step index of `x` when copied, else -1 (shared or not an object). */
  const visit = (x: unknown): number => {
    if (!replayable || !isObj(x)) return -1;
    const known = index.get(x);
    if (known !== undefined) return known;
    const keys = pick(x);
    if (keys === undefined) return -1;
    if (keys === 'all' || x instanceof Map) {
      replayable = false;
      return -1;
    }
    const i = steps.length;
    const step: CopyStep = { orig: x, isArray: Array.isArray(x), keys: [], kids: [] };
    steps.push(step);
    index.set(x, i);
    for (const key of keys) {
      const k = visit((x as Record<string | number, unknown>)[key]);
      if (k >= 0) {
        step.keys.push(key);
        step.kids.push(k);
      }
    }
    finishOrder.push(i);
    return i;
  };
  visit(graph);
  return replayable && steps.length > 0 ? { steps, finishOrder } : null;
}

/**
 * What copyGraph(graph, pick, rewrite) gives, for the graph and pick `p` was compiled from: the same
 * objects copied once each, linked alike, `rewrite` called on each copied object (not arrays) in the
 * same order; only a leaf may be replaced by it, as copyGraph requires.
 */
export function runCopy<T>(p: CopyProgram, rewrite: RewriteCopy): T {
  const { steps } = p;
  const out: unknown[] = new Array(steps.length);
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    out[i] = s.isArray ? (s.orig as unknown as unknown[]).slice() : { ...s.orig };
  }
  // In copyGraph's finishing order: a child finished before is its rewritten copy; an ancestor (a cycle)
  // is still its plain copy, which its rewrite keeps (only leaves are replaced), as in copyGraph.
  for (const i of p.finishOrder) {
    const s = steps[i]!;
    const o = out[i] as Record<string | number, unknown>;
    for (let j = 0; j < s.keys.length; j++) o[s.keys[j]!] = out[s.kids[j]!];
    if (!s.isArray) out[i] = rewrite(s.orig, o);
  }
  return out[0] as T;
}

/** copyGraph through a program when `p` is given (compiled from this graph and pick), else copyGraph itself. */
export function copyWith<T>(graph: T, p: CopyProgram | null, pick: PickChildren, rewrite: RewriteCopy): T {
  return p ? runCopy<T>(p, rewrite) : copyGraph(graph, pick, rewrite);
}
