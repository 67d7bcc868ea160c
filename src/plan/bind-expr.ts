// Binds AST expressions to typed, folded bound expressions: resolves names with BigQuery's rules
// (range variables before columns, dotted paths into records), checks arity and types, and folds.

import { isDatePart } from '../core/date-parts.ts';
import { RingqlError } from '../core/errors.ts';
import { parseTimestamp } from '../core/time.ts';
import type { Expr, Ident, Pos, Query } from '../sql/ast.ts';
import { scalarFunction, aggregateFunction, type FnDef } from '../fn/index.ts';
import type { BExpr, ColInfo, Plan } from './bound.ts';
import { foldNode } from './fold.ts';
import { columnsNamed, type CteScope, type FromScope, type RangeVar } from './scope.ts';
import { castTargetType, commonType, type SqlType } from '../core/types.ts';
import { registerSubqueryPlan } from './expr-key.ts';
import type { IntervalValue } from '../core/values.ts';
import { notePin, traced } from './param-trace.ts';
import { checkSchemaTypes, isNum, noteSpecialize, recordShapeOf } from './bind-checks.ts';
import { bindExistsOverUnnest, unnestShape } from './bind-exists-unnest.ts';

const CORRELATED = 'Correlated subqueries are not supported';

export interface ExprCtx {
  scope: FromScope;
  ctes: CteScope;
  trusted: boolean;
  /** Where aggregates may appear; 'collect' gathers them (SELECT/HAVING/ORDER BY of a grouped query). */
  aggMode: 'forbid' | 'collect';
  clause: string;
  /** Select-list aliases usable here (GROUP BY / ORDER BY / HAVING), lower-cased name → expression. */
  aliases?: Map<string, Expr>;
  /** The enclosing scope an EXISTS-over-UNNEST predicate may read (see bind-exists-unnest.ts). */
  lateral?: FromScope;
}

export interface ExprBinderHost {
  params: ReadonlyMap<string, string | null>;
  declaredParams: ReadonlySet<string> | null;
  /** Mark constants bound from parameters (and the decisions taken on them) for prepare-once. */
  traceParams?: boolean;
  nowUs: number;
  /** Binds a subquery in a child scope of `scope`; sets `correlated` when it reads outer columns. */
  bindSubquery(q: Query, ctx: ExprCtx): Plan;
  newCol(name: string, type: SqlType): ColInfo;
}


export function posDetails(pos: Pos | undefined): Record<string, number> {
  return pos ? { line: pos.line, column: pos.column } : {};
}

function fail(code: 'unknown_name' | 'ambiguous_name' | 'query_error' | 'query_error', msg: string, pos?: Pos): never {
  throw new RingqlError(code, pos ? `${msg} [at ${pos.line}:${pos.column}]` : msg, posDetails(pos));
}

export class ExprBinder {
  constructor(private readonly host: ExprBinderHost) {}

  bind(e: Expr, ctx: ExprCtx): BExpr {
    return foldNode(this.bindRaw(e, ctx));
  }

