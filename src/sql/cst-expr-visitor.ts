// The expression half of the CST-to-AST visitor: one method per expression rule of grammar/sql-parser.ts,
// each returning that rule's Expr; cst-to-ast.ts extends it with the query rules.

import type { CstNode } from 'chevrotain';
import { sqlParser } from '../../grammar/sql-parser.ts';
import * as T from '../../grammar/sql-tokens.ts';
import type { BinaryOp, Expr, Ident, Literal, OrderItem, Pos, Query } from './ast.ts';
import { type Ctx, toks, tok, nodes, node, tokPos, nodePos, NILADIC, SUBSCRIPT_MODES, COMPARISON_OPS, ARITHMETIC_OPS, ARITH_PREC, type NamePart, type PathValue, type CallArgs, type ParenContent, numberLiteral, stringValue, bareNumber, negate, makeCall } from './cst-helpers.ts';

const BaseVisitor = sqlParser.getBaseCstVisitorConstructor();

/** Expression rules, and the helpers the query rules share (q, e, optE). */
export class ExprVisitor extends BaseVisitor {
  protected q(n: CstNode): Query {
    return this.visit(n) as Query;
  }
  protected e(n: CstNode): Expr {
    return this.visit(n) as Expr;
  }
  protected optE(n: CstNode | undefined): Expr | undefined {
    return n ? this.e(n) : undefined;
  }
  protected binaryChain(ctx: Ctx, ops: (i: number) => BinaryOp, at: Pos): Expr {
    const operands = nodes(ctx, 'operand');
    let left = this.e(operands[0]!);
    for (let i = 1; i < operands.length; i++) left = { kind: 'binary', op: ops(i - 1), left, right: this.e(operands[i]!), pos: at };
    return left;
  }
  protected firstPos(ctx: Ctx): Pos {
    return nodePos(nodes(ctx, 'operand')[0]!);
  }

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
    return makeCall(fn.image.toUpperCase(), false, this.visit(node(ctx, 'callArgs')!) as CallArgs, tokPos(fn));
  }

  pathOrCall(ctx: Ctx): Expr {
    const p = this.visit(node(ctx, 'path')!) as PathValue;
    const argsNode = node(ctx, 'callArgs');
    if (argsNode) {
      const args = this.visit(argsNode) as CallArgs;
      const safe = p.parts.length > 1 && !p.quoted[0] && p.parts[0]!.toUpperCase() === 'SAFE';
      const name = (safe ? p.parts.slice(1) : p.parts).map((x) => x.toUpperCase()).join('.');
      return makeCall(name, safe, args, p.pos);
    }
    if (p.parts.length === 1 && !p.quoted[0] && NILADIC.has(p.parts[0]!.toUpperCase())) {
      return { kind: 'call', name: p.parts[0]!.toUpperCase(), args: [], pos: p.pos };
    }
    const id: Ident = { kind: 'ident', parts: p.parts };
    if (p.quoted.includes(true)) id.quoted = p.quoted;
    id.pos = p.pos;
    return id;
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
