// Name scopes of the binder: CTE scopes (case-insensitive, nested WITH shadows outer) and FROM
// scopes of range variables (tables, CTE/subquery aliases, unnest aliases), as BigQuery resolves them.

import type { Cte } from '../sql/ast.ts';
import type { ColInfo } from './bound.ts';

export interface CteEntry {
  cte: Cte;
  /** Scope the CTE was defined in: its body sees only CTEs defined before it. */
  scope: CteScope | null;
  /** Defined by the saved query (may read sources) rather than by a sandboxed consumer. */
  trusted: boolean;
}

export class CteScope {
  private readonly entries = new Map<string, CteEntry>();
  constructor(readonly parent: CteScope | null) {}
  define(name: string, entry: CteEntry): void {
    this.entries.set(name.toLowerCase(), entry);
  }
  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }
  lookup(name: string): CteEntry | undefined {
    return this.entries.get(name.toLowerCase()) ?? this.parent?.lookup(name);
  }
  /** Every CTE name visible here, innermost first (for error messages). */
  names(): string[] {
    const out = [...this.entries.values()].map((e) => e.cte.name);
    return this.parent ? [...out, ...this.parent.names().filter((n) => !out.some((o) => o.toLowerCase() === n.toLowerCase()))] : out;
  }
}

/** A name usable in expressions: a table-like relation (columns) or a value (an unnest element). */
export interface RangeVar {
  /** Names it answers to, lower-cased (an implicit alias may have two: the full path and its last part). */
  names: string[];
  display: string;
  kind: 'table' | 'value';
  cols: ColInfo[];
  /** Columns hidden from unqualified lookup (the right side of JOIN USING). */
  hidden?: Set<number>;
  /**
   * A value whose elements are records of known fields (an UNNEST of STRUCTs, BigQuery's value
   * table): the field names, which unqualified names may read (see `FromScope.resolve`).
   */
  fields?: string[];
}

/** What an unqualified first name means in one FROM scope (`FromScope.resolve`). */
export type NameHit =
  | { k: 'var'; v: RangeVar }
  | { k: 'column'; v: RangeVar; col: ColInfo }
  | { k: 'field'; v: RangeVar; field: string }
  | { k: 'ambiguous'; sources: string[]; fields: boolean }
  | { k: 'none' };

/** Columns of a range variable by lower-cased name, built once per variable (constant-time lookups). */
const COLUMN_INDEX = new WeakMap<RangeVar, { cols: ColInfo[]; n: number; byName: Map<string, ColInfo[]> }>();

/** The columns of `v` named `lowerName` (case-insensitively), in column order. */
export function columnsNamed(v: RangeVar, lowerName: string): readonly ColInfo[] {
  let idx = COLUMN_INDEX.get(v);
  if (idx === undefined || idx.cols !== v.cols || idx.n !== v.cols.length) {
    const byName = new Map<string, ColInfo[]>();
    for (const c of v.cols) {
      const l = c.name.toLowerCase();
      const list = byName.get(l);
      if (list === undefined) byName.set(l, [c]);
      else list.push(c);
    }
    idx = { cols: v.cols, n: v.cols.length, byName };
    COLUMN_INDEX.set(v, idx);
  }
  return idx.byName.get(lowerName) ?? NONE;
}

const NONE: readonly ColInfo[] = [];

export class FromScope {
  readonly vars: RangeVar[] = [];
  constructor(readonly parent: FromScope | null) {}
  add(v: RangeVar): void {
    this.vars.push(v);
  }
  findVar(name: string): RangeVar | undefined {
    const l = name.toLowerCase();
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.names.includes(l)) return this.vars[i];
    return undefined;
  }
  /** Table range variables that have a column of this name. */
  findColumn(name: string): { v: RangeVar; col: ColInfo }[] {
    const l = name.toLowerCase();
    const out: { v: RangeVar; col: ColInfo }[] = [];
    for (const v of this.vars) {
      if (v.kind !== 'table') continue;
      for (const c of columnsNamed(v, l)) if (!v.hidden?.has(c.id)) { out.push({ v, col: c }); break; }
    }
    return out;
  }
  /** Value range variables with a record field of this name (case-insensitive), and its spelling. */
  findField(name: string): { v: RangeVar; field: string }[] {
    const l = name.toLowerCase();
    const out: { v: RangeVar; field: string }[] = [];
    for (const v of this.vars) {
      const f = v.fields?.find((x) => x.toLowerCase() === l);
      if (f !== undefined) out.push({ v, field: f });
    }
    return out;
  }

  /**
   * BigQuery's (ZetaSQL's NameScope) rules for the first name of a path, in this scope only:
   * 1. a range variable (table alias, CTE or subquery alias, UNNEST alias) wins over any column or field;
   * 2. else the columns of the FROM items and the fields of UNNESTed records (value tables) compete:
   *    exactly one match is that column or field, two or more (two columns, two fields, or a column
   *    and a field) is ambiguous;
   * 3. no match: the caller tries the enclosing query's scope.
   */
  resolve(name: string): NameHit {
    const v = this.findVar(name);
    if (v) return { k: 'var', v };
    const cols = this.findColumn(name);
    const fields = this.findField(name);
    if (cols.length + fields.length > 1) {
      return { k: 'ambiguous', sources: [...cols.map((h) => h.v.display), ...fields.map((h) => h.v.display)], fields: fields.length > 0 };
    }
    if (cols.length === 1) return { k: 'column', v: cols[0]!.v, col: cols[0]!.col };
    if (fields.length === 1) return { k: 'field', v: fields[0]!.v, field: fields[0]!.field };
    return { k: 'none' };
  }

  allCols(): ColInfo[] {
    return this.vars.flatMap((v) => v.cols.filter((c) => !v.hidden?.has(c.id)));
  }
}