  private bindRaw(e: Expr, ctx: ExprCtx): BExpr {
    switch (e.kind) {
      case 'literal':
        return this.literal(e);
      case 'param': {
        const name = e.name;
        const declared = this.host.declaredParams;
        if (declared && !declared.has(name) && !declared.has(name.toLowerCase())) {
          fail('unknown_name', `Query parameter @${name} is not declared by this endpoint (declared: ${[...declared].map((d) => '@' + d).join(', ') || 'none'})`, e.pos);
        }
        const v = this.host.params.get(name) ?? this.host.params.get(name.toLowerCase()) ?? null;
        return this.host.traceParams ? { k: 'const', value: v, type: 'STRING', param: name } : { k: 'const', value: v, type: 'STRING' };
      }
      case 'ident':
        return this.ident(e, ctx);
      case 'call':
        return this.call(e, ctx);
      case 'unary': {
        const a = this.bind(e.operand, ctx);
        if (e.op === 'NOT') return { k: 'not', arg: this.expectBool(a, 'NOT', e.pos), type: 'BOOL' };
        if (e.op === '+') return a;
        if (e.op === '-') return this.callFn('$neg', [a], e.pos);
        fail('query_error', `Operator ${e.op} is not supported`, e.pos);
      }
      // falls through (fail never returns)
      case 'binary':
        return this.binary(e.op, e.left, e.right, ctx, e.pos);
      case 'is': {
        const a = this.bind(e.operand, ctx);
        const fn = e.value === 'NULL' ? '$ISNULL' : e.value === 'TRUE' ? '$ISTRUE' : '$ISFALSE';
        const r = this.callFn(fn, [a], e.pos);
        return e.not ? { k: 'not', arg: r, type: 'BOOL' } : r;
      }
      case 'in': {
        const arg = this.bind(e.operand, ctx);
        const list = e.list.map((x) => this.coerceTo(this.bind(x, ctx), arg.type));
        checkSchemaTypes('IN', [[arg, e.operand], ...list.map((b, i): [BExpr, Expr] => [b, e.list[i]!])], e.pos);
        return { k: 'in', arg, list, not: e.not, type: 'BOOL' };
      }
      case 'inSubquery': {
        const arg = this.bind(e.operand, ctx);
        const plan = this.subqueryPlan(e.query, ctx, 1, 'IN subquery');
        return { k: 'subquery', plan, mode: 'in', arg, not: e.not, type: 'BOOL' };
      }
      case 'inUnnest': {
        const arg = this.bind(e.operand, ctx);
        return { k: 'inArray', arg, array: this.bind(e.array, ctx), not: e.not, type: 'BOOL' };
      }
      case 'between': {
        const a = this.bind(e.operand, ctx);
        const lo = this.coerceTo(this.bind(e.low, ctx), a.type);
        const hi = this.coerceTo(this.bind(e.high, ctx), a.type);
        checkSchemaTypes('BETWEEN', [[a, e.operand], [lo, e.low], [hi, e.high]], e.pos);
        const r = foldNode({ k: 'and', args: [this.cmp('>=', a, lo, e.pos), this.cmp('<=', a, hi, e.pos)], type: 'BOOL' });
        return e.not ? { k: 'not', arg: r, type: 'BOOL' } : r;
      }
      case 'like': {
        const r = this.callFn('$LIKE', [this.bind(e.operand, ctx), this.bind(e.pattern, ctx)], e.pos);
        return e.not ? { k: 'not', arg: r, type: 'BOOL' } : r;
      }
      case 'case': {
        const operand = e.operand ? this.bind(e.operand, ctx) : null;
        const whens = e.whens.map((w) => {
          let cond = this.bind(w.when, ctx);
          if (operand) cond = foldNode(this.cmp('=', operand, this.coerceTo(cond, operand.type), e.pos));
          else cond = this.expectBool(cond, 'CASE WHEN', e.pos);
          return { when: cond, then: this.bind(w.then, ctx) };
        });
        const els: BExpr = e.else ? this.bind(e.else, ctx) : { k: 'const', value: null, type: 'NULL' };
        let type: SqlType = els.type;
        for (const w of whens) {
          const t = commonType(type, w.then.type);
          if (t === null) fail('query_error', `CASE branches have incompatible types ${type} and ${w.then.type}`, e.pos);
          type = t;
        }
        return { k: 'case', whens, else: els, type };
      }
      case 'cast': {
        const to = castTargetType(e.type);
        if (!to) fail('query_error', `CAST to ${e.type} is not supported`, e.pos);
        const arg = this.bind(e.expr, ctx);
        return { k: 'cast', arg, to, safe: e.safe, type: to };
      }
      case 'interval': {
        const v = this.bind(e.value, ctx);
        notePin(v);
        const unit = e.unit.toUpperCase();
        if (!isDatePart(unit)) fail('query_error', `Unknown INTERVAL unit ${e.unit}`, e.pos);
        if (v.k !== 'const' || typeof v.value !== 'number') fail('query_error', 'INTERVAL needs a constant integer, e.g. INTERVAL 1 HOUR', e.pos);
        const iv: IntervalValue = { interval: true, n: v.value as number, unit };
        return v.clock ? { k: 'const', value: iv, type: 'INTERVAL', clock: 'other' } : { k: 'const', value: iv, type: 'INTERVAL' };
      }
      case 'subscript': {
        const mode = e.mode === 'plain' ? 'offset' : e.mode;
        if (e.base.kind === 'ident' && e.base.parts.length === 1) {
          const v = ctx.scope.findVar(e.base.parts[0]!);
          if (v && v.kind === 'table') {
            // struct subscript on a row: `dates[0]` is the first column of range variable `dates`
            const idx = this.bind(e.index, ctx);
            notePin(idx);
            if (idx.k !== 'const' || typeof idx.value !== 'number' || idx.clock) fail('query_error', 'A row subscript needs a constant index', e.pos);
            const i = (idx.value as number) - (mode === 'ordinal' || mode === 'safe_ordinal' ? 1 : 0);
            const col = v.cols[i];
            if (!col) fail('query_error', `Field index ${idx.value} is out of bounds for ${v.display} (${v.cols.length} columns)`, e.pos);
            return colRef(col);
          }
        }
        const base = this.bind(e.base, ctx);
        return { k: 'subscript', base, index: this.bind(e.index, ctx), mode, type: 'ANY' };
      }
      case 'field': {
        const base = this.bind(e.base, ctx);
        return this.field(base, e.name, e.pos);
      }
      case 'exists':
        return this.exists(e.query, ctx);
      case 'subquery': {
        const plan = this.subqueryPlan(e.query, ctx, 1, 'A scalar subquery');
        return { k: 'subquery', plan, mode: 'scalar', type: plan.cols[0]!.type };
      }
      case 'array':
        return { k: 'array', elements: e.elements.map((x) => this.bind(x, ctx)), type: 'ARRAY' };
      case 'struct':
        return { k: 'struct', fields: e.fields.map((f, i) => ({ name: f.alias ?? implicitName(f.expr) ?? `_field_${i + 1}`, expr: this.bind(f.expr, ctx) })), type: 'STRUCT' };
      case 'extract': {
        const part = e.part.toUpperCase();
        return this.callFn('$EXTRACT', [{ k: 'const', value: part, type: 'STRING' }, this.bind(e.expr, ctx)], e.pos);
      }
    }
  }

