// CST visitor that turns the Chevrotain parse tree of grammar/sql-parser.ts into the typed AST of
// ast.ts. Pure shape conversion; the only decisions are the documented normalisations (see notes).

import type { CstElement, CstNode, IToken } from 'chevrotain';
import { sqlParser } from '../../grammar/sql-parser.ts';
import * as T from '../../grammar/sql-tokens.ts';
import { RingqlError } from '../core/errors.ts';
import type {
  BinaryOp, Call, Cte, Expr, FromItem, Ident, Join, Literal, OrderItem, Pos, Query, Select, SelectItem, SetExpr, Subscript,
} from './ast.ts';
import { decodeBacktick, decodeStringLiteral } from './quoting.ts';

type Ctx = Record<string, CstElement[] | undefined>;

const toks = (ctx: Ctx, key: string): IToken[] => (ctx[key] ?? []) as IToken[];
const tok = (ctx: Ctx, key: string): IToken | undefined => toks(ctx, key)[0];
const nodes = (ctx: Ctx, key: string): CstNode[] => (ctx[key] ?? []) as CstNode[];
const node = (ctx: Ctx, key: string): CstNode | undefined => nodes(ctx, key)[0];

const tokPos = (t: IToken): Pos => ({ line: t.startLine ?? 1, column: t.startColumn ?? 1 });
const nodePos = (n: CstNode): Pos => ({ line: n.location?.startLine ?? 1, column: n.location?.startColumn ?? 1 });

function syntaxError(message: string, t: IToken): RingqlError {
  const p = tokPos(t);
  return new RingqlError('syntax_error', `Syntax error at line ${p.line}, column ${p.column}: ${message}`, { line: p.line, column: p.column });
}

