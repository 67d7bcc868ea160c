// A negated filter keeps rows where the column it reads is NULL, as the reference's LQL writes it:
// `-m.level:error` is `level IS NULL OR NOT (level = 'error')`; `-m.x:NULL` stays `NOT (x IS NULL)`.

import { describe, expect, it } from 'vitest';
import type { Expr, Ident } from '../../src/sql/ast.ts';
import { bin, call, id, int, not, onlyWhere, str } from './helpers.ts';
import { lqlIds, lqlSql, minutesAgo } from './store-rows.ts';

const level = id('f_metadata', 'level');
const isNull = (operand: Ident): Expr => ({ kind: 'is', operand, not: false, value: 'NULL' });
const orNot = (operand: Ident, pred: Expr): Expr => ({ kind: 'binary', op: 'OR', left: isNull(operand), right: not(pred) });

const events = [
  { id: 'err', timestamp: minutesAgo(1), event_message: 'boom', metadata: { level: 'error', code: 500 } },
  { id: 'info', timestamp: minutesAgo(2), event_message: 'fine', metadata: { level: 'info', code: 200 } },
  { id: 'nolevel', timestamp: minutesAgo(3), event_message: 'plain', metadata: { other: 1 } },
];

describe('negation keeps NULL rows', () => {
  it('field terms: f IS NULL OR NOT (pred)', () => {
    expect(onlyWhere('-m.level:error')).toEqual(orNot(level, bin('=', level, str('error'))));
    expect(onlyWhere('-m.code:>=500')).toEqual(orNot(id('f_metadata', 'code'), bin('>=', id('f_metadata', 'code'), int(500))));
    expect(onlyWhere('-m.level:~^e')).toEqual(orNot(level, call('REGEXP_CONTAINS', level, str('^e'))));
    expect(onlyWhere('-project:x')).toEqual(orNot(id('t', 'project'), bin('=', id('t', 'project'), str('x'))));
    expect(lqlSql('-m.level:error m.code:1')).toContain("WHERE (f_metadata.level IS NULL OR NOT f_metadata.level = 'error') AND f_metadata.code = 1");
  });
  it('free text and regex read event_message the same way', () => {
    const msg = id('t', 'event_message');
    expect(onlyWhere('-error')).toEqual(orNot(msg, bin('>', call('STRPOS', msg, str('error')), int(0))));
    expect(onlyWhere('-~x')).toEqual(orNot(msg, call('REGEXP_CONTAINS', msg, str('x'))));
  });
  it('-f:NULL is NOT (f IS NULL), and time terms stay a plain NOT (a stored timestamp is never NULL)', () => {
    expect(onlyWhere('-m.level:NULL')).toEqual(not(isNull(level)));
    expect(onlyWhere('-t:>2024-01-01')).toMatchObject({ kind: 'unary', op: 'NOT' });
  });
  it('rows: the record without a level is kept', () => {
    expect(lqlIds('-m.level:error', events)).toEqual(['info', 'nolevel']);
    expect(lqlIds('-m.level:~^e', events)).toEqual(['info', 'nolevel']);
    expect(lqlIds('-m.code:>=500', events)).toEqual(['info', 'nolevel']);
    expect(lqlIds('-m.level:NULL', events)).toEqual(['err', 'info']);
  });
});