  /** EXISTS: a subquery plan; a correlated one only over the UNNEST of the current row's array. */
  private exists(q: Query, ctx: ExprCtx): BExpr {
    const shape = unnestShape(q, ctx.scope);
    const host = { bind: (x: Expr, c: ExprCtx) => this.bind(x, c), expectBool: this.expectBool.bind(this), newCol: (n: string, t: SqlType) => this.host.newCol(n, t) };
    if (shape?.path) return bindExistsOverUnnest(host, shape, ctx);
    try {
      return { k: 'subquery', plan: this.subqueryPlan(q, ctx, null, 'EXISTS'), mode: 'exists', type: 'BOOL' };
    } catch (err) {
      if (shape === null || !(err instanceof RingqlError && err.message.startsWith(CORRELATED))) throw err;
      return bindExistsOverUnnest(host, shape, ctx);
    }
  }

  private subqueryPlan(q: Query, ctx: ExprCtx, cols: number | null, what: string): Plan {
    const plan = this.host.bindSubquery(q, ctx);
    if (cols !== null && plan.cols.length !== cols) fail('query_error', `${what} must return exactly one column (got ${plan.cols.length})`, q.pos);
    registerSubqueryPlan(plan);
    return plan;
  }

  private literal(e: Extract<Expr, { kind: 'literal' }>): BExpr {
    switch (e.type) {
      case 'string': case 'bytes': return { k: 'const', value: e.value as string, type: 'STRING' };
      case 'int': return { k: 'const', value: Number(e.value), type: 'INT64' };
      case 'float': return { k: 'const', value: Number(e.value), type: 'FLOAT64' };
      case 'bool': return { k: 'const', value: e.value as boolean, type: 'BOOL' };
      case 'null': return { k: 'const', value: null, type: 'NULL' };
      case 'timestamp': {
        const us = parseTimestamp(e.value);
        if (us === null) fail('query_error', `Invalid TIMESTAMP literal "${String(e.value)}"`, e.pos);
        return { k: 'const', value: us, type: 'TIMESTAMP' };
      }
      case 'datetime': case 'date': {
        const arg: BExpr = { k: 'const', value: e.value as string, type: 'STRING' };
        const to = e.type === 'date' ? 'DATE' : 'DATETIME';
        return foldNode({ k: 'cast', arg, to, safe: false, type: to });
      }
    }
  }

