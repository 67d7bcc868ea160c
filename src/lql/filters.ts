// Turns one LQL filter term into a SQL predicate (SPEC §5). Negation wraps the predicate in NOT;
// on a missing field NOT(NULL) is NULL, so `-field:value` also drops rows that lack the field.

import type { Expr, Literal } from '../sql/ast.ts';
import { syntaxError } from './read-terms.ts';
import type { FieldScope } from './field-scope.ts';
import { expandPath } from './field-scope.ts';
import type { FilterTerm, LqlValue } from './terms.ts';

export function filterExpr(term: FilterTerm, scope: FieldScope): Expr {
  const pred = positive(term, scope);
  return term.negated ? { kind: 'unary', op: 'NOT', operand: pred } : pred;
}

function positive(term: FilterTerm, scope: FieldScope): Expr {
  switch (term.kind) {
    case 'text':
      return {
        kind: 'binary',
        op: '>',
        left: call('STRPOS', scope.column('event_message', term.column), str(term.text)),
        right: { kind: 'literal', type: 'int', value: 0 },
      };
    case 'regex':
      return call('REGEXP_CONTAINS', scope.column('event_message', term.column), str(term.pattern));
    case 'time': {
      const ts = scope.column('timestamp', term.column);
      return compare(ts, term.op, literal(term.value), term.high && literal(term.high));
    }
    case 'last': {
      const ts = scope.column('timestamp', term.column);
      const since = call('TIMESTAMP_SUB', call('CURRENT_TIMESTAMP'), {
        kind: 'interval',
        value: { kind: 'literal', type: 'int', value: term.amount },
        unit: term.unit,
      });
      return { kind: 'binary', op: '>=', left: ts, right: since };
    }
    case 'field': {
      const isNull = term.value.kind === 'null';
      // `field:NULL` must see rows that lack the record, so it does not force a CROSS JOIN.
      const x = scope.path(expandPath(term.path), isNull ? 'keep' : 'filter', term.column);
      if (term.op === '~') return call('REGEXP_CONTAINS', x, str(term.value.raw));
      if (isNull) {
        if (term.op !== '=') throw syntaxError(term.value.column, `NULL can only be matched with ':' (is NULL), not ':${term.op}'`);
        return { kind: 'is', operand: x, not: false, value: 'NULL' };
      }
      return compare(x, term.op, literal(term.value), term.high && literal(term.high));
    }
  }
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
