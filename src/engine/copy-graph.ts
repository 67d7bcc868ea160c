// The one copier of plan graphs (a logical plan, or a logical and a physical plan together) behind
// retime.ts and substitute.ts: it copies the objects a pick names and shares the rest, copies each object
// once (one scan stays one scan everywhere it is referenced), and lets each copy be rewritten.

/** Objects shared with the store or the function table: referenced, never copied. */
export const SHARED_KEYS = new Set(['source', 'fn', 'agg']);

export type Obj = Record<string, unknown>;

export const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null;

/**
 * Which children of an object a copy copies: undefined = the object is shared, not copied; 'all' = every
 * child (but SHARED_KEYS and constants' `value`); else the keys (array indexes) of the children to copy,
 * the others shared. A Map, once copied, copies every entry (each shared or copied as picked).
 */
export type PickChildren = (x: object) => readonly (string | number)[] | 'all' | undefined;

/** Rewrites one copied object (its picked children copied already); returns it, or what replaces it. */
export type RewriteCopy = (orig: Obj, copy: Obj) => Obj;

/** A copy of `graph` with the objects `pick` names copied (and rewritten), the rest shared. */
export function copyGraph<T>(graph: T, pick: PickChildren, rewrite: RewriteCopy): T {
  const copies = new Map<unknown, unknown>();
  const copy = (x: unknown): unknown => {
    if (!isObj(x)) return x;
    const done = copies.get(x);
    if (done !== undefined) return done;
    const keys = pick(x);
    if (keys === undefined) return x;
    if (x instanceof Map) {
      const m = new Map<unknown, unknown>();
      copies.set(x, m);
      for (const [k, v] of x) m.set(copy(k), copy(v));
      return m;
    }
    if (Array.isArray(x)) {
      const a: unknown[] = x.slice();
      copies.set(x, a);
      if (keys === 'all') for (let i = 0; i < a.length; i++) a[i] = copy(x[i]);
      else for (const i of keys) a[i as number] = copy(x[i as number]);
      return a;
    }
    const o: Obj = { ...x };
    copies.set(x, o);
    if (keys === 'all') {
      for (const key of Object.keys(x)) if (!SHARED_KEYS.has(key) && key !== 'value') o[key] = copy(x[key]);
    } else {
      for (const key of keys) o[key] = copy(x[key]);
    }
    const out = rewrite(x, o);
    // Only a leaf (a constant) is replaced, so nothing copied before refers to `o`.
    if (out !== o) copies.set(x, out);
    return out;
  };
  return copy(graph) as T;
}
