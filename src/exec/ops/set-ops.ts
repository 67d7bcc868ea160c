// SortExec, DistinctExec and SetOpExec (UNION/INTERSECT/EXCEPT): the operators that must see
// all of their input (or remember it) before they can answer.

import type { Accessor } from '../../fn/compile-expr.ts';
import { missingColumn, type Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import { groupKey, sortCompare, type Value } from '../values.ts';

const BATCH = 1024;

export class SortExec implements Operator {
  private sorted: unknown[] | null = null;
  private pos = 0;
  constructor(private readonly input: Operator, private readonly keys: { acc: Accessor; desc: boolean; nullsFirst: boolean }[]) {}
  next(): unknown[] | null {
    if (!this.sorted) {
      const rows: { r: unknown; k: Value[] }[] = [];
      for (let b = this.input.next(); b !== null; b = this.input.next()) for (const r of b) rows.push({ r, k: this.keys.map((k) => k.acc(r)) });
      const keys = this.keys;
      rows.sort((a, b) => {
        for (let i = 0; i < keys.length; i++) {
          const x = a.k[i]!, y = b.k[i]!;
          if (x === null || y === null) {
            if (x === y) continue;
            return (x === null) === keys[i]!.nullsFirst ? -1 : 1;
          }
          const c = sortCompare(x, y);
          if (c !== 0) return keys[i]!.desc ? -c : c;
        }
        return 0;
      });
      this.sorted = rows.map((x) => x.r);
    }
    if (this.pos >= this.sorted.length) return null;
    const out = this.sorted.slice(this.pos, this.pos + BATCH);
    this.pos += out.length;
    return out;
  }
  acc(id: number): Accessor { return this.input.acc(id); }
  raw(scanId: number): ((row: unknown) => ScanRow) | null { return this.input.raw(scanId); }
}

export class DistinctExec implements Operator {
  private readonly seen = new Set<string>();
  private readonly accs: Accessor[];
  constructor(private readonly input: Operator, ids: number[]) {
    this.accs = ids.map((id) => input.acc(id));
  }
  next(): unknown[] | null {
    for (;;) {
      const b = this.input.next();
      if (b === null) return null;
      const out: unknown[] = [];
      for (const r of b) {
        let key = '';
        for (const a of this.accs) key += groupKey(a(r)) + '\u0001';
        if (!this.seen.has(key)) { this.seen.add(key); out.push(r); }
      }
      if (out.length) return out;
    }
  }
  acc(id: number): Accessor { return this.input.acc(id); }
  raw(scanId: number): ((row: unknown) => ScanRow) | null { return this.input.raw(scanId); }
}

/** Set operations over inputs whose rows are normalised to arrays of values in column order. */
export class SetOpExec implements Operator {
  private idx = 0;
  private readonly seen = new Set<string>();
  private rightKeys: Map<string, number> | null = null;
  constructor(
    private readonly inputs: { op: Operator; accs: Accessor[] }[],
    private readonly op: 'union' | 'intersect' | 'except',
    private readonly all: boolean,
    private readonly ids: number[],
  ) {}

  private static key(vals: Value[]): string {
    let k = '';
    for (const v of vals) k += groupKey(v) + '\u0001';
    return k;
  }

  next(): unknown[] | null {
    if (this.op !== 'union' && !this.rightKeys) {
      this.rightKeys = new Map();
      for (const inp of this.inputs.slice(1)) {
        for (let b = inp.op.next(); b !== null; b = inp.op.next()) {
          for (const r of b) {
            const k = SetOpExec.key(inp.accs.map((a) => a(r)));
            this.rightKeys.set(k, (this.rightKeys.get(k) ?? 0) + 1);
          }
        }
      }
    }
    while (this.idx < this.inputs.length) {
      const inp = this.inputs[this.idx]!;
      const b = inp.op.next();
      if (b === null) {
        if (this.op !== 'union') break;
        this.idx++;
        continue;
      }
      const out: unknown[] = [];
      for (const r of b) {
        const vals = inp.accs.map((a) => a(r));
        const k = SetOpExec.key(vals);
        if (this.op !== 'union') {
          const n = this.rightKeys!.get(k) ?? 0;
          const keep = this.op === 'intersect' ? n > 0 : n === 0;
          if (!keep) { if (this.all && this.op === 'intersect') continue; if (!this.all || this.op === 'intersect') continue; }
          if (this.all && this.op === 'intersect') this.rightKeys!.set(k, n - 1);
        }
        if (!this.all) {
          if (this.seen.has(k)) continue;
          this.seen.add(k);
        }
        out.push(vals);
      }
      if (out.length) return out;
    }
    return null;
  }

  acc(id: number): Accessor {
    const i = this.ids.indexOf(id);
    if (i < 0) missingColumn(id, 'set operation');
    return (r) => (r as Value[])[i]!;
  }
  raw(): null { return null; }
}
