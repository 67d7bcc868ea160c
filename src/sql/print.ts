// AST → SQL text in this dialect (upper-case keywords, one clause per line, parentheses only where
// precedence needs them). parseQuery(printSql(q)) gives back q, positions aside.

import type { Call, Cte, Expr, FromItem, Literal, OrderItem, Query, Select, SelectItem, SetExpr } from './ast.ts';
import { printName, quoteString } from './quoting.ts';

export { printAst } from './print-ast.ts';

/** Binding strength, loosest first; an operand weaker than its slot needs parentheses. */
const Prec = { Or: 1, And: 2, Not: 3, Compare: 4, BitOr: 5, BitXor: 6, BitAnd: 7, Shift: 8, Add: 9, Mul: 10, Unary: 11, Postfix: 12 } as const;
type Prec = number;

const BINARY_PREC: Record<string, Prec> = {
  OR: Prec.Or, AND: Prec.And,
  '=': Prec.Compare, '!=': Prec.Compare, '<': Prec.Compare, '<=': Prec.Compare, '>': Prec.Compare, '>=': Prec.Compare,
  '|': Prec.BitOr, '^': Prec.BitXor, '&': Prec.BitAnd, '<<': Prec.Shift, '>>': Prec.Shift,
  '+': Prec.Add, '-': Prec.Add, '*': Prec.Mul, '/': Prec.Mul, '||': Prec.Mul,
};

const isNumeric = (e: Expr): e is Literal => e.kind === 'literal' && (e.type === 'int' || e.type === 'float');
const isNegative = (e: Expr): boolean =>
  isNumeric(e) && (typeof e.value === 'number' ? e.value < 0 || Object.is(e.value, -0) : String(e.value).startsWith('-'));

function precOf(e: Expr): Prec {
  switch (e.kind) {
    case 'binary':
      return BINARY_PREC[e.op]!;
    case 'unary':
      return e.op === 'NOT' ? Prec.Not : Prec.Unary;
    case 'is': case 'in': case 'inSubquery': case 'inUnnest': case 'between': case 'like':
      return Prec.Compare;
    case 'literal':
      return isNegative(e) ? Prec.Unary : Prec.Postfix;
    default:
      return Prec.Postfix;
  }
}

const pad = (ind: number): string => '  '.repeat(ind);

/** `a.b`, with backticks where a part needs them (reserved words may follow a dot bare). */
function printPath(parts: string[], quoted?: boolean[]): string {
  return parts.map((p, i) => printName(p, { quoted: quoted?.[i] === true, afterDot: i > 0 })).join('.');
}

function formatFloat(v: number): string {
  const s = String(v);
  return /^-?\d+$/.test(s) ? `${s}.0` : s;
}

function printLiteral(l: Literal): string {
  switch (l.type) {
    case 'string':
      return quoteString(String(l.value));
    case 'bytes':
      return `b${quoteString(String(l.value))}`;
    case 'int':
      return String(l.value);
    case 'float':
      return typeof l.value === 'number' ? formatFloat(l.value) : String(l.value);
    case 'bool':
      return l.value ? 'TRUE' : 'FALSE';
    case 'null':
      return 'NULL';
    default:
      return `${l.type.toUpperCase()} ${quoteString(String(l.value))}`;
  }
}

class SqlPrinter {
  expr(e: Expr, ind: number, min: Prec = Prec.Or): string {
    const text = this.bare(e, ind);
    return precOf(e) < min ? `(${text})` : text;
  }

  /** An operand of a unary operator: a bare number would fuse into a negative literal. */
  private unaryOperand(e: Expr, ind: number): string {
    if (isNumeric(e)) return `(${this.bare(e, ind)})`;
    return this.expr(e, ind, Prec.Unary);
  }

  /** The base of `[...]` or `.field`: a bare name would absorb a field into its path, `1.a` would lex as `1.`. */
  private postfixBase(e: Expr, ind: number, field: boolean): string {
    if ((field && e.kind === 'ident') || e.kind === 'interval' || isNumeric(e)) return `(${this.bare(e, ind)})`;
    return this.expr(e, ind, Prec.Postfix);
  }

  private list(es: Expr[], ind: number): string {
    return es.map((x) => this.expr(x, ind)).join(', ');
  }

  private subquery(q: Query, ind: number): string {
    return `(\n${pad(ind + 1)}${this.query(q, ind + 1)}\n${pad(ind)})`;
  }

