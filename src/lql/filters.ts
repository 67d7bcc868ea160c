// Turns one LQL filter term into a SQL predicate (SPEC §5). Negation reads as the reference's:
// `-field:v` is `field IS NULL OR NOT (field = v)`, so rows where the field is NULL are kept.

import type { Expr, Literal, Query } from '../sql/ast.ts';
import { syntaxError } from './syntax-error.ts';
import { lastWindow, shorthandWindow } from './time-windows.ts';
import type { FieldScope } from './field-scope.ts';
import { expandPath } from './field-scope.ts';
import { levelRange } from './levels.ts';
import type { FilterTerm, LqlValue } from './terms.ts';

export function filterExpr(term: FilterTerm, scope: FieldScope): Expr {
  const { pred, subject } = positive(term, scope);
  if (!term.negated) return pred;
  const not: Expr = { kind: 'unary', op: 'NOT', operand: pred };
  // `-f:NULL` is NOT (f IS NULL); every other negated term on a column also keeps its NULL rows.
  if (!subject) return not;
  return { kind: 'binary', op: 'OR', left: { kind: 'is', operand: subject, not: false, value: 'NULL' }, right: not };
}

/** The predicate and, where a negation must keep NULL rows, the column it reads. */
interface Positive {
  pred: Expr;
  subject?: Expr;
}

function positive(term: FilterTerm, scope: FieldScope): Positive {
  switch (term.kind) {
    case 'text': {
      const subject = scope.column('event_message', term.column);
      return { subject, pred: {
        kind: 'binary',
        op: '>',
        left: call('STRPOS', subject, str(term.text)),
        right: { kind: 'literal', type: 'int', value: 0 },
      } };
    }
    case 'regex': {
      const subject = scope.column('event_message', term.column);
      return { subject, pred: call('REGEXP_CONTAINS', subject, str(term.pattern)) };
    }
    // Timestamps are never NULL in a stored row: a negated time term stays a plain NOT.
    case 'time': {
      const ts = scope.column('timestamp', term.column);
      return { pred: compare(ts, term.op, literal(term.value), term.high && literal(term.high)) };
    }
    case 'last':
      return { pred: lastWindow(scope.column('timestamp', term.column), term.amount, term.unit) };
    case 'shorthand':
      return { pred: shorthandWindow(scope.column('timestamp', term.column), term.op, term.shorthand) };
    case 'field':
      return fieldPredicate(term, scope);
  }
}

function fieldPredicate(term: Extract<FilterTerm, { kind: 'field' }>, scope: FieldScope): Positive {
  const isNull = term.value.kind === 'null';
  const path = expandPath(term.path);
  // `field:NULL` must see rows that lack the record, so it does not force a CROSS JOIN.
  const x = scope.path(path, isNull ? 'keep' : 'filter', term.column);
  switch (term.op) {
    case '~':
      return { subject: x, pred: call('REGEXP_CONTAINS', x, str(term.value.raw)) };
    case '@>':
      if (isNull) throw syntaxError(term.value.column, "NULL can only be matched with ':' (is NULL), not ':@>'");
      return { subject: x, pred: { kind: 'inUnnest', operand: literal(term.value), not: false, array: x } };
    case '@>~':
      return { subject: x, pred: { kind: 'exists', query: anyElementMatches(x, term.value.raw) } };
    default:
      break;
  }
  if (isNull) {
    if (term.op !== '=') throw syntaxError(term.value.column, `NULL can only be matched with ':' (is NULL), not ':${term.op}'`);
    return { pred: { kind: 'is', operand: x, not: false, value: 'NULL' } };
  }
  if (term.high) {
    const levels = levelRange(path, term.value, term.high);
    if (levels) return { subject: x, pred: { kind: 'in', operand: x, not: false, list: levels.map(str) } };
  }
  return { subject: x, pred: compare(x, term.op, literal(term.value), term.high && literal(term.high)) };
}

/** `SELECT * FROM UNNEST(array) AS x WHERE REGEXP_CONTAINS(x, pattern)`, for EXISTS (the reference's SQL). */
function anyElementMatches(array: Expr, pattern: string): Query {
  const x: Expr = { kind: 'ident', parts: ['x'] };
  return {
    kind: 'query',
    body: {
      kind: 'select',
      distinct: false,
      items: [{ kind: 'star' }],
      from: { kind: 'unnest', expr: array, alias: 'x' },
      where: call('REGEXP_CONTAINS', x, str(pattern)),
    },
  };
}

function compare(x: Expr, op: '=' | '>' | '>=' | '<' | '<=', low: Literal, high: Literal | undefined): Expr {
  if (high) return { kind: 'between', operand: x, not: false, low, high };
  return { kind: 'binary', op, left: x, right: low };
}

/** Typed literal of an LQL value; NULL never reaches here (it becomes IS NULL). */
export function literal(v: LqlValue): Literal {
  switch (v.kind) {
    case 'string':
      return str(v.value);
    case 'int':
      return { kind: 'literal', type: 'int', value: Number.isSafeInteger(v.value) ? v.value : v.raw };
    case 'float':
      return { kind: 'literal', type: 'float', value: v.value };
    case 'bool':
      return { kind: 'literal', type: 'bool', value: v.value };
    case 'timestamp':
      return { kind: 'literal', type: 'timestamp', value: v.value };
    case 'null':
      return { kind: 'literal', type: 'null', value: null };
  }
}

function str(value: string): Literal {
  return { kind: 'literal', type: 'string', value };
}

export function call(name: string, ...args: Expr[]): Expr {
  return { kind: 'call', name, args };
}
