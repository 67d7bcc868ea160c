// Binds AST expressions to typed, folded bound expressions, one expression kind at a time: names in
// bind-name.ts, constants in bind-literal.ts, calls in bind-call.ts, operators and predicates in
// bind-operators.ts, subqueries in bind-subquery.ts.

import type { Expr } from '../sql/ast.ts';
import { castTargetType } from '../core/types.ts';
import type { BExpr } from './bound.ts';
import { foldNode } from './fold.ts';
import { failAt } from './bind-error.ts';
import { bindCall, callFn } from './bind-call.ts';
import { bindInterval, bindLiteral, bindParam } from './bind-literal.ts';
import { bindField, bindIdent, bindSubscript, implicitName } from './bind-name.ts';
import { bindBetween, bindBinary, bindCase, bindIn, bindIs, bindLike, bindUnary } from './bind-operators.ts';
import { bindExists, subqueryPlan } from './bind-subquery.ts';
import type { ExprBind, ExprBinderHost, ExprCtx } from './expr-ctx.ts';

export class ExprBinder implements ExprBind {
  constructor(readonly host: ExprBinderHost) {}

  bind(e: Expr, ctx: ExprCtx): BExpr {
    return foldNode(this.bindRaw(e, ctx));
  }

  private bindRaw(e: Expr, ctx: ExprCtx): BExpr {
    switch (e.kind) {
      case 'literal': return bindLiteral(e);
      case 'param': return bindParam(this.host, e);
      case 'ident': return bindIdent(e, ctx, this.host.nowUs);
      case 'call': return bindCall(this, e, ctx);
      case 'unary': return bindUnary(this, e, ctx);
      case 'binary': return bindBinary(this, e.op, e.left, e.right, ctx, e.pos);
      case 'is': return bindIs(this, e, ctx);
      case 'in': return bindIn(this, e, ctx);
      case 'inSubquery': {
        const arg = this.bind(e.operand, ctx);
        const plan = subqueryPlan(this.host, e.query, ctx, 1, 'IN subquery');
        return { k: 'subquery', plan, mode: 'in', arg, not: e.not, type: 'BOOL' };
      }
      case 'inUnnest': {
        const arg = this.bind(e.operand, ctx);
        return { k: 'inArray', arg, array: this.bind(e.array, ctx), not: e.not, type: 'BOOL' };
      }
      case 'between': return bindBetween(this, e, ctx);
      case 'like': return bindLike(this, e, ctx);
      case 'case': return bindCase(this, e, ctx);
      case 'cast': {
        const to = castTargetType(e.type);
        if (!to) failAt('query_error', `CAST to ${e.type} is not supported`, e.pos);
        const arg = this.bind(e.expr, ctx);
        return { k: 'cast', arg, to, safe: e.safe, type: to };
      }
      case 'interval': return bindInterval(this, e, ctx);
      case 'subscript': return bindSubscript(this, e, ctx);
      case 'field': {
        const base = this.bind(e.base, ctx);
        return bindField(base, e.name, e.pos);
      }
      case 'exists': return bindExists(this, e.query, ctx);
      case 'subquery': {
        const plan = subqueryPlan(this.host, e.query, ctx, 1, 'A scalar subquery');
        return { k: 'subquery', plan, mode: 'scalar', type: plan.cols[0]!.type };
      }
      case 'array':
        return { k: 'array', elements: e.elements.map((x) => this.bind(x, ctx)), type: 'ARRAY' };
      case 'struct':
        return { k: 'struct', fields: e.fields.map((f, i) => ({ name: f.alias ?? implicitName(f.expr) ?? `_field_${i + 1}`, expr: this.bind(f.expr, ctx) })), type: 'STRUCT' };
      case 'extract': {
        const part = e.part.toUpperCase();
        return callFn('$EXTRACT', [{ k: 'const', value: part, type: 'STRING' }, this.bind(e.expr, ctx)], e.pos);
      }
    }
  }
}