  private bare(e: Expr, ind: number): string {
    switch (e.kind) {
      case 'literal':
        return printLiteral(e);
      case 'param':
        return `@${e.name}`;
      case 'ident':
        return printPath(e.parts, e.quoted);
      case 'call':
        return this.call(e, ind);
      case 'unary': {
        if (e.op === 'NOT') return `NOT ${this.expr(e.operand, ind, Prec.Not)}`;
        const operand = this.unaryOperand(e.operand, ind);
        // `- -x` must not become the comment `--x`.
        return /^[-+]/.test(operand) ? `${e.op} ${operand}` : `${e.op}${operand}`;
      }
      case 'binary': {
        const p = BINARY_PREC[e.op]!;
        const leftMin = p === Prec.Compare ? p + 1 : p;
        return `${this.expr(e.left, ind, leftMin)} ${e.op} ${this.expr(e.right, ind, p + 1)}`;
      }
      case 'is':
        return `${this.expr(e.operand, ind, Prec.BitOr)} IS ${e.not ? 'NOT ' : ''}${e.value}`;
      case 'in':
        return `${this.expr(e.operand, ind, Prec.BitOr)} ${e.not ? 'NOT ' : ''}IN (${this.list(e.list, ind)})`;
      case 'inSubquery':
        return `${this.expr(e.operand, ind, Prec.BitOr)} ${e.not ? 'NOT ' : ''}IN ${this.subquery(e.query, ind)}`;
      case 'inUnnest':
        return `${this.expr(e.operand, ind, Prec.BitOr)} ${e.not ? 'NOT ' : ''}IN UNNEST(${this.expr(e.array, ind)})`;
      case 'between':
        return `${this.expr(e.operand, ind, Prec.BitOr)} ${e.not ? 'NOT ' : ''}BETWEEN ${this.expr(e.low, ind, Prec.BitOr)} AND ${this.expr(e.high, ind, Prec.BitOr)}`;
      case 'like':
        return `${this.expr(e.operand, ind, Prec.BitOr)} ${e.not ? 'NOT ' : ''}LIKE ${this.expr(e.pattern, ind, Prec.BitOr)}`;
      case 'case': {
        const parts = ['CASE'];
        if (e.operand) parts.push(this.expr(e.operand, ind));
        for (const w of e.whens) parts.push(`WHEN ${this.expr(w.when, ind)} THEN ${this.expr(w.then, ind)}`);
        if (e.else) parts.push(`ELSE ${this.expr(e.else, ind)}`);
        parts.push('END');
        return parts.join(' ');
      }
      case 'cast':
        return `${e.safe ? 'SAFE_CAST' : 'CAST'}(${this.expr(e.expr, ind)} AS ${e.type})`;
      case 'interval': {
        // A value that starts with the word `interval` goes in parentheses: `INTERVAL interval[0] DAY`
        // would otherwise read as a nested INTERVAL.
        const v = e.value;
        const text = isNumeric(v) ? this.bare(v, ind) : this.expr(v, ind, Prec.Unary);
        return `INTERVAL ${v.kind !== 'ident' && /^interval\b/i.test(text) ? `(${text})` : text} ${e.unit}`;
      }
      case 'subscript': {
        const base = this.postfixBase(e.base, ind, false);
        const index = this.expr(e.index, ind);
        return e.mode === 'plain' ? `${base}[${index}]` : `${base}[${e.mode.toUpperCase()}(${index})]`;
      }
      case 'field':
        return `${this.postfixBase(e.base, ind, true)}.${printName(e.name, { afterDot: true })}`;
      case 'exists':
        return `EXISTS ${this.subquery(e.query, ind)}`;
      case 'subquery':
        return this.subquery(e.query, ind);
      case 'array':
        return `${e.elementType ? `ARRAY<${e.elementType}>` : ''}[${this.list(e.elements, ind)}]`;
      case 'struct': {
        if (e.fields.length >= 2 && e.fields.every((f) => f.alias === undefined)) return `(${this.list(e.fields.map((f) => f.expr), ind)})`;
        const fields = e.fields.map((f) => this.expr(f.expr, ind) + (f.alias !== undefined ? ` AS ${printName(f.alias)}` : ''));
        return `STRUCT(${fields.join(', ')})`;
      }
      case 'extract':
        return `EXTRACT(${e.part} FROM ${this.expr(e.expr, ind)})`;
    }
  }

  private call(c: Call, ind: number): string {
    const only = c.args[0];
    if (c.name === 'ARRAY' && c.args.length === 1 && only?.kind === 'subquery' && !c.safe) {
      return `ARRAY(\n${pad(ind + 1)}${this.query(only.query, ind + 1)}\n${pad(ind)})`;
    }
    let inner = c.star ? '*' : `${c.distinct ? 'DISTINCT ' : ''}${this.list(c.args, ind)}`;
    if (c.nulls) inner += ` ${c.nulls.toUpperCase()} NULLS`;
    if (c.orderBy) inner += ` ORDER BY ${this.orderItems(c.orderBy, ind)}`;
    if (c.limit) inner += ` LIMIT ${this.expr(c.limit, ind)}`;
    return `${c.safe ? 'SAFE.' : ''}${c.name}(${inner})`;
  }