  /** Resolves a dotted name by `FromScope.resolve`'s rules, innermost scope first, then outer scopes. */
  private ident(e: Ident, ctx: ExprCtx): BExpr {
    const [first, ...rest] = e.parts as [string, ...string[]];
    for (let scope: FromScope | null = ctx.scope; scope; scope = scope.parent) {
      const hit = scope.resolve(first);
      if (hit.k === 'none') continue;
      if (hit.k === 'ambiguous') {
        fail('ambiguous_name', `Column name ${first} is ambiguous: it is a ${hit.fields ? 'column or field' : 'column'} of ${hit.sources.join(' and ')}; qualify it, e.g. ${hit.sources[0]}.${first}`, e.pos);
      }
      if (scope !== ctx.scope && scope !== ctx.lateral) this.correlated(e);
      if (hit.k === 'var') return this.fromVar(hit.v, rest, e);
      let out: BExpr = hit.k === 'column' ? colRef(hit.col) : this.field(colRef(hit.v.cols[0]!), hit.field, e.pos);
      for (const f of rest) out = this.field(out, f, e.pos);
      return out;
    }
    if (rest.length === 0) {
      const upper = first.toUpperCase();
      if (upper === 'CURRENT_TIMESTAMP') return { k: 'const', value: this.host.nowUs, type: 'TIMESTAMP', clock: 'affine' };
    }
    const known = ctx.scope.allCols().map((c) => c.name);
    const hint = known.length ? `; columns here: ${[...new Set(known)].slice(0, 20).join(', ')}` : '';
    fail('unknown_name', `Unrecognized name: ${e.parts.join('.')}${hint}`, e.pos);
  }

  private correlated(e: Ident): never {
    fail('query_error', `${CORRELATED}: ${e.parts.join('.')} refers to the enclosing query (only EXISTS over the UNNEST of its array runs)`, e.pos);
  }

  private fromVar(v: RangeVar, rest: string[], e: Ident): BExpr {
    if (v.kind === 'value') {
      let out: BExpr = colRef(v.cols[0]!);
      for (const f of rest) out = this.field(out, f, e.pos);
      return out;
    }
    if (rest.length === 0) {
      return { k: 'struct', fields: v.cols.map((c) => ({ name: c.name, expr: colRef(c) })), type: 'STRUCT' };
    }
    const [colName, ...fields] = rest as [string, ...string[]];
    const col = columnsNamed(v, colName.toLowerCase())[0];
    if (!col) fail('unknown_name', `Name ${colName} not found inside ${v.display}; its columns: ${v.cols.map((c) => c.name).join(', ')}`, e.pos);
    let out: BExpr = colRef(col);
    for (const f of fields) out = this.field(out, f, e.pos);
    return out;
  }

  field(base: BExpr, name: string, pos: Pos | undefined): BExpr {
    const shape = base.type === 'ANY' ? recordShapeOf(base) : undefined;
    if (shape === 'ARRAY') {
      const what = base.k === 'field' ? base.name : 'an array';
      fail('query_error', `Cannot access field ${name} on a value with type ARRAY: ${what} is a REPEATED RECORD (array); unnest it first (CROSS JOIN UNNEST(<alias>.${what}) AS x, then x.${name})`, pos);
    }
    if (shape !== undefined && shape !== 'STRUCT') fail('query_error', `Cannot access field ${name} on a value with type ${shape}`, pos);
    if (base.type === 'ARRAY') {
      const what = base.k === 'col' ? base.name : 'an array';
      fail('query_error', `Cannot access field ${name} on ${what}, a REPEATED RECORD (array); unnest it first, e.g. CROSS JOIN UNNEST(${what}) AS x ... x.${name}`, pos);
    }
    if (base.type !== 'ANY' && base.type !== 'STRUCT' && base.type !== 'NULL') {
      fail('query_error', `Cannot access field ${name} on a value of type ${base.type}`, pos);
    }
    return foldNode({ k: 'field', base, name, type: 'ANY' });
  }

