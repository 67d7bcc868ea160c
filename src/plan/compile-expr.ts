// Compiles a bound expression to a closure over a row. Columns and subqueries are supplied by
// the caller's environment, so the planner (constant folding) and the executor share one evaluator.

import '../fn/index.ts';
import { RingqlError } from '../core/errors.ts';
import { MEASURE_FROM, activeMeter, stringBytesOver } from '../core/work-meter.ts';
import { castValue } from '../fn/cast.ts';
import { compareValues, sqlEquals, type Value } from '../core/values.ts';
import type { BExpr } from './bound.ts';
import type { Kernel } from '../fn/registry.ts';

export type Accessor = (row: unknown) => Value;

export interface CompileEnv {
  col(id: number): Accessor;
  /** Compiles a subquery expression (`scalar`, `exists`, `in`, `array`) over the same row type. */
  subquery(e: Extract<BExpr, { k: 'subquery' }>, arg: Accessor | null): Accessor;
}

export function compileExpr(e: BExpr, env: CompileEnv): Accessor {
  switch (e.k) {
    case 'const': {
      const v = e.value;
      return () => v;
    }
    case 'col':
      return env.col(e.id);
    case 'field': {
      const base = compileExpr(e.base, env);
      const name = e.name;
      return (r) => readField(base(r), name);
    }
    case 'call':
      return compileCall(e, env);
    case 'and': {
      const parts = e.args.map((a) => compileExpr(a, env));
      if (parts.length === 2) {
        const [a, b] = parts as [Accessor, Accessor];
        return (r) => {
          const x = a(r);
          if (x === false) return false;
          const y = b(r);
          if (y === false) return false;
          return x === true && y === true ? true : null;
        };
      }
      return (r) => {
        let unknown = false;
        for (const p of parts) {
          const v = p(r);
          if (v === false) return false;
          if (v !== true) unknown = true;
        }
        return unknown ? null : true;
      };
    }
    case 'or': {
      const parts = e.args.map((a) => compileExpr(a, env));
      return (r) => {
        let unknown = false;
        for (const p of parts) {
          const v = p(r);
          if (v === true) return true;
          if (v !== false) unknown = true;
        }
        return unknown ? null : false;
      };
    }
    case 'not': {
      const a = compileExpr(e.arg, env);
      return (r) => { const v = a(r); return v === null || typeof v !== 'boolean' ? null : !v; };
    }
    case 'case': {
      const whens = e.whens.map((w) => [compileExpr(w.when, env), compileExpr(w.then, env)] as const);
      const els = compileExpr(e.else, env);
      return (r) => {
        for (const [w, t] of whens) if (w(r) === true) return t(r);
        return els(r);
      };
    }
    case 'cast': {
      const a = compileExpr(e.arg, env);
      const from = e.arg.type, to = e.to, safe = e.safe;
      if (from === to && to !== 'ANY') return a;
      return (r) => castValue(a(r), from, to, safe);
    }
    case 'in': {
      const a = compileExpr(e.arg, env);
      const list = e.list.map((x) => compileExpr(x, env));
      const not = e.not;
      return (r) => {
        const v = a(r);
        if (v === null) return null;
        let unknown = false;
        for (const l of list) {
          const eq = sqlEquals(v, l(r));
          if (eq === true) return !not;
          if (eq === null) unknown = true;
        }
        return unknown ? null : not;
      };
    }
    case 'inArray': {
      const a = compileExpr(e.arg, env);
      const arr = compileExpr(e.array, env);
      const not = e.not;
      return (r) => {
        const v = a(r), xs = arr(r);
        if (v === null || !Array.isArray(xs)) return xs === null || (Array.isArray(xs) && xs.length === 0) ? (xs === null ? null : not) : null;
        let unknown = false;
        for (const x of xs) {
          const eq = sqlEquals(v, x);
          if (eq === true) return !not;
          if (eq === null) unknown = true;
        }
        return unknown ? null : not;
      };
    }
    case 'subquery':
      return env.subquery(e, e.arg ? compileExpr(e.arg, env) : null);
    case 'anyElement':
      return compileAnyElement(e, env);
    case 'subscript': {
      const base = compileExpr(e.base, env);
      const idx = compileExpr(e.index, env);
      const mode = e.mode;
      return (r) => subscript(base(r), idx(r), mode);
    }
    case 'array': {
      const els = e.elements.map((x) => compileExpr(x, env));
      return (r) => els.map((x) => x(r));
    }
    case 'struct': {
      const fs = e.fields.map((f) => [f.name, compileExpr(f.expr, env)] as const);
      return (r) => {
        const o: Record<string, Value> = {};
        // A field named __proto__ must be an own member (plain assignment would set the prototype).
        for (const [n, f] of fs) { if (n === '__proto__') Object.defineProperty(o, n, { value: f(r), enumerable: true, writable: true, configurable: true }); else o[n] = f(r); }
        return o;
      };
    }
    case 'agg':
      throw new Error('aggregate reached the expression compiler; the binder should have replaced it');
  }
}