  private orderItems(items: OrderItem[], ind: number): string {
    return items
      .map((o) => `${this.expr(o.expr, ind)} ${o.desc ? 'DESC' : 'ASC'}${o.nulls ? ` NULLS ${o.nulls.toUpperCase()}` : ''}`)
      .join(', ');
  }

  query(q: Query, ind: number): string {
    const nl = `\n${pad(ind)}`;
    const lines: string[] = [];
    if (q.with?.length) lines.push(`WITH ${q.with.map((c) => this.cte(c, ind)).join(`,${nl}`)}`);
    lines.push(this.setExpr(q.body, ind));
    if (q.orderBy?.length) lines.push(`ORDER BY ${this.orderItems(q.orderBy, ind)}`);
    if (q.limit) lines.push(`LIMIT ${this.expr(q.limit, ind)}`);
    if (q.offset) lines.push(`OFFSET ${this.expr(q.offset, ind)}`);
    return lines.join(nl);
  }

  private cte(c: Cte, ind: number): string {
    return `${printName(c.name)} AS ${this.subquery(c.query, ind)}`;
  }

  private setExpr(s: SetExpr, ind: number): string {
    switch (s.kind) {
      case 'select':
        return this.select(s, ind);
      case 'parenQuery':
        return this.subquery(s.query, ind);
      case 'setop': {
        // Set operations associate to the left; a set operation on the right needs its own parentheses.
        const right = s.right.kind === 'setop' ? this.subquery({ kind: 'query', body: s.right }, ind) : this.setExpr(s.right, ind);
        const nl = `\n${pad(ind)}`;
        return `${this.setExpr(s.left, ind)}${nl}${s.op} ${s.all ? 'ALL' : 'DISTINCT'}${nl}${right}`;
      }
    }
  }

  private select(s: Select, ind: number): string {
    const nl = `\n${pad(ind)}`;
    const lines = [`SELECT ${s.distinct ? 'DISTINCT ' : ''}${s.items.map((i) => this.selectItem(i, ind)).join(', ')}`];
    if (s.from) lines.push(`FROM ${this.fromItem(s.from, ind)}`);
    if (s.where) lines.push(`WHERE ${this.expr(s.where, ind)}`);
    if (s.groupBy?.length) lines.push(`GROUP BY ${this.list(s.groupBy, ind)}`);
    if (s.having) lines.push(`HAVING ${this.expr(s.having, ind)}`);
    if (s.qualify) lines.push(`QUALIFY ${this.expr(s.qualify, ind)}`);
    return lines.join(nl);
  }

  private selectItem(i: SelectItem, ind: number): string {
    if (i.kind === 'expr') return this.expr(i.expr, ind) + (i.alias !== undefined ? ` AS ${printName(i.alias)}` : '');
    let text = i.qualifier?.length ? `${printPath(i.qualifier)}.*` : '*';
    if (i.except?.length) text += ` EXCEPT (${i.except.map((n) => printName(n)).join(', ')})`;
    if (i.replace?.length) text += ` REPLACE (${i.replace.map((r) => `${this.expr(r.expr, ind)} AS ${printName(r.alias)}`).join(', ')})`;
    return text;
  }

  private fromItem(f: FromItem, ind: number): string {
    const alias = (a: string | undefined): string => (a !== undefined ? ` AS ${printName(a)}` : '');
    switch (f.kind) {
      case 'table':
        return printPath(f.name, f.quoted) + alias(f.alias);
      case 'subqueryRef':
        return this.subquery(f.query, ind) + alias(f.alias);
      case 'unnest':
        return `UNNEST(${this.expr(f.expr, ind)})${alias(f.alias)}${f.offsetAlias !== undefined ? ` WITH OFFSET${alias(f.offsetAlias)}` : ''}`;
      case 'join': {
        const left = this.fromItem(f.left, ind);
        // A join on the right was written in parentheses (`a JOIN (b JOIN c ON ...) ON ...`).
        const right = f.right.kind === 'join' ? `(${this.fromItem(f.right, ind + 1)})` : this.fromItem(f.right, ind);
        if (f.type === 'COMMA') return `${left},\n${pad(ind + 1)}${right}`;
        const keyword = f.type === 'INNER' ? 'JOIN' : `${f.type} JOIN`;
        let text = `${left}\n${pad(ind)}${keyword} ${right}`;
        if (f.on) text += ` ON ${this.expr(f.on, ind)}`;
        if (f.using?.length) text += ` USING (${f.using.map((n) => printName(n)).join(', ')})`;
        return text;
      }
    }
  }
}

const printer = new SqlPrinter();

/** A query or an expression as SQL text. */
export function printSql(node: Query | Expr): string {
  return node.kind === 'query' ? printer.query(node, 0) : printer.expr(node, 0);
}