  private call(e: Extract<Expr, { kind: 'call' }>, ctx: ExprCtx): BExpr {
    const name = e.name.toUpperCase();
    const agg = aggregateFunction(name);
    if (agg) {
      if (ctx.aggMode === 'forbid') fail('query_error', `Aggregate function ${name} is not allowed in ${ctx.clause}`, e.pos);
      if (e.star && name !== 'COUNT') fail('query_error', `${name}(*) is not valid; only COUNT(*)`, e.pos);
      // aggregate arguments are evaluated per input row: no nested aggregates
      const inner: ExprCtx = { ...ctx, aggMode: 'forbid', clause: `an argument of ${name}` };
      const args = e.args.map((a) => this.bind(a, inner));
      const n = e.star ? 0 : args.length;
      if (n < agg.minArgs || n > agg.maxArgs) fail('query_error', `${name} expects ${arity(agg.minArgs, agg.maxArgs)}, got ${n}`, e.pos);
      if (name === 'COUNTIF') args[0] = this.expectBool(args[0]!, 'COUNTIF', e.pos);
      return { k: 'agg', agg, args, distinct: !!e.distinct, star: !!e.star, type: agg.type(args.map((a) => a.type)) };
    }
    if (name === 'CURRENT_TIMESTAMP' || name === 'NOW') {
      if (e.args.length) fail('query_error', `${name} takes no arguments`, e.pos);
      return { k: 'const', value: this.host.nowUs, type: 'TIMESTAMP', clock: 'affine' };
    }
    if (name === 'ARRAY' && e.args.length === 1 && e.args[0]!.kind === 'subquery') {
      const plan = this.subqueryPlan(e.args[0]!.query, ctx, 1, 'ARRAY(subquery)');
      return { k: 'subquery', plan, mode: 'array', type: 'ARRAY' };
    }
    const fn = scalarFunction(name);
    if (!fn || name.startsWith('$')) fail('unknown_name', `Function not found: ${e.name}`, e.pos);
    const args = e.args.map((a, i) => (fn.datePartArgs?.includes(i) ? this.datePart(a) : this.bind(a, ctx)));
    return this.callFn(name, args, e.pos, e.safe ?? false, fn);
  }

  /** A date part argument (MINUTE, WEEK(MONDAY)) as a constant string. */
  private datePart(a: Expr): BExpr {
    if (a.kind === 'ident' && a.parts.length === 1) {
      const unit = a.parts[0]!.toUpperCase();
      if (!isDatePart(unit)) fail('query_error', `Unknown date part ${a.parts[0]}; expected one of MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER, YEAR`, a.pos);
      return { k: 'const', value: unit, type: 'STRING' };
    }
    if (a.kind === 'call' && a.name.toUpperCase() === 'WEEK' && a.args.length === 1 && a.args[0]!.kind === 'ident') {
      return { k: 'const', value: `WEEK(${(a.args[0] as Ident).parts[0]!.toUpperCase()})`, type: 'STRING' };
    }
    if (a.kind === 'literal' && a.type === 'string') return { k: 'const', value: String(a.value).toUpperCase(), type: 'STRING' };
    fail('query_error', 'Expected a date part such as MINUTE, HOUR or DAY', a.pos);
  }

