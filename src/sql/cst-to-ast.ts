// CST visitor that turns the Chevrotain parse tree of grammar/sql-parser.ts into the typed AST of
// ast.ts. Pure shape conversion; the only decisions are the documented normalisations (see notes).

import type { Cte, Expr, FromItem, Join, OrderItem, Query, Select, SelectItem, SetExpr } from './ast.ts';
import { type Ctx, tok, nodes, node, tokPos, nodePos, syntaxError, type NamePart, type PathValue, nameOf } from './cst-helpers.ts';
import { ExprVisitor } from './cst-expr-visitor.ts';

/** One method per grammar rule (validateVisitor checks that): the query rules here, the expression rules inherited. */
export class AstBuilder extends ExprVisitor {
  constructor() {
    super();
    this.validateVisitor();
  }

  // ─── statements and queries ──────────────────────────────────────────────────────────────

  statement(ctx: Ctx): Query {
    return this.q(node(ctx, 'query')!);
  }

  query(ctx: Ctx): Query {
    const withNode = node(ctx, 'withClause');
    const with_ = withNode ? { with: this.visit(withNode) as Cte[] } : {};
    const q: Query = { kind: 'query', ...with_, body: this.visit(node(ctx, 'setExpr')!) as SetExpr };
    const ob = node(ctx, 'orderBy');
    if (ob) q.orderBy = this.visit(ob) as OrderItem[];
    const lim = node(ctx, 'limitClause');
    if (lim) {
      const l = this.visit(lim) as { limit: Expr; offset?: Expr };
      q.limit = l.limit;
      if (l.offset) q.offset = l.offset;
    }
    const pos = withNode ? nodePos(withNode) : q.body.pos;
    if (pos) q.pos = pos;
    return q;
  }

  parenQuery(ctx: Ctx): Query {
    return this.q(node(ctx, 'query')!);
  }

  queryThenClose(ctx: Ctx): Query {
    return this.q(node(ctx, 'query')!);
  }

  withClause(ctx: Ctx): Cte[] {
    return nodes(ctx, 'cte').map((c) => this.visit(c) as Cte);
  }

  cte(ctx: Ctx): Cte {
    const nameNode = node(ctx, 'name')!;
    return { name: (this.visit(nameNode) as NamePart).text, query: this.q(node(ctx, 'query')!), pos: nodePos(nameNode) };
  }

  name(ctx: Ctx): NamePart {
    return nameOf(tok(ctx, 'Identifier') ?? tok(ctx, 'BacktickIdent')!);
  }

  setExpr(ctx: Ctx): SetExpr {
    const operands = nodes(ctx, 'setOperand');
    const ops = nodes(ctx, 'setOperator');
    let left = this.visit(operands[0]!) as SetExpr;
    for (let i = 0; i < ops.length; i++) {
      const { op, all } = this.visit(ops[i]!) as { op: 'UNION' | 'INTERSECT' | 'EXCEPT'; all: boolean };
      const right = this.visit(operands[i + 1]!) as SetExpr;
      left = { kind: 'setop', op, all, left, right, ...(left.pos ? { pos: left.pos } : {}) };
    }
    return left;
  }

  setOperator(ctx: Ctx): { op: 'UNION' | 'INTERSECT' | 'EXCEPT'; all: boolean } {
    const op = ctx.Union ? 'UNION' : ctx.Intersect ? 'INTERSECT' : 'EXCEPT';
    return { op, all: !!ctx.All };
  }

  setOperand(ctx: Ctx): SetExpr {
    const sel = node(ctx, 'select');
    if (sel) return this.visit(sel) as Select;
    return { kind: 'parenQuery', query: this.q(node(ctx, 'query')!), pos: tokPos(tok(ctx, 'LParen')!) };
  }

  select(ctx: Ctx): Select {
    const s: Select = {
      kind: 'select',
      distinct: !!ctx.Distinct,
      items: nodes(ctx, 'selectItem').map((n) => this.visit(n) as SelectItem),
    };
    const from = node(ctx, 'fromClause');
    if (from) s.from = this.visit(from) as FromItem;
    const where = this.optE(node(ctx, 'where'));
    if (where) s.where = where;
    if (ctx.groupBy) s.groupBy = nodes(ctx, 'groupBy').map((n) => this.e(n));
    const having = this.optE(node(ctx, 'having'));
    if (having) s.having = having;
    const qualify = this.optE(node(ctx, 'qualify'));
    if (qualify) s.qualify = qualify;
    s.pos = tokPos(tok(ctx, 'Select')!);
    return s;
  }

  selectItem(ctx: Ctx): SelectItem {
    const star = tok(ctx, 'Star');
    const pathNode = node(ctx, 'path');
    if (star) {
      const mods = node(ctx, 'starModifiers');
      const m = mods ? (this.visit(mods) as { except?: string[]; replace?: { expr: Expr; alias: string }[] }) : {};
      if (pathNode) {
        const p = this.visit(pathNode) as PathValue;
        return { kind: 'star', qualifier: p.parts, ...m, pos: p.pos };
      }
      return { kind: 'star', ...m, pos: tokPos(star) };
    }
    const exprNode = node(ctx, 'expression')!;
    const item: SelectItem = { kind: 'expr', expr: this.e(exprNode) };
    const alias = node(ctx, 'alias');
    if (alias) item.alias = this.visit(alias) as string;
    item.pos = nodePos(exprNode);
    return item;
  }

