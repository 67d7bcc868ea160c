// HotUnnestExec: a chain of LEFT JOIN UNNESTs from a scan (`unnest(metadata) m`, `unnest(m.request) r`)
// whose last element is read only as `r.<leaf>` for leaves the store keeps as hot dictionary columns.
// Rows whose hot values are exact skip JSON parsing entirely; the rest take the generic unnest path.

import { readField, type Accessor } from '../../fn/compile-expr.ts';
import type { ExecContext } from '../context.ts';
import type { Operator } from '../operator.ts';
import type { ScanRow } from '../scan-row.ts';
import type { Value } from '../values.ts';
import { INEXACT, type HotValue } from '../../store/hot-paths.ts';
import type { ScanExec } from './scan-exec.ts';

export interface HotChain {
  /** Reads the array the first unnest expands (a column of the scan). */
  first: Accessor;
  /** Record field each further unnest expands, bottom first (e.g. ['request']). */
  fields: string[];
  /** Column id of each unnest's element, bottom first. */
  elemIds: number[];
  /** Leaves read on the last element, each with its dictionary (aligned with the scan's hot keys). */
  leaves: { name: string; dict: readonly HotValue[] }[];
}

/** Output rows are [scanRow, elem1, ..., elemK]; on the fast path only elemK (a record of the leaves) is set. */
export class HotUnnestExec implements Operator {
  private readonly depth: number;

  constructor(private readonly scan: ScanExec, private readonly chain: HotChain, private readonly ctx: ExecContext) {
    this.depth = chain.elemIds.length;
  }

  next(): unknown[] | null {
    const { leaves } = this.chain;
    const k = this.depth;
    for (;;) {
      const rows = this.scan.next();
      if (rows === null) return null;
      const hot = this.scan.lastHot;
      const out: unknown[] = [];
      for (let i = 0; i < rows.length; i++) {
        const rec: Record<string, Value> = {};
        let exact = true;
        for (let l = 0; l < leaves.length; l++) {
          const v = leaves[l]!.dict[hot[l]![i]!];
          if (v === INEXACT || v === undefined) { exact = false; break; }
          rec[leaves[l]!.name] = v;
        }
        if (exact) {
          const row = new Array<unknown>(k + 1);
          row[0] = rows[i];
          row[k] = rec;
          out.push(row);
        } else this.expand(rows[i] as ScanRow, out);
      }
      this.ctx.charge(out.length);
      if (out.length) return out;
    }
  }

  /** The generic LEFT JOIN UNNEST chain for one row (several records on the way, odd leaves). */
  private expand(row: ScanRow, out: unknown[]): void {
    const k = this.depth;
    const walk = (vals: Value[], d: number): void => {
      if (d === k) { out.push([row, ...vals]); return; }
      const arr = d === 0 ? this.chain.first(row) : readField(vals[d - 1]!, this.chain.fields[d - 1]!);
      const elems = Array.isArray(arr) ? arr : arr !== null && typeof arr === 'object' ? [arr] : null;
      if (elems && elems.length) for (const e of elems) walk([...vals, e ?? null], d + 1);
      else walk([...vals, null], d + 1);
    };
    walk([], 0);
  }

  acc(id: number): Accessor {
    const j = this.chain.elemIds.indexOf(id);
    if (j >= 0) return (r) => ((r as unknown[])[j + 1] ?? null) as Value;
    const inner = this.scan.acc(id);
    return (r) => inner((r as unknown[])[0]);
  }

  raw(scanId: number): ((row: unknown) => ScanRow) | null {
    const inner = this.scan.raw(scanId);
    return inner ? (r) => inner((r as unknown[])[0]) : null;
  }
}