  callFn(name: string, args: BExpr[], pos: Pos | undefined, safe = false, def?: FnDef): BExpr {
    const fn = def ?? scalarFunction(name);
    if (!fn) throw new Error(`internal function ${name} missing from the registry`);
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      fail('query_error', `${name} expects ${arity(fn.minArgs, fn.maxArgs)}, got ${args.length}`, pos);
    }
    let type: SqlType;
    try {
      type = fn.type(args.map((a) => a.type));
    } catch (err) {
      if (err instanceof RingqlError && pos) throw new RingqlError(err.code, `${err.message} [at ${pos.line}:${pos.column}]`, posDetails(pos));
      throw err;
    }
    const e: BExpr = { k: 'call', fn, args, type, safe };
    if (fn.specialize && args.some(traced)) noteSpecialize(fn, args);
    // An invalid constant regex is a query error at plan time, with the position.
    if (fn.specialize && args.slice(1).some((a) => a.k === 'const' && a.value !== null)) {
      try {
        fn.specialize(args.map((a) => (a.k === 'const' ? a.value : undefined)));
      } catch (err) {
        if (err instanceof RingqlError && !safe) throw new RingqlError(err.code, pos ? `${err.message} [at ${pos.line}:${pos.column}]` : err.message, { ...err.details, ...posDetails(pos) });
        if (!(err instanceof RingqlError)) throw err;
      }
    }
    return foldNode(e);
  }

  private binary(op: string, l: Expr, r: Expr, ctx: ExprCtx, pos: Pos | undefined): BExpr {
    if (op === 'AND' || op === 'OR') {
      const a = this.expectBool(this.bind(l, ctx), op, pos);
      const b = this.expectBool(this.bind(r, ctx), op, pos);
      const k = op === 'AND' ? 'and' : 'or';
      const args = [...(a.k === k ? a.args : [a]), ...(b.k === k ? b.args : [b])];
      return foldNode({ k, args, type: 'BOOL' });
    }
    const a = this.bind(l, ctx);
    const b = this.bind(r, ctx);
    if (op === '=' || op === '!=' || op === '<' || op === '<=' || op === '>' || op === '>=') {
      checkSchemaTypes(op, [[a, l], [b, r]], pos);
      return this.cmp(op, a, b, pos);
    }
    if (op === '+' || op === '-' || op === '*' || op === '/') {
      if ((a.type === 'TIMESTAMP' || b.type === 'TIMESTAMP') && (a.type === 'INTERVAL' || b.type === 'INTERVAL') && op !== '*' && op !== '/') {
        const [t, iv] = a.type === 'TIMESTAMP' ? [a, b] : [b, a];
        return this.callFn(op === '+' ? 'TIMESTAMP_ADD' : 'TIMESTAMP_SUB', [t, iv], pos);
      }
      for (const x of [a, b]) {
        if (x.type !== 'INT64' && x.type !== 'FLOAT64' && x.type !== 'ANY' && x.type !== 'NULL') {
          fail('query_error', `Operator ${op} needs numbers, got ${x.type}`, pos);
        }
      }
      return this.callFn('$' + op, [a, b], pos);
    }
    if (op === '||') return this.callFn('$||', [a, b], pos);
    fail('query_error', `Operator ${op} is not supported`, pos);
  }

  /** Comparison with BigQuery's literal coercion (a string compared with a TIMESTAMP is read as one). */
  cmp(op: string, a: BExpr, b: BExpr, pos: Pos | undefined): BExpr {
    const x = this.coerceTo(a, b.type);
    const y = this.coerceTo(b, x.type);
    const known = (t: SqlType) => t !== 'ANY' && t !== 'NULL';
    if (known(x.type) && known(y.type) && x.type !== y.type && !(isNum(x.type) && isNum(y.type))) {
      fail('query_error', `No matching signature for operator ${op} for argument types: ${x.type}, ${y.type}`, pos);
    }
    return this.callFn('$' + op, [x, y], pos);
  }

  /** Reads a STRING constant (literal or parameter) as the other side's TIMESTAMP/DATETIME/DATE. */
  coerceTo(e: BExpr, target: SqlType): BExpr {
    if (e.type !== 'STRING' || (target !== 'TIMESTAMP' && target !== 'DATETIME' && target !== 'DATE')) return e;
    if (e.k !== 'const') return e;
    return foldNode({ k: 'cast', arg: e, to: target, safe: false, type: target });
  }

  expectBool(e: BExpr, what: string, pos: Pos | undefined): BExpr {
    if (e.type !== 'BOOL' && e.type !== 'ANY' && e.type !== 'NULL') fail('query_error', `${what} needs a BOOL, got ${e.type}`, pos);
    return e;
  }
}

const arity = (min: number, max: number): string => (min === max ? `${min} argument${min === 1 ? '' : 's'}` : `${min} to ${max} arguments`);

export function colRef(c: ColInfo): BExpr {
  if (c.constant?.src) return { ...c.constant.src, type: c.type };
  if (c.constant) return c.constant.clock ? { k: 'const', value: c.constant.value, type: c.type, clock: c.constant.clock } : { k: 'const', value: c.constant.value, type: c.type };
  return c.origin ? { k: 'col', id: c.id, name: c.name, type: c.type, origin: c.origin } : { k: 'col', id: c.id, name: c.name, type: c.type };
}

/** BigQuery's implicit column name of a select expression: the last part of a path, else none. */
export function implicitName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.parts[e.parts.length - 1];
  if (e.kind === 'field') return e.name;
  return undefined;
}