  starModifiers(ctx: Ctx): { except?: string[]; replace?: { expr: Expr; alias: string }[] } {
    const out: { except?: string[]; replace?: { expr: Expr; alias: string }[] } = {};
    if (ctx.except) out.except = nodes(ctx, 'except').map((n) => (this.visit(n) as NamePart).text);
    const rep = node(ctx, 'starReplace');
    if (rep) out.replace = this.visit(rep) as { expr: Expr; alias: string }[];
    return out;
  }

  starReplace(ctx: Ctx): { expr: Expr; alias: string }[] {
    const word = tok(ctx, 'replaceWord')!;
    if (word.image.toUpperCase() !== 'REPLACE') throw syntaxError(`expected REPLACE but found "${word.image}"`, word);
    const names = nodes(ctx, 'name');
    return nodes(ctx, 'expression').map((n, i) => ({ expr: this.e(n), alias: (this.visit(names[i]!) as NamePart).text }));
  }

  alias(ctx: Ctx): string {
    return (this.visit(node(ctx, 'name')!) as NamePart).text;
  }

  path(ctx: Ctx): PathValue {
    const first = tok(ctx, 'part')!;
    const parts = [nameOf(first), ...nodes(ctx, 'fieldName').map((n) => this.visit(n) as NamePart)];
    return { parts: parts.map((p) => p.text), quoted: parts.map((p) => p.quoted), pos: tokPos(first) };
  }

  fieldName(ctx: Ctx): NamePart {
    return nameOf(tok(ctx, 'part')!);
  }

  fromClause(ctx: Ctx): FromItem {
    let left = this.visit(node(ctx, 'fromItem')!) as FromItem;
    for (const j of nodes(ctx, 'joinPart')) left = this.visit(j, left) as FromItem;
    return left;
  }

  parenJoin(ctx: Ctx): FromItem {
    return this.fromClause(ctx);
  }

  joinPart(ctx: Ctx, left: FromItem): Join {
    const right = this.visit(node(ctx, 'fromItem')!) as FromItem;
    const pos = left.pos ? { pos: left.pos } : {};
    // The commas of a USING list land in this rule's context too: only a join without JOIN is `FROM a, b`.
    if (ctx.Comma && !ctx.Join) return { kind: 'join', type: 'COMMA', left, right, ...pos };
    const typeNode = node(ctx, 'joinType');
    const type = typeNode ? (this.visit(typeNode) as Join['type']) : 'INNER';
    const j: Join = { kind: 'join', type, left, right };
    const on = this.optE(node(ctx, 'on'));
    if (on) j.on = on;
    if (ctx.using) j.using = nodes(ctx, 'using').map((n) => (this.visit(n) as NamePart).text);
    return { ...j, ...pos };
  }

  joinType(ctx: Ctx): Join['type'] {
    if (ctx.Cross) return 'CROSS';
    if (ctx.Left) return 'LEFT';
    if (ctx.Right) return 'RIGHT';
    if (ctx.Full) return 'FULL';
    return 'INNER';
  }

  fromItem(ctx: Ctx): FromItem {
    const aliasNode = node(ctx, 'alias');
    const alias = aliasNode ? { alias: this.visit(aliasNode) as string } : {};
    if (ctx.Unnest) {
      const u: FromItem = { kind: 'unnest', expr: this.e(node(ctx, 'expression')!), ...alias };
      const word = tok(ctx, 'offsetWord');
      if (word) {
        if (word.image.toUpperCase() !== 'OFFSET') throw syntaxError(`expected OFFSET but found "${word.image}"`, word);
        const off = node(ctx, 'offsetAlias');
        // BigQuery names an unaliased WITH OFFSET column `offset`.
        u.offsetAlias = off ? (this.visit(off) as string) : 'offset';
      }
      return { ...u, pos: tokPos(tok(ctx, 'Unnest')!) };
    }
    const pj = node(ctx, 'parenJoin');
    if (pj) return this.visit(pj) as FromItem;
    const q = node(ctx, 'query');
    if (q) return { kind: 'subqueryRef', query: this.q(q), ...alias, pos: tokPos(tok(ctx, 'LParen')!) };
    const p = this.visit(node(ctx, 'path')!) as PathValue;
    return { kind: 'table', name: p.parts, ...(p.quoted.includes(true) ? { quoted: p.quoted } : {}), ...alias, pos: p.pos };
  }

  orderBy(ctx: Ctx): OrderItem[] {
    return nodes(ctx, 'orderItem').map((n) => this.visit(n) as OrderItem);
  }

  orderItem(ctx: Ctx): OrderItem {
    const item: OrderItem = { expr: this.e(node(ctx, 'expression')!), desc: !!ctx.Desc };
    const w = tok(ctx, 'nullsWord');
    if (w) {
      const word = w.image.toUpperCase();
      if (word !== 'FIRST' && word !== 'LAST') throw syntaxError(`expected FIRST or LAST but found "${w.image}"`, w);
      item.nulls = word === 'FIRST' ? 'first' : 'last';
    }
    return item;
  }

  limitClause(ctx: Ctx): { limit: Expr; offset?: Expr } {
    const offset = this.optE(node(ctx, 'offset'));
    return { limit: this.e(node(ctx, 'limit')!), ...(offset ? { offset } : {}) };
  }
}

/** The one visitor instance, reused. */
export const astBuilder = new AstBuilder();
