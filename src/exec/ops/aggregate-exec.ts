// AggregateExec: hash aggregation over the whole input; no GROUP BY gives exactly one row even
// over no input (COUNT(*) = 0), as in SQL. Grouping resumes across slices, one input batch at a time.

import type { BExpr } from '../../plan/bound.ts';
import type { Accessor } from '../../plan/compile-expr.ts';
import type { Accumulator } from '../../fn/registry.ts';
import { modifiedAccumulator } from '../../fn/agg-modifiers.ts';
import { arrayAccessor, type Operator } from '../operator.ts';
import { groupKey, type Value } from '../../core/values.ts';
import type { ExecContext } from '../context.ts';

interface Group {
  keys: Value[];
  accs: Accumulator[];
}

function newAccumulator(a: Extract<BExpr, { k: 'agg' }>): Accumulator {
  const consts = a.args.map((x) => (x.k === 'const' ? x.value : undefined));
  if (!a.mods) return a.agg.create(consts, a.distinct);
  const { ignoreNulls, order, limit } = a.mods;
  const keys = order.map((o) => ({ desc: o.desc, nullsFirst: o.nullsFirst }));
  return modifiedAccumulator(a.agg.create(consts, false), { name: a.agg.name, nArgs: a.args.length, distinct: a.distinct, ignoreNulls, keys, limit });
}

export class AggregateExec implements Operator {
  private done = false;
  private readonly keyAccs: Accessor[];
  private readonly argAccs: Accessor[][];
  private readonly ids: number[];
  // Grouping state, kept across calls so a slice can end between input batches.
  // Composite keys are joined group keys; a single scalar key is its own Map key (SameValueZero).
  private readonly groups = new Map<unknown, Group>();
  private readonly objectGroups = new Map<unknown, Group>();
  private single: Group | null;
  /** Accumulators never keep the argument array, so one scratch array per aggregate serves every row. */
  private readonly scratch: Value[][];

  constructor(
    private readonly input: Operator,
    keys: BExpr[],
    private readonly aggs: Extract<BExpr, { k: 'agg' }>[],
    outIds: number[],
    compile: (e: BExpr) => Accessor,
    private readonly ctx: ExecContext,
  ) {
    this.keyAccs = keys.map(compile);
    // An aggregate with ORDER BY also reads its sort keys, after its arguments.
    this.argAccs = aggs.map((a) => (a.star ? [] : [...a.args, ...(a.mods?.order.map((o) => o.expr) ?? [])].map(compile)));
    this.ids = outIds;
    this.single = keys.length === 0 ? this.newGroup([]) : null;
    this.scratch = this.argAccs.map((a) => new Array<Value>(a.length));
  }

  private newGroup(keys: Value[]): Group {
    return { keys, accs: this.aggs.map(newAccumulator) };
  }

  next(): unknown[] | null {
    if (this.done) return null;
    const m = this.ctx.meter;
    for (let b = this.input.next(); b !== null; b = this.input.next()) {
      if (b.length === 0) return b;
      this.addBatch(b);
      m.tick(b.length);
      if (m.sliceDue) return [];
    }
    this.done = true;
    const all = this.single ? [this.single] : [...this.groups.values(), ...this.objectGroups.values()];
    this.single = null;
    this.groups.clear();
    this.objectGroups.clear();
    if (!all.length) return null;
    return all.map((g) => [...g.keys, ...g.accs.map((a) => a.result())]);
  }

  private addBatch(b: unknown[]): void {
    const { groups, objectGroups, scratch, single } = this;
    const nk = this.keyAccs.length;
    const key0 = nk === 1 ? this.keyAccs[0]! : null;
    const nAggs = this.argAccs.length;
    for (const r of b) {
      let g: Group;
      if (single) g = single;
      else if (key0) {
        const v = key0(r);
        const map = v !== null && typeof v === 'object' ? objectGroups : groups;
        const k = map === groups ? v : groupKey(v);
        let found = map.get(k);
        if (!found) { found = this.newGroup([v]); map.set(k, found); }
        g = found;
      } else {
        const kv = new Array<Value>(nk);
        let key = '';
        for (let i = 0; i < nk; i++) { kv[i] = this.keyAccs[i]!(r); key += groupKey(kv[i]!) + '\u0001'; }
        let found = groups.get(key);
        if (!found) { found = this.newGroup(kv); groups.set(key, found); }
        g = found;
      }
      for (let a = 0; a < nAggs; a++) {
        const accs = this.argAccs[a]!;
        const args = scratch[a]!;
        for (let j = 0; j < accs.length; j++) args[j] = accs[j]!(r);
        g.accs[a]!.add(args);
      }
    }
  }

  acc(id: number): Accessor {
    return arrayAccessor(this.ids, id, 'aggregate');
  }

  raw(): null {
    return null;
  }
}
