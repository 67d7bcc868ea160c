// Each LQL term kind compiles to the predicate SPEC §5 gives it: free text, regex, field filters
// with every operator and value type, ranges, NULL, booleans, timestamps and negation.

import { describe, expect, it } from 'vitest';
import type { Expr } from '../../src/sql/ast.ts';
import { bin, bool, call, conjuncts, float, id, int, lql, not, onlyWhere, str, ts } from './helpers.ts';

const msg = id('t', 'event_message');
const path = id('f_metadata_request', 'path');

describe('free text and regex', () => {
  it('a word is a case-sensitive substring of event_message', () => {
    expect(onlyWhere('Error')).toEqual(bin('>', call('STRPOS', msg, str('Error')), int(0)));
  });
  it('a quoted phrase keeps its spaces and unescapes \\" and \\\\', () => {
    expect(onlyWhere('"two words"')).toEqual(bin('>', call('STRPOS', msg, str('two words')), int(0)));
    expect(onlyWhere('"say \\"hi\\" \\\\ bye"')).toEqual(bin('>', call('STRPOS', msg, str('say "hi" \\ bye')), int(0)));
  });
  it('words may hold punctuation, digits and inner dashes', () => {
    expect(onlyWhere('GET/rest/v1-x_y.z')).toEqual(bin('>', call('STRPOS', msg, str('GET/rest/v1-x_y.z')), int(0)));
    expect(onlyWhere('12:30')).toEqual(bin('>', call('STRPOS', msg, str('12:30')), int(0)));
  });
  it('~"re" and ~re are REGEXP_CONTAINS on event_message; \\" and \\\\ are unescaped, as the reference does', () => {
    expect(onlyWhere('~"^start\\d+ \\"x\\""')).toEqual(call('REGEXP_CONTAINS', msg, str('^start\\d+ "x"')));
    // LQL `~"a\\d"` passes `a\d` to RE2 (a digit), as does `~"a\d"`; `\\\\` is one literal backslash.
    expect(onlyWhere('~"a\\\\d"')).toEqual(call('REGEXP_CONTAINS', msg, str('a\\d')));
    expect(onlyWhere('~"a\\\\\\\\b"')).toEqual(call('REGEXP_CONTAINS', msg, str('a\\\\b')));
    // A bare pattern is taken as written.
    expect(onlyWhere('~a\\\\d')).toEqual(call('REGEXP_CONTAINS', msg, str('a\\\\d')));
    expect(onlyWhere('~err(or)?')).toEqual(call('REGEXP_CONTAINS', msg, str('err(or)?')));
  });
  it('adds no output column and no join', () => {
    const q = lql('error ~x');
    expect(q.body.kind === 'select' && q.body.items).toHaveLength(3);
    expect(q.body.kind === 'select' && q.body.from?.kind).toBe('table');
  });
});