/** Bare `CURRENT_TIMESTAMP` is the call `CURRENT_TIMESTAMP()`. */
const NILADIC = new Set(['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'CURRENT_DATETIME', 'CURRENT_TIME']);
const SUBSCRIPT_MODES: Record<string, Subscript['mode']> = {
  OFFSET: 'offset', SAFE_OFFSET: 'safe_offset', ORDINAL: 'ordinal', SAFE_ORDINAL: 'safe_ordinal',
};
const COMPARISON_OPS = new Map<unknown, BinaryOp>([
  [T.Equals, '='], [T.NotEq, '!='], [T.Less, '<'], [T.LessEq, '<='], [T.Greater, '>'], [T.GreaterEq, '>='],
]);
const ARITHMETIC_OPS = new Map<unknown, BinaryOp>([
  [T.Plus, '+'], [T.Minus, '-'], [T.Star, '*'], [T.Slash, '/'], [T.Concat, '||'], [T.ShiftLeft, '<<'], [T.Greater, '>>'],
  [T.Amp, '&'], [T.Caret, '^'], [T.Pipe, '|'],
]);
/** BigQuery precedence of the operators in `arith`, tightest highest; all associate to the left. */
const ARITH_PREC: Partial<Record<BinaryOp, number>> = { '*': 6, '/': 6, '||': 6, '+': 5, '-': 5, '<<': 4, '>>': 4, '&': 3, '^': 2, '|': 1 };

interface NamePart {
  text: string;
  quoted: boolean;
}
interface PathValue {
  parts: string[];
  quoted: boolean[];
  pos: Pos;
}
interface CallArgs {
  args: Expr[];
  star: boolean;
  distinct: boolean;
  nulls?: 'ignore' | 'respect';
  orderBy?: OrderItem[];
  limit?: Expr;
}
type ParenContent = { query: Query } | { exprs: Expr[] };

function nameOf(t: IToken): NamePart {
  if (t.tokenType !== T.BacktickIdent) return { text: t.image, quoted: false };
  const d = decodeBacktick(t.image);
  if ('error' in d) throw syntaxError(d.error, t);
  return { text: d.value, quoted: true };
}

function numberLiteral(t: IToken): Literal {
  const s = t.image;
  const pos = tokPos(t);
  if (/^0[xX]/.test(s)) {
    const n = parseInt(s.slice(2), 16);
    return { kind: 'literal', type: 'int', value: Number.isSafeInteger(n) ? n : s, pos };
  }
  if (/[.eE]/.test(s)) return { kind: 'literal', type: 'float', value: Number(s), pos };
  const n = Number(s);
  return { kind: 'literal', type: 'int', value: Number.isSafeInteger(n) ? n : s, pos };
}

function stringValue(t: IToken): { value: string; bytes: boolean } {
  const d = decodeStringLiteral(t.image);
  if ('error' in d) throw syntaxError(d.error, t);
  return d;
}

/** The NumberLit of a `unary` node that is just a number (no parentheses, no postfix). */
function bareNumber(unaryNode: CstNode): IToken | undefined {
  const post = node(unaryNode.children, 'postfix');
  if (!post || nodes(post.children, 'postfixOp').length) return undefined;
  return tok(node(post.children, 'primary')!.children, 'NumberLit');
}

function negate(lit: Literal, pos: Pos): Literal | undefined {
  const v = lit.value;
  if (typeof v === 'number') return v === 0 ? undefined : { ...lit, value: -v, pos };
  if (typeof v === 'string' && /^\d+$/.test(v)) return { ...lit, value: `-${v}`, pos };
  return undefined;
}

const BaseVisitor = sqlParser.getBaseCstVisitorConstructor();

/** One method per grammar rule (validateVisitor checks that); each returns that rule's AST piece. */
export class AstBuilder extends BaseVisitor {
  constructor() {
    super();
    this.validateVisitor();
  }

  private q(n: CstNode): Query {
    return this.visit(n) as Query;
  }
  private e(n: CstNode): Expr {
    return this.visit(n) as Expr;
  }
  private optE(n: CstNode | undefined): Expr | undefined {
    return n ? this.e(n) : undefined;
  }
  private binaryChain(ctx: Ctx, ops: (i: number) => BinaryOp, at: Pos): Expr {
    const operands = nodes(ctx, 'operand');
    let left = this.e(operands[0]!);
    for (let i = 1; i < operands.length; i++) left = { kind: 'binary', op: ops(i - 1), left, right: this.e(operands[i]!), pos: at };
    return left;
  }
  private firstPos(ctx: Ctx): Pos {
    return nodePos(nodes(ctx, 'operand')[0]!);
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

  // ─── expressions ─────────────────────────────────────────────────────────────────────────

  expression(ctx: Ctx): Expr {
    return this.binaryChain(ctx, () => 'OR', this.firstPos(ctx));
  }

  andExpr(ctx: Ctx): Expr {
    return this.binaryChain(ctx, () => 'AND', this.firstPos(ctx));
  }

  notExpr(ctx: Ctx): Expr {
    const not = tok(ctx, 'Not');
    if (not) return { kind: 'unary', op: 'NOT', operand: this.e(node(ctx, 'notExpr')!), pos: tokPos(not) };
    return this.e(node(ctx, 'comparison')!);
  }

  comparison(ctx: Ctx): Expr {
    let left = this.e(node(ctx, 'arith')!);
    for (const t of nodes(ctx, 'comparisonTail')) left = this.visit(t, left) as Expr;
    return left;
  }

  comparisonTail(ctx: Ctx, operand: Expr): Expr {
    const pos = operand.pos ? { pos: operand.pos } : {};
    const op = tok(ctx, 'op');
    if (op) return { kind: 'binary', op: COMPARISON_OPS.get(op.tokenType)!, left: operand, right: this.e(node(ctx, 'right')!), ...pos };
    const not = !!ctx.Not;
    if (ctx.Is) {
      const v = tok(ctx, 'isValue')!.tokenType;
      return { kind: 'is', operand, not, value: v === T.Null ? 'NULL' : v === T.True ? 'TRUE' : 'FALSE', ...pos };
    }
    if (ctx.In) {
      const target = node(ctx, 'inTarget')!;
      const arr = node(target.children, 'array');
      if (arr) return { kind: 'inUnnest', operand, not, array: this.e(arr), ...pos };
      const content = this.visit(node(target.children, 'parenBody')!) as ParenContent;
      if ('query' in content) return { kind: 'inSubquery', operand, not, query: content.query, ...pos };
      return { kind: 'in', operand, not, list: content.exprs, ...pos };
    }
    if (ctx.Between) {
      return { kind: 'between', operand, not, low: this.e(node(ctx, 'low')!), high: this.e(node(ctx, 'high')!), ...pos };
    }
    return { kind: 'like', operand, not, pattern: this.e(node(ctx, 'pattern')!), ...pos };
  }

  inTarget(): never {
    throw new Error('inTarget is read by comparisonTail');
  }

  parenBody(ctx: Ctx): ParenContent {
    const q = node(ctx, 'query');
    if (q) return { query: this.q(q) };
    return { exprs: nodes(ctx, 'expression').map((n) => this.e(n)) };
  }

  /** Precedence climbing over the flat operand/operator list, with explicit stacks (chains can be long). */
  arith(ctx: Ctx): Expr {
    const operands = nodes(ctx, 'operand');
    const opToks = toks(ctx, 'op');
    const at = this.firstPos(ctx);
    const values: Expr[] = [this.e(operands[0]!)];
    const ops: BinaryOp[] = [];
    const reduce = (): void => {
      const right = values.pop()!;
      const left = values.pop()!;
      values.push({ kind: 'binary', op: ops.pop()!, left, right, pos: left.pos ?? at });
    };
    for (let i = 0; i < opToks.length; i++) {
      const op = ARITHMETIC_OPS.get(opToks[i]!.tokenType)!;
      while (ops.length && ARITH_PREC[ops[ops.length - 1]!]! >= ARITH_PREC[op]!) reduce();
      ops.push(op);
      values.push(this.e(operands[i + 1]!));
    }
    while (ops.length) reduce();
    return values[0]!;
  }

  unary(ctx: Ctx): Expr {
    const op = tok(ctx, 'op');
    if (!op) return this.e(node(ctx, 'postfix')!);
    const inner = node(ctx, 'unary')!;
    const operand = this.e(inner);
    const pos = tokPos(op);
    // `-5` is a negative literal (so INT64's minimum is writable); `-(5)` stays a Unary.
    if (op.tokenType === T.Minus && bareNumber(inner)) {
      const lit = negate(operand as Literal, pos);
      if (lit) return lit;
    }
    return { kind: 'unary', op: op.tokenType === T.Minus ? '-' : op.tokenType === T.Plus ? '+' : '~', operand, pos };
  }

  postfix(ctx: Ctx): Expr {
    let base = this.e(node(ctx, 'primary')!);
    for (const p of nodes(ctx, 'postfixOp')) base = this.visit(p, base) as Expr;
    return base;
  }

  postfixOp(ctx: Ctx, base: Expr): Expr {
    const pos = base.pos ? { pos: base.pos } : {};
    const fieldNode = node(ctx, 'fieldName');
    if (fieldNode) return { kind: 'field', base, name: (this.visit(fieldNode) as NamePart).text, ...pos };
    const index = this.e(node(ctx, 'expression')!);
    if (index.kind === 'call' && index.args.length === 1 && !index.star && !index.distinct && !index.safe) {
      const mode = SUBSCRIPT_MODES[index.name];
      if (mode) return { kind: 'subscript', base, index: index.args[0]!, mode, ...pos };
    }
    return { kind: 'subscript', base, index, mode: 'plain', ...pos };
  }

  primary(ctx: Ctx): Expr {
    const n = tok(ctx, 'NumberLit');
    if (n) return numberLiteral(n);
    const s = tok(ctx, 'StringLit');
    if (s) {
      const d = stringValue(s);
      return { kind: 'literal', type: d.bytes ? 'bytes' : 'string', value: d.value, pos: tokPos(s) };
    }
    const t = tok(ctx, 'True') ?? tok(ctx, 'False');
    if (t) return { kind: 'literal', type: 'bool', value: t.tokenType === T.True, pos: tokPos(t) };
    const nul = tok(ctx, 'Null');
    if (nul) return { kind: 'literal', type: 'null', value: null, pos: tokPos(nul) };
    const p = tok(ctx, 'Param');
    if (p) return { kind: 'param', name: p.image.slice(1), pos: tokPos(p) };
    const paren = node(ctx, 'parenBody');
    if (paren) {
      const content = this.visit(paren) as ParenContent;
      const pos = nodePos(paren);
      if ('query' in content) return { kind: 'subquery', query: content.query, pos };
      if (content.exprs.length === 1) return content.exprs[0]!;
      return { kind: 'struct', fields: content.exprs.map((expr) => ({ expr })), pos };
    }
    // Every other alternative is a single sub-rule (caseExpr, castExpr, pathOrCall, ...) that builds its own node.
    const sub = Object.values(ctx).find((v) => v?.length)![0] as CstNode;
    return this.e(sub);
  }

  typedLiteral(ctx: Ctx): Expr {
    const word = tok(ctx, 'typeWord')!;
    const str = tok(ctx, 'StringLit')!;
    const type = word.image.toUpperCase();
    const value = stringValue(str).value;
    const pos = tokPos(word);
    if (type === 'TIMESTAMP' || type === 'DATETIME' || type === 'DATE') {
      return { kind: 'literal', type: type.toLowerCase() as 'timestamp' | 'datetime' | 'date', value, pos };
    }
    // TIME/NUMERIC/JSON '...' have no literal type of their own: they read as a CAST of the string.
    return { kind: 'cast', expr: { kind: 'literal', type: 'string', value, pos: tokPos(str) }, type, safe: false, pos };
  }

  interval(ctx: Ctx): Expr {
    return {
      kind: 'interval',
      value: this.e(node(ctx, 'value')!),
      unit: tok(ctx, 'unit')!.image.toUpperCase(),
      pos: tokPos(tok(ctx, 'intervalWord')!),
    };
  }

  caseExpr(ctx: Ctx): Expr {
    const thens = nodes(ctx, 'then');
    const operand = this.optE(node(ctx, 'operand'));
    const whens = nodes(ctx, 'when').map((w, i) => ({ when: this.e(w), then: this.e(thens[i]!) }));
    const els = this.optE(node(ctx, 'else'));
    return { kind: 'case', ...(operand ? { operand } : {}), whens, ...(els ? { else: els } : {}), pos: tokPos(tok(ctx, 'Case')!) };
  }

  castExpr(ctx: Ctx): Expr {
    const kw = tok(ctx, 'Cast') ?? tok(ctx, 'SafeCast')!;
    return {
      kind: 'cast',
      expr: this.e(node(ctx, 'expression')!),
      type: this.visit(node(ctx, 'typeName')!) as string,
      safe: kw.tokenType === T.SafeCast,
      pos: tokPos(kw),
    };
  }

  typeName(ctx: Ctx): string {
    let text = tok(ctx, 'typeWord')!.image.toUpperCase();
    const params = nodes(ctx, 'typeParam');
    if (params.length) text += `<${params.map((p) => this.visit(p) as string).join(', ')}>`;
    const sizes = toks(ctx, 'size');
    if (sizes.length) text += `(${sizes.map((s) => s.image).join(', ')})`;
    return text;
  }

  typeParam(ctx: Ctx): string {
    const field = tok(ctx, 'field');
    const type = this.visit(node(ctx, 'typeName')!) as string;
    return field ? `${field.image} ${type}` : type;
  }

  extractExpr(ctx: Ctx): Expr {
    const arg = tok(ctx, 'partArg');
    const part = tok(ctx, 'part')!.image.toUpperCase() + (arg ? `(${arg.image.toUpperCase()})` : '');
    return { kind: 'extract', part, expr: this.e(node(ctx, 'expression')!), pos: tokPos(tok(ctx, 'Extract')!) };
  }

  existsExpr(ctx: Ctx): Expr {
    return { kind: 'exists', query: this.q(node(ctx, 'query')!), pos: tokPos(tok(ctx, 'Exists')!) };
  }

  arrayExpr(ctx: Ctx): Expr {
    const kw = tok(ctx, 'Array')!;
    const pos = tokPos(kw);
    const q = node(ctx, 'query');
    if (q) {
      const sub: Expr = { kind: 'subquery', query: this.q(q), pos: tokPos(tok(ctx, 'LParen')!) };
      return { kind: 'call', name: 'ARRAY', args: [sub], pos };
    }
    const lit = this.e(node(ctx, 'arrayLiteral')!);
    const typeNode = node(ctx, 'typeName');
    if (lit.kind !== 'array') return lit;
    return { kind: 'array', elements: lit.elements, ...(typeNode ? { elementType: this.visit(typeNode) as string } : {}), pos };
  }

  arrayLiteral(ctx: Ctx): Expr {
    return { kind: 'array', elements: nodes(ctx, 'expression').map((n) => this.e(n)), pos: tokPos(tok(ctx, 'LBracket')!) };
  }

  structExpr(ctx: Ctx): Expr {
    return {
      kind: 'struct',
      fields: nodes(ctx, 'structField').map((n) => this.visit(n) as { expr: Expr; alias?: string }),
      pos: tokPos(tok(ctx, 'Struct')!),
    };
  }

  structField(ctx: Ctx): { expr: Expr; alias?: string } {
    const name = node(ctx, 'name');
    const expr = this.e(node(ctx, 'expression')!);
    return name ? { expr, alias: (this.visit(name) as NamePart).text } : { expr };
  }

  keywordCall(ctx: Ctx): Expr {
    const fn = tok(ctx, 'fn')!;
    return this.makeCall(fn.image.toUpperCase(), false, this.visit(node(ctx, 'callArgs')!) as CallArgs, tokPos(fn));
  }

  pathOrCall(ctx: Ctx): Expr {
    const p = this.visit(node(ctx, 'path')!) as PathValue;
    const argsNode = node(ctx, 'callArgs');
    if (argsNode) {
      const args = this.visit(argsNode) as CallArgs;
      const safe = p.parts.length > 1 && !p.quoted[0] && p.parts[0]!.toUpperCase() === 'SAFE';
      const name = (safe ? p.parts.slice(1) : p.parts).map((x) => x.toUpperCase()).join('.');
      return this.makeCall(name, safe, args, p.pos);
    }
    if (p.parts.length === 1 && !p.quoted[0] && NILADIC.has(p.parts[0]!.toUpperCase())) {
      return { kind: 'call', name: p.parts[0]!.toUpperCase(), args: [], pos: p.pos };
    }
    const id: Ident = { kind: 'ident', parts: p.parts };
    if (p.quoted.includes(true)) id.quoted = p.quoted;
    id.pos = p.pos;
    return id;
  }

  private makeCall(name: string, safe: boolean, a: CallArgs, pos: Pos): Call {
    const c: Call = { kind: 'call', name, args: a.args };
    if (a.star) c.star = true;
    if (a.distinct) c.distinct = true;
    if (safe) c.safe = true;
    if (a.nulls) c.nulls = a.nulls;
    if (a.orderBy) c.orderBy = a.orderBy;
    if (a.limit) c.limit = a.limit;
    c.pos = pos;
    return c;
  }

  callArgs(ctx: Ctx): CallArgs {
    const out: CallArgs = { args: nodes(ctx, 'arg').map((n) => this.e(n)), star: !!ctx.Star, distinct: !!ctx.Distinct };
    const mode = tok(ctx, 'nullsMode');
    if (mode) out.nulls = mode.image.toUpperCase() === 'IGNORE' ? 'ignore' : 'respect';
    const ob = node(ctx, 'orderBy');
    if (ob) out.orderBy = this.visit(ob) as OrderItem[];
    const lim = this.optE(node(ctx, 'limit'));
    if (lim) out.limit = lim;
    return out;
  }
}

/** The one visitor instance, reused. */
export const astBuilder = new AstBuilder();