/** Field of a STRUCT value; NULL for a missing field or a value that is not a struct. */
export function readField(v: Value, name: string): Value {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  // Own members only: a missing `constructor` or `__proto__` is NULL, not Object.prototype's.
  return Object.hasOwn(v, name) ? ((v as Record<string, Value>)[name] ?? null) : null;
}

function subscript(base: Value, idx: Value, mode: 'offset' | 'safe_offset' | 'ordinal' | 'safe_ordinal'): Value {
  if (base === null || idx === null) return null;
  if (typeof idx !== 'number') return null;
  const i = mode === 'ordinal' || mode === 'safe_ordinal' ? idx - 1 : idx;
  const safe = mode === 'safe_offset' || mode === 'safe_ordinal';
  if (Array.isArray(base)) {
    if (i >= 0 && i < base.length) return base[i] ?? null;
    if (safe) return null;
    throw new RingqlError('query_error', `Array index ${idx} is out of bounds (array length ${base.length}); use SAFE_OFFSET to get NULL instead`);
  }
  if (typeof base === 'object') {
    const vals = Object.values(base as Record<string, Value>);
    if (i >= 0 && i < vals.length) return vals[i] ?? null;
    if (safe) return null;
    throw new RingqlError('query_error', `Field index ${idx} is out of bounds (struct has ${vals.length} fields)`);
  }
  return null;
}

/** The kernel specialised for constant arguments; under SAFE. a specialisation error is left to the row (→ NULL). */
function specialized(e: Extract<BExpr, { k: 'call' }>, consts: (Value | undefined)[]): Kernel | null {
  if (!e.fn.specialize || !e.args.slice(1).some((a) => a.k === 'const')) return null;
  try {
    return e.fn.specialize(consts);
  } catch (err) {
    if (e.safe && err instanceof RingqlError && err.code === 'query_error') return null;
    throw err;
  }
}

function compileCall(e: Extract<BExpr, { k: 'call' }>, env: CompileEnv): Accessor {
  const args = e.args.map((a) => compileExpr(a, env));
  const consts = e.args.map((a) => (a.k === 'const' ? a.value : undefined));
  const kernel: Kernel = specialized(e, consts) ?? e.fn.kernel;
  const strict = e.fn.strict;
  let f: Accessor;
  if (args.length === 1) {
    const [a] = args as [Accessor];
    f = strict ? (r) => { const x = a(r); return x === null ? null : kernel(x); } : (r) => kernel(a(r));
  } else if (args.length === 2) {
    const [a, b] = args as [Accessor, Accessor];
    f = strict
      ? (r) => { const x = a(r); if (x === null) return null; const y = b(r); return y === null ? null : kernel(x, y); }
      : (r) => kernel(a(r), b(r));
  } else {
    f = (r) => {
      const vals = new Array<Value>(args.length);
      for (let i = 0; i < args.length; i++) {
        const v = args[i]!(r);
        if (strict && v === null) return null;
        vals[i] = v;
      }
      return kernel(...vals);
    };
  }
  const metered = meterResults(f, e.fn.name);
  if (!e.safe) return metered;
  return (r) => {
    try {
      return metered(r);
    } catch (err) {
      if (err instanceof RingqlError && err.code === 'query_error') return null;
      throw err;
    }
  };
}

/** String results this long (UTF-16 units, up to 3 UTF-8 bytes each) are measured. */
const LARGE_CHARS = Math.floor(MEASURE_FROM / 3);
/** Array results with this many elements are measured (8 bytes an element). */
const LARGE_ELEMENTS = MEASURE_FROM / 8;

/**
 * Charges large results to the running query's meter: the single-value cap, the per-query sum of large
 * values, and their work in the time budget. One typeof per call on the common, small path.
 */
function meterResults(f: Accessor, name: string): Accessor {
  return (r) => {
    const v = f(r);
    if (typeof v === 'string') {
      if (v.length >= LARGE_CHARS) {
        const m = activeMeter();
        m.produced(stringBytesOver(v, m.limits.maxValueBytes), `The result of ${name}`);
      }
    } else if (Array.isArray(v) && v.length >= LARGE_ELEMENTS) {
      activeMeter().produced(v.length * 8, `The array from ${name}`);
    }
    return v;
  };
}

/** Comparison used by ORDER BY-free code paths (exported for the aggregate MIN/MAX shortcuts). */
export { compareValues };

/**
 * EXISTS over the current row's array: the predicate sees each element as the element column and the
 * row's other columns as usual; TRUE at the first element it holds for, else FALSE (never NULL). As
 * UNNEST does, a single record counts as a one-element array and any other non-array as empty.
 */
function compileAnyElement(e: Extract<BExpr, { k: 'anyElement' }>, env: CompileEnv): Accessor {
  const array = compileExpr(e.array, env);
  const elemId = e.elem.id;
  let current: Value = null;
  const element: Accessor = () => current;
  const inner: CompileEnv = { col: (id) => (id === elemId ? element : env.col(id)), subquery: (s, arg) => env.subquery(s, arg) };
  const pred = compileExpr(e.pred, inner);
  return (r) => {
    const v = array(r);
    const elems: readonly Value[] = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? [v] : [];
    for (const x of elems) {
      current = x;
      if (pred(r) === true) return true;
    }
    return false;
  };
}