describe('field filters', () => {
  it('`:` is equality, typed by the value', () => {
    expect(onlyWhere('m.request.path:/rest/v1')).toEqual(bin('=', path, str('/rest/v1')));
    expect(onlyWhere('m.response.status_code:200')).toEqual(bin('=', id('f_metadata_response', 'status_code'), int(200)));
    expect(onlyWhere('m.ratio:0.5')).toEqual(bin('=', id('f_metadata', 'ratio'), float(0.5)));
    expect(onlyWhere('m.delta:-3')).toEqual(bin('=', id('f_metadata', 'delta'), int(-3)));
    expect(onlyWhere('m.ok:true')).toEqual(bin('=', id('f_metadata', 'ok'), bool(true)));
    expect(onlyWhere('m.ok:FALSE')).toEqual(bin('=', id('f_metadata', 'ok'), bool(false)));
  });
  it('quoted values are always strings', () => {
    expect(onlyWhere('m.code:"200"')).toEqual(bin('=', id('f_metadata', 'code'), str('200')));
    expect(onlyWhere('m.msg:"a b"')).toEqual(bin('=', id('f_metadata', 'msg'), str('a b')));
    expect(onlyWhere('m.flag:"true"')).toEqual(bin('=', id('f_metadata', 'flag'), str('true')));
  });
  it('bare words that only look like numbers or keywords stay strings', () => {
    expect(onlyWhere('m.ip:10.0.0.1')).toEqual(bin('=', id('f_metadata', 'ip'), str('10.0.0.1')));
    expect(onlyWhere('m.v:200abc')).toEqual(bin('=', id('f_metadata', 'v'), str('200abc')));
    expect(onlyWhere('m.v:nullable')).toEqual(bin('=', id('f_metadata', 'v'), str('nullable')));
    expect(onlyWhere('m.url:https://x.io/a?b=c:d')).toEqual(bin('=', id('f_metadata', 'url'), str('https://x.io/a?b=c:d')));
  });
  it('big integers keep their digits', () => {
    expect(onlyWhere('m.n:123456789012345678901')).toEqual(bin('=', id('f_metadata', 'n'), { kind: 'literal', type: 'int', value: '123456789012345678901' }));
  });
  it('NULL is IS NULL, in any case', () => {
    expect(onlyWhere('m.user:NULL')).toEqual({ kind: 'is', operand: id('f_metadata', 'user'), not: false, value: 'NULL' });
    expect(onlyWhere('m.user:null')).toEqual({ kind: 'is', operand: id('f_metadata', 'user'), not: false, value: 'NULL' });
  });
  it('comparison operators', () => {
    const code = id('f_metadata_response', 'status_code');
    expect(onlyWhere('m.response.status_code:>499')).toEqual(bin('>', code, int(499)));
    expect(onlyWhere('m.response.status_code:>=500')).toEqual(bin('>=', code, int(500)));
    expect(onlyWhere('m.response.status_code:<300')).toEqual(bin('<', code, int(300)));
    expect(onlyWhere('m.response.status_code:<=299')).toEqual(bin('<=', code, int(299)));
    expect(onlyWhere('m.name:>b')).toEqual(bin('>', id('f_metadata', 'name'), str('b')));
  });
  it('`:~` is REGEXP_CONTAINS on the field, a quoted operand unescaped as a quoted value', () => {
    expect(onlyWhere('m.request.path:~"\\\\.json$"')).toEqual(call('REGEXP_CONTAINS', path, str('\\.json$')));
    expect(onlyWhere('m.request.path:~^/rest')).toEqual(call('REGEXP_CONTAINS', path, str('^/rest')));
    expect(onlyWhere('m.request.path:~"\\d+ \\"q\\""')).toEqual(call('REGEXP_CONTAINS', path, str('\\d+ "q"')));
    expect(onlyWhere('m.code:~200')).toEqual(call('REGEXP_CONTAINS', id('f_metadata', 'code'), str('200')));
  });
  it('ranges are inclusive BETWEEN', () => {
    expect(onlyWhere('m.response.status_code:400..499')).toEqual({
      kind: 'between', operand: id('f_metadata_response', 'status_code'), not: false, low: int(400), high: int(499),
    });
    expect(onlyWhere('m.name:a..f')).toEqual({ kind: 'between', operand: id('f_metadata', 'name'), not: false, low: str('a'), high: str('f') });
    expect(onlyWhere('m.x:1.5..2.5')).toEqual({ kind: 'between', operand: id('f_metadata', 'x'), not: false, low: float(1.5), high: float(2.5) });
  });
  it('a top-level column compares directly, qualified by the CTE alias', () => {
    expect(onlyWhere('project:abc')).toEqual(bin('=', id('t', 'project'), str('abc')));
    expect(onlyWhere('event_message:exact')).toEqual(bin('=', id('t', 'event_message'), str('exact')));
  });
  it('column names resolve case-insensitively to the CTE spelling', () => {
    expect(onlyWhere('PROJECT:abc')).toEqual(bin('=', id('t', 'project'), str('abc')));
  });
  it('`m.` and `metadata.` are the same path', () => {
    expect(onlyWhere('metadata.request.path:/x')).toEqual(onlyWhere('m.request.path:/x'));
  });
});

