// AggregateExec: hash aggregation over the whole input; no GROUP BY gives exactly one row even
// over no input (COUNT(*) = 0), as in SQL.

import type { BExpr } from '../../plan/bound.ts';
import type { Accessor } from '../../fn/compile-expr.ts';
import type { Accumulator } from '../../fn/registry.ts';
import { missingColumn, type Operator } from '../operator.ts';
import { groupKey, type Value } from '../values.ts';

interface Group {
  keys: Value[];
  accs: Accumulator[];
}

export class AggregateExec implements Operator {
  private done = false;
  private readonly keyAccs: Accessor[];
  private readonly argAccs: Accessor[][];
  private readonly ids: number[];

  constructor(private readonly input: Operator, keys: BExpr[], private readonly aggs: Extract<BExpr, { k: 'agg' }>[], outIds: number[], compile: (e: BExpr) => Accessor) {
    this.keyAccs = keys.map(compile);
    this.argAccs = aggs.map((a) => (a.star ? [] : a.args.map(compile)));
    this.ids = outIds;
  }

  private newGroup(keys: Value[]): Group {
    return { keys, accs: this.aggs.map((a) => a.agg.create(a.args.map((x) => (x.k === 'const' ? x.value : undefined)), a.distinct)) };
  }

  next(): unknown[] | null {
    if (this.done) return null;
    this.done = true;
    const groups = new Map<string, Group>();
    const nk = this.keyAccs.length;
    let single: Group | null = nk === 0 ? this.newGroup([]) : null;
    for (let b = this.input.next(); b !== null; b = this.input.next()) {
      for (const r of b) {
        let g: Group;
        if (single) g = single;
        else {
          const kv = new Array<Value>(nk);
          let key = '';
          for (let i = 0; i < nk; i++) { kv[i] = this.keyAccs[i]!(r); key += groupKey(kv[i]!) + '\u0001'; }
          let found = groups.get(key);
          if (!found) { found = this.newGroup(kv); groups.set(key, found); }
          g = found;
        }
        for (let a = 0; a < g.accs.length; a++) {
          const accs = this.argAccs[a]!;
          g.accs[a]!.add(accs.length === 0 ? [] : accs.length === 1 ? [accs[0]!(r)] : accs.map((f) => f(r)));
        }
      }
    }
    const all = single ? [single] : [...groups.values()];
    single = null;
    if (!all.length) return null;
    return all.map((g) => [...g.keys, ...g.accs.map((a) => a.result())]);
  }

  acc(id: number): Accessor {
    const i = this.ids.indexOf(id);
    if (i < 0) missingColumn(id, 'aggregate');
    return (r) => (r as Value[])[i]!;
  }

  raw(): null {
    return null;
  }
}
