// SortExec, DistinctExec and SetOpExec (UNION/INTERSECT/EXCEPT): the operators that must see
// all of their input (or remember it) before they can answer; each resumes across slices.

import type { Accessor } from '../../plan/compile-expr.ts';
import { missingColumn, type Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { ExecContext } from '../context.ts';
import { groupKey, sortCompare, type Value } from '../../core/values.ts';

const BATCH = 1024;

interface Keyed {
  r: unknown;
  k: Value[];
}

/** Rows sorted per run; runs are merged lazily, so a big sort is cut into slices like any other work. */
const RUN_ROWS = 16_384;

export class SortExec implements Operator {
  private readonly runs: Keyed[][] = [];
  private current: Keyed[] = [];
  private collected = false;
  /** Read positions of the runs during the merge. */
  private heads: number[] = [];
  private readonly cmp: (a: Keyed, b: Keyed) => number;

  constructor(private readonly input: Operator, private readonly keys: { acc: Accessor; desc: boolean; nullsFirst: boolean }[], private readonly ctx: ExecContext) {
    this.cmp = (a, b) => {
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
    };
  }

  /** Sorts the run being filled (a stable sort) and starts a new one. */
  private closeRun(): void {
    if (!this.current.length) return;
    this.current.sort(this.cmp);
    this.ctx.meter.tick(this.current.length);
    this.runs.push(this.current);
    this.current = [];
  }

  next(): unknown[] | null {
    const m = this.ctx.meter;
    while (!this.collected) {
      const b = this.input.next();
      if (b === null) {
        this.closeRun();
        this.collected = true;
        this.heads = this.runs.map(() => 0);
        break;
      }
      if (b.length === 0) return b;
      for (const r of b) {
        this.current.push({ r, k: this.keys.map((k) => k.acc(r)) });
        if (this.current.length >= RUN_ROWS) this.closeRun();
      }
      m.tick(b.length);
      if (m.sliceDue) return [];
    }
    return this.merge();
  }

  /**
   * Up to BATCH rows of the k-way merge. Ties go to the earlier run, whose rows came earlier in the input,
   * so the result equals one stable sort of the whole input.
   */
  private merge(): unknown[] | null {
    const { runs, heads, cmp } = this;
    const out: unknown[] = [];
    while (out.length < BATCH) {
      let best = -1;
      for (let i = 0; i < runs.length; i++) {
        if (heads[i]! >= runs[i]!.length) continue;
        if (best < 0 || cmp(runs[i]![heads[i]!]!, runs[best]![heads[best]!]!) < 0) best = i;
      }
      if (best < 0) break;
      out.push(runs[best]![heads[best]!++]!.r);
    }
    this.ctx.meter.tick(out.length);
    return out.length ? out : null;
  }

  acc(id: number): Accessor { return this.input.acc(id); }
  raw(scanId: number): ((row: unknown) => ScanRow) | null { return this.input.raw(scanId); }
}

export class DistinctExec implements Operator {
  private readonly seen = new Set<string>();
  private readonly accs: Accessor[];
  constructor(private readonly input: Operator, ids: number[], private readonly ctx: ExecContext) {
    this.accs = ids.map((id) => input.acc(id));
  }
  next(): unknown[] | null {
    for (;;) {
      const b = this.input.next();
      if (b === null || b.length === 0) return b;
      const out: unknown[] = [];
      for (const r of b) {
        let key = '';
        for (const a of this.accs) key += groupKey(a(r)) + '\u0001';
        if (!this.seen.has(key)) { this.seen.add(key); out.push(r); }
      }
      this.ctx.meter.tick(b.length);
      if (out.length || this.ctx.yieldDue) return out;
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
  private rightBuilt = false;
  /** Next input the right-side count reads (inputs after the first). */
  private buildInput = 1;
  constructor(
    private readonly inputs: { op: Operator; accs: Accessor[] }[],
    private readonly op: 'union' | 'intersect' | 'except',
    private readonly all: boolean,
    private readonly ids: number[],
    private readonly ctx: ExecContext,
  ) {}

  private static key(vals: Value[]): string {
    let k = '';
    for (const v of vals) k += groupKey(v) + '\u0001';
    return k;
  }

  /** Counts the rows of every input but the first (INTERSECT/EXCEPT); false while the slice ended first. */
  private buildRight(): boolean {
    const keys = (this.rightKeys ??= new Map());
    while (this.buildInput < this.inputs.length) {
      const inp = this.inputs[this.buildInput]!;
      const b = inp.op.next();
      if (b === null) { this.buildInput++; continue; }
      for (const r of b) {
        const k = SetOpExec.key(inp.accs.map((a) => a(r)));
        keys.set(k, (keys.get(k) ?? 0) + 1);
      }
      this.ctx.meter.tick(b.length);
      if (this.ctx.yieldDue) return false;
    }
    this.rightBuilt = true;
    return true;
  }

  next(): unknown[] | null {
    if (this.op !== 'union' && !this.rightBuilt && !this.buildRight()) return [];
    while (this.idx < this.inputs.length) {
      const inp = this.inputs[this.idx]!;
      const b = inp.op.next();
      if (b === null) {
        if (this.op !== 'union') break;
        this.idx++;
        continue;
      }
      if (b.length === 0) return b;
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
      this.ctx.meter.tick(b.length);
      if (out.length || this.ctx.yieldDue) return out;
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