describe('timestamp terms', () => {
  const t = id('t', 'timestamp');
  it('comparisons against a TIMESTAMP literal', () => {
    expect(onlyWhere('t:>2024-01-01T00:00:00Z')).toEqual(bin('>', t, ts('2024-01-01T00:00:00Z')));
    expect(onlyWhere('t:>=2024-01-01T00:00:00.123456Z')).toEqual(bin('>=', t, ts('2024-01-01T00:00:00.123456Z')));
    expect(onlyWhere('t:<2024-01-01')).toEqual(bin('<', t, ts('2024-01-01')));
    expect(onlyWhere('timestamp:<=2024-01-01T05:00:00+02:00')).toEqual(bin('<=', t, ts('2024-01-01T05:00:00+02:00')));
    expect(onlyWhere('t:2024-01-01T00:00:00Z')).toEqual(bin('=', t, ts('2024-01-01T00:00:00Z')));
    expect(onlyWhere('t:>"2024-01-01 00:00:00"')).toEqual(bin('>', t, ts('2024-01-01 00:00:00')));
  });
  it('ranges are BETWEEN two timestamps', () => {
    expect(onlyWhere('t:2024-01-01..2024-01-02T12:00:00Z')).toEqual({
      kind: 'between', operand: t, not: false, low: ts('2024-01-01'), high: ts('2024-01-02T12:00:00Z'),
    });
  });
  it('t:last@N unit is a window ending now', () => {
    const since = (n: number, unit: string): Expr =>
      bin('>=', t, call('TIMESTAMP_SUB', call('CURRENT_TIMESTAMP'), { kind: 'interval', value: int(n), unit }));
    expect(onlyWhere('t:last@15minutes')).toEqual(since(15, 'MINUTE'));
    expect(onlyWhere('t:last@1minute')).toEqual(since(1, 'MINUTE'));
    expect(onlyWhere('t:last@2hours')).toEqual(since(2, 'HOUR'));
    expect(onlyWhere('t:last@1hour')).toEqual(since(1, 'HOUR'));
    expect(onlyWhere('t:last@7days')).toEqual(since(7, 'DAY'));
    expect(onlyWhere('timestamp:last@1day')).toEqual(since(1, 'DAY'));
  });
  it('adds no output column and no join', () => {
    expect(lql('t:last@1day').body).toMatchObject({ from: { kind: 'table' }, items: { length: 3 } });
  });
});

describe('negation', () => {
  it('`-` wraps a filter term in NOT, keeping rows where the column it reads is NULL (see negation-nulls)', () => {
    const msg = id('t', 'event_message');
    const orNot = (x: Expr, pred: Expr): Expr => ({ kind: 'binary', op: 'OR', left: { kind: 'is', operand: x, not: false, value: 'NULL' }, right: not(pred) });
    expect(onlyWhere('-error')).toEqual(orNot(msg, bin('>', call('STRPOS', msg, str('error')), int(0))));
    expect(onlyWhere('-"a b"')).toEqual(orNot(msg, bin('>', call('STRPOS', msg, str('a b')), int(0))));
    expect(onlyWhere('-~x')).toEqual(orNot(msg, call('REGEXP_CONTAINS', msg, str('x'))));
    expect(onlyWhere('-m.request.path:/rest')).toEqual(orNot(path, bin('=', path, str('/rest'))));
    expect(onlyWhere('-m.user:NULL')).toEqual(not({ kind: 'is', operand: id('f_metadata', 'user'), not: false, value: 'NULL' }));
    expect(onlyWhere('-m.code:400..499')).toMatchObject({ kind: 'binary', op: 'OR', right: { kind: 'unary', op: 'NOT', operand: { kind: 'between' } } });
    expect(onlyWhere('-t:last@1hour')).toMatchObject({ kind: 'unary', op: 'NOT', operand: { kind: 'binary', op: '>=' } });
    expect(onlyWhere('-t:>2024-01-01')).toEqual(not(bin('>', id('t', 'timestamp'), ts('2024-01-01'))));
  });
  it('a dash inside a word is not negation', () => {
    expect(onlyWhere('a-b')).toEqual(bin('>', call('STRPOS', id('t', 'event_message'), str('a-b')), int(0)));
  });
});

describe('combinations', () => {
  it('terms are AND-ed in order, whatever the whitespace', () => {
    const q = lql('  error \t -m.request.path:/rest\n t:last@1hour   "x y" ');
    const c = conjuncts(q);
    expect(c).toHaveLength(4);
    expect(c[0]).toEqual(bin('>', call('STRPOS', msg, str('error')), int(0)));
    expect(c[1]).toEqual({ kind: 'binary', op: 'OR', left: { kind: 'is', operand: path, not: false, value: 'NULL' }, right: not(bin('=', path, str('/rest'))) });
    expect(c[2]).toMatchObject({ kind: 'binary', op: '>=' });
    expect(c[3]).toEqual(bin('>', call('STRPOS', msg, str('x y')), int(0)));
    // left-deep AND chain
    expect(q.body).toMatchObject({ where: { kind: 'binary', op: 'AND', left: { kind: 'binary', op: 'AND' } } });
  });
  it('adjacent quoted phrases are separate terms', () => {
    expect(conjuncts(lql('"a""b"'))).toHaveLength(2);
  });
  it('an empty query has no WHERE', () => {
    expect(lql('').body).not.toHaveProperty('where');
    expect(lql('   ').body).not.toHaveProperty('where');
  });
});
