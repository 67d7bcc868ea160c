// Resolves LQL field paths against the chosen CTE: a top-level column becomes `t.<col>`; a nested
// path gets one UNNEST join per distinct prefix (shared between terms) and reads the last alias.

import { RingqlError } from '../core/errors.ts';
import type { FromItem, Ident, TableRef } from '../sql/ast.ts';

/** Alias of the CTE in the generated FROM clause. */
export const TABLE_ALIAS = 't';

interface UnnestJoin {
  alias: string;
  /** The array being unnested: `t.metadata` or `<parent alias>.<field>`. */
  array: Ident;
  /** CROSS when some filter needs the record to exist; LEFT ... ON TRUE otherwise (keeps rows). */
  cross: boolean;
}

/** How a path is used: `filter` drops rows without the record; `keep` keeps them with NULL. */
export type PathUse = 'filter' | 'keep';

export class FieldScope {
  /** Lower-cased column name → column name as the CTE spells it. */
  private readonly columns: Map<string, string>;
  /** Lower-cased path prefix (`metadata.request`) → its join; insertion order is parent first. */
  private readonly joins = new Map<string, UnnestJoin>();
  private readonly usedAliases = new Set<string>([TABLE_ALIAS]);

  /** An empty column list means "unknown": every name is accepted and left to the binder. */
  constructor(
    private readonly cteName: string,
    columns: string[],
  ) {
    this.columns = new Map(columns.map((c) => [c.toLowerCase(), c]));
  }

  /** `t.<name>` for a top-level column, or an unknown_name error pointing at the LQL term. */
  column(name: string, lqlColumn: number): Ident {
    if (this.columns.size === 0) return ident(TABLE_ALIAS, name);
    const col = this.columns.get(name.toLowerCase());
    if (col === undefined) {
      const known = [...this.columns.values()];
      throw new RingqlError('unknown_name', `LQL at column ${lqlColumn}: ${this.cteName} has no column "${name}"; its columns are ${known.join(', ')}`, { line: 1, column: lqlColumn, name, allowed: known });
    }
    return ident(TABLE_ALIAS, col);
  }

  hasColumn(name: string): boolean {
    return this.columns.size === 0 || this.columns.has(name.toLowerCase());
  }

  /** The expression reading `path` (already `m.`-expanded), adding the joins it needs. */
  path(path: string[], use: PathUse, lqlColumn: number): Ident {
    const base = this.column(path[0]!, lqlColumn);
    if (path.length === 1) return base;
    let array: Ident = base;
    const segs = [base.parts[1]!];
    for (let i = 1; i < path.length; i++) {
      const key = segs.join('.').toLowerCase();
      let join = this.joins.get(key);
      if (!join) {
        join = { alias: this.freshAlias(segs), array, cross: false };
        this.joins.set(key, join);
      }
      if (use === 'filter') join.cross = true;
      array = ident(join.alias, path[i]!);
      segs.push(path[i]!);
    }
    return array;
  }

  /** `FROM <cte> AS t [CROSS JOIN UNNEST(..) AS f_x | LEFT JOIN UNNEST(..) AS f_x ON TRUE]...` */
  from(): FromItem {
    const quoted = !/^[A-Za-z_][A-Za-z0-9_]*$/.test(this.cteName);
    let from: FromItem = { kind: 'table', name: [this.cteName], ...(quoted ? { quoted: [true] } : {}), alias: TABLE_ALIAS } satisfies TableRef;
    for (const j of this.joins.values()) {
      const right: FromItem = { kind: 'unnest', expr: j.array, alias: j.alias };
      from = j.cross
        ? { kind: 'join', type: 'CROSS', left: from, right }
        : { kind: 'join', type: 'LEFT', left: from, right, on: { kind: 'literal', type: 'bool', value: true } };
    }
    return from;
  }

  /** `f_metadata_request`, made unique and never equal to a column or the table alias. */
  private freshAlias(segs: string[]): string {
    const stem = `f_${segs.join('_').toLowerCase()}`;
    let alias = stem;
    for (let n = 2; this.usedAliases.has(alias) || this.columns.has(alias); n++) alias = `${stem}_${n}`;
    this.usedAliases.add(alias);
    return alias;
  }
}

export function ident(...parts: string[]): Ident {
  return { kind: 'ident', parts };
}

/** `m.x.y` → `metadata.x.y` (`m.` is short for `metadata.`, SPEC §5). */
export function expandPath(path: string[]): string[] {
  return path.length > 1 && path[0] === 'm' ? ['metadata', ...path.slice(1)] : path;
}
