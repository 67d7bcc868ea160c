// Binds a parsed query to a logical plan: CTE scopes, LIMIT/OFFSET and set operations here; FROM
// items in bind-from.ts, each SELECT in bind-select.ts. Untrusted (sandboxed) parts may read only
// CTEs (SPEC §5). The Binder class holds the column and scan numbering every part shares.

import { engineCounters } from '../core/engine-counters.ts';
import type { Expr, Query, SetExpr } from '../sql/ast.ts';
import type { ColInfo, Plan } from './bound.ts';
import { ExprBinder } from './bind-expr.ts';
import type { ExprCtx, ExprBinderHost } from './expr-ctx.ts';
import type { Catalog } from './catalog.ts';
import { CteScope, FromScope } from './scope.ts';
import { commonType } from '../core/types.ts';
import { notePin } from './param-trace.ts';
import { bindSelect } from './bind-select.ts';
import { orderByOutputs } from './bind-order.ts';
import { fail, type QueryBinder } from './query-binder.ts';

export interface BindOptions {
  catalog: Catalog;
  /** Parameter values (already decoded strings; absent = NULL). */
  params: ReadonlyMap<string, string | null>;
  /** When set, any other @name is an unknown_name error. */
  declaredParams?: ReadonlySet<string> | null;
  /** The query's clock: CURRENT_TIMESTAMP() (µs). */
  nowUs: number;
  /** Mark constants bound from parameters for prepare-once (plan/param-trace.ts). */
  traceParams?: boolean;
}

export class Binder implements ExprBinderHost, QueryBinder {
  private nextColId = 1;
  private nextScanId = 1;
  readonly exprs: ExprBinder;
  readonly params: ReadonlyMap<string, string | null>;
  readonly declaredParams: ReadonlySet<string> | null;
  readonly nowUs: number;
  readonly traceParams: boolean;

  constructor(private readonly opts: BindOptions) {
    this.params = opts.params;
    this.declaredParams = opts.declaredParams ?? null;
    this.nowUs = opts.nowUs;
    this.traceParams = opts.traceParams ?? false;
    this.exprs = new ExprBinder(this);
  }

  /** Binds a whole trusted query (a saved query, or a plain CLI query over the sources). */
  bindTop(q: Query): Plan {
    engineCounters.binds++;
    return this.bindQuery(q, null, true, null);
  }

  /**
   * Binds a consumer query inside the saved query's WITH list: the saved CTEs are trusted (they may
   * read sources), everything the consumer wrote is not.
   */
  bindSandboxed(saved: Query, consumer: Query): Plan {
    engineCounters.binds++;
    const ctes = this.defineCtes(saved.with ?? [], null, true);
    return this.bindQuery(consumer, ctes, false, null);
  }

  newCol(name: string, type: ColInfo['type'], origin?: ColInfo['origin']): ColInfo {
    const c: ColInfo = { id: this.nextColId++, name, type };
    if (origin) c.origin = origin;
    return c;
  }

  newScanId(): number {
    return this.nextScanId++;
  }

  get catalog(): Catalog {
    return this.opts.catalog;
  }

  bindSubquery(q: Query, ctx: ExprCtx): Plan {
    return this.bindQuery(q, ctx.ctes, ctx.trusted, ctx.scope);
  }

  private defineCtes(list: Query['with'] & object, parent: CteScope | null, trusted: boolean): CteScope {
    let scope = parent;
    const seen = new Set<string>();
    for (const cte of list) {
      const key = cte.name.toLowerCase();
      if (seen.has(key)) fail('query_error', `Duplicate CTE name ${cte.name} in the same WITH clause`, cte.pos);
      seen.add(key);
      const next = new CteScope(scope);
      // An untrusted CTE is checked even when nothing reads it: the sandbox rejects what is written, not what runs.
      if (!trusted) this.bindQuery(cte.query, scope, false, null);
      next.define(cte.name, { cte, scope, trusted });
      scope = next;
    }
    return scope ?? new CteScope(null);
  }

  bindQuery(q: Query, ctes: CteScope | null, trusted: boolean, outer: FromScope | null): Plan {
    const scope = q.with && q.with.length ? this.defineCtes(q.with, ctes, trusted) : ctes ?? new CteScope(null);
    let plan: Plan;
    if (q.body.kind === 'select') {
      plan = bindSelect(this, q.body, scope, trusted, outer, q.orderBy);
    } else {
      plan = this.bindSetExpr(q.body, scope, trusted, outer);
      if (q.orderBy && q.orderBy.length) plan = orderByOutputs(plan, q.orderBy);
    }
    if (q.limit || q.offset) {
      const limit = q.limit ? this.constInt(q.limit, scope, trusted, 'LIMIT') : null;
      const offset = q.offset ? this.constInt(q.offset, scope, trusted, 'OFFSET') : 0;
      plan = { k: 'limit', input: plan, limit, offset, cols: plan.cols };
    }
    return plan;
  }

  private constInt(e: Expr, ctes: CteScope, trusted: boolean, what: string): number {
    const b = this.exprs.bind(e, { scope: new FromScope(null), ctes, trusted, aggMode: 'forbid', clause: what });
    notePin(b);
    // The number leaves the plan as a plain integer, so it must not depend on the clock (nor does BigQuery allow it).
    if (b.k === 'const' && b.clock) fail('query_error', `${what} needs a constant integer, not one computed from CURRENT_TIMESTAMP`, e.pos);
    const v = b.k === 'const' ? (typeof b.value === 'string' && /^\s*\d+\s*$/.test(b.value) ? Number(b.value) : b.value) : undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail('query_error', `${what} needs a constant non-negative integer`, e.pos);
    return v;
  }

  private bindSetExpr(s: SetExpr, ctes: CteScope, trusted: boolean, outer: FromScope | null): Plan {
    if (s.kind === 'select') return bindSelect(this, s, ctes, trusted, outer, undefined);
    if (s.kind === 'parenQuery') return this.bindQuery(s.query, ctes, trusted, outer);
    const left = this.bindSetExpr(s.left, ctes, trusted, outer);
    const right = this.bindSetExpr(s.right, ctes, trusted, outer);
    if (left.cols.length !== right.cols.length) {
      fail('query_error', `Queries in ${s.op}${s.all ? ' ALL' : ''} have different numbers of columns (${left.cols.length} and ${right.cols.length})`, s.pos);
    }
    const cols = left.cols.map((c, i) => {
      const t = commonType(c.type, right.cols[i]!.type);
      if (t === null) fail('query_error', `Column ${i + 1} of ${s.op} has incompatible types ${c.type} and ${right.cols[i]!.type}`, s.pos);
      return this.newCol(c.name, t);
    });
    const op = s.op.toLowerCase() as 'union' | 'intersect' | 'except';
    const inputs = left.k === 'setop' && left.op === op && left.all === s.all && op === 'union' ? [...left.inputs, right] : [left, right];
    return { k: 'setop', op, all: s.all, inputs, cols };
  }
}
