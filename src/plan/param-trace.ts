// Parameter tracing for prepare-once: a constant bound from a parameter (`param`) or folded from such
// constants (`src`) remembers how it was computed, and every planning decision taken on one is recorded,
// so a prepared plan serves other parameter values that take the same decisions, its constants recomputed.

import { RingqlError } from '../core/errors.ts';
import type { Value } from '../core/values.ts';
import type { BExpr } from './bound.ts';
import { compileExpr, type Accessor } from './compile-expr.ts';
import { mapChildren } from './expr-walk.ts';

export type Const = Extract<BExpr, { k: 'const' }>;

/** The parameter values of one request, by declared name (looked up as the binder does). */
export type ParamValues = ReadonlyMap<string, string | null>;

/**
 * A decision the planner took on traced values: `exprs` re-evaluated under other parameter values must
 * classify as `expect` for the plan to hold (a `null` list: an evaluation failed).
 */
export interface Decision {
  exprs: BExpr[];
  classify: (vals: Value[] | null) => string;
  expect: string;
}

let recording: Decision[] | null = null;

/** Runs `f` with decisions recorded (nested recordings are not supported: the inner one wins). */
export function recordDecisions<T>(f: () => T): { result: T; decisions: Decision[] } {
  const prev = recording;
  const decisions: Decision[] = [];
  recording = decisions;
  try {
    return { result: f(), decisions };
  } finally {
    recording = prev;
  }
}

/** Whether `e` is a constant computed from parameter values. */
export function traced(e: BExpr): e is Const & ({ param: string } | { src: BExpr }) {
  return e.k === 'const' && (e.param !== undefined || e.src !== undefined);
}

/** Records that the plan depends on how `classify` sees the values of `exprs` (the caller checks they are traced). */
export function noteDecision(exprs: BExpr[], classify: (vals: Value[] | null) => string, observed: Value[] | null): void {
  if (recording === null) return;
  recording.push({ exprs, classify, expect: classify(observed) });
}

/** A constant's value as a condition: true, false or neither (NULL and anything else). */
export const truthClass = (vals: Value[] | null): string => (vals === null ? '!' : vals[0] === true ? 'T' : vals[0] === false ? 'F' : 'N');
/** A constant's kind of value (which pushdowns accept it). */
export const kindClass = (vals: Value[] | null): string => (vals === null ? '!' : vals[0] === null ? 'null' : typeof vals[0]);
/** The exact value: the plan holds only for this value. */
export const pinClass = (vals: Value[] | null): string => (vals === null ? '!' : JSON.stringify(vals, pinReplacer));

/** Scalars tagged with their kind, numbers spelled out (NaN, ±Infinity and -0 are not JSON). */
function pinReplacer(_k: string, v: unknown): unknown {
  if (typeof v === 'number') return `n:${Object.is(v, -0) ? '-0' : String(v)}`;
  if (typeof v === 'string') return `s:${v}`;
  return typeof v === 'bigint' ? `b:${v}` : v;
}

/** Notes a truth decision on a constant (when traced). */
export function noteTruth(c: BExpr): void {
  if (traced(c)) noteDecision([c], truthClass, [c.value]);
}

/** Notes that the plan holds only for this constant's exact value. */
export function notePin(c: BExpr): void {
  if (traced(c)) noteDecision([c], pinClass, [c.value]);
}

/** A folded node's trace: the node with its constant children, when one of them is traced. */
export function traceOf(node: BExpr, kids: readonly BExpr[]): { src: BExpr } | null {
  return kids.some(traced) ? { src: node } : null;
}

/**
 * A traced node compiled once: its traced children read from a row of their values (the others stay
 * constants, so functions still specialise on them), evaluated again for each request's values.
 */
interface Compiled {
  fn: Accessor;
  kids: BExpr[];
}

const compiledNodes = new WeakMap<BExpr, Compiled>();

const slotsEnv = {
  col: (id: number): Accessor => (row) => (row as Value[])[id] ?? null,
  subquery(): never { throw new Error('a traced constant reached a subquery'); },
};

function compiled(n: BExpr): Compiled {
  let c = compiledNodes.get(n);
  if (c) return c;
  const kids: BExpr[] = [];
  const shaped = mapChildren(n, (k): BExpr => {
    if (!traced(k)) return k;
    kids.push(k);
    return { k: 'col', id: kids.length - 1, name: `$param${kids.length}`, type: k.type };
  });
  c = { fn: compileExpr(shaped, slotsEnv), kids };
  compiledNodes.set(n, c);
  return c;
}

/** Re-evaluates traced expressions under other parameter values (memoised per node). */
export class Revaluer {
  private readonly memo = new Map<BExpr, Value>();
  constructor(private readonly values: ParamValues) {}

  /** The value of `e` (a constant, or a node over constants) under these values; throws as evaluation would. */
  value(e: BExpr): Value {
    if (e.k === 'const' && e.param === undefined && e.src === undefined) return e.value;
    const hit = this.memo.get(e);
    if (hit !== undefined || this.memo.has(e)) return hit as Value;
    let v: Value;
    if (e.k === 'const' && e.param !== undefined) v = this.values.get(e.param) ?? this.values.get(e.param.toLowerCase()) ?? null;
    else v = this.evalNode(e.k === 'const' ? e.src! : e);
    this.memo.set(e, v);
    return v;
  }

  private evalNode(n: BExpr): Value {
    const c = compiled(n);
    return c.fn(c.kids.map((k) => this.value(k)));
  }

  /** Whether a recorded decision comes out the same under these values. */
  holds(d: Decision): boolean {
    let vals: Value[] | null;
    try {
      vals = d.exprs.map((e) => this.value(e));
    } catch (err) {
      if (!(err instanceof RingqlError) || err.code === 'query_timeout') throw err;
      vals = null;
    }
    return d.classify(vals) === d.expect;
  }
}
