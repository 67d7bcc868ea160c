// Syntax errors and input limits: every failure is a RingqlError with the right code, line and
// column, and a short message naming what was expected and what was found.

import { describe, expect, it } from 'vitest';
import { RingqlError } from '../../src/core/errors.ts';
import { parseQuery, parseSql } from '../../src/sql/parse.ts';

function failure(sql: string, opts?: { maxLength?: number; maxDepth?: number }): RingqlError {
  try {
    parseSql(sql, opts);
  } catch (e) {
    if (e instanceof RingqlError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(sql)} to fail`);
}

const where = (e: RingqlError): [unknown, unknown] => [e.details.line, e.details.column];

describe('syntax errors', () => {
  it('a misspelt FROM is blamed, with the clause words that could follow', () => {
    const e = failure('select a,\n  b\nFORM t');
    expect(e.code).toBe('syntax_error');
    expect(where(e)).toEqual([3, 1]);
    expect(e.message).toBe('Syntax error at line 3, column 1: expected FROM, WHERE, GROUP BY, HAVING, QUALIFY, ORDER BY, LIMIT, UNION, ... but found "FORM"');
  });

  it('a missing keyword names it', () => {
    const e = failure('select a\nfrom t\nwhere a = 1\ngroup a');
    expect(where(e)).toEqual([4, 7]);
    expect(e.message).toMatch(/expected BY but found "a"$/);
  });

  it('end of input is positioned just after the last token', () => {
    const e = failure('select a\nfrom t\nwhere x =');
    expect(where(e)).toEqual([3, 10]);
    expect(e.message).toMatch(/expected an expression but found end of input/);
  });

  it('an unclosed parenthesis', () => {
    const e = failure('select count(*\nfrom t');
    expect(where(e)).toEqual([2, 1]);
    expect(e.message).toMatch(/expected '\)' but found "from"/);
  });

  it('junk after a complete query lists the possible continuations', () => {
    const e = failure('select a from t u v');
    expect(where(e)).toEqual([1, 19]);
    expect(e.message).toMatch(/expected WHERE, GROUP BY, .* but found "v"/);
  });

  it('messages stay short', () => {
    for (const sql of ['select', 'select a from', 'select * from t where', 'select (', 'select a from t order by a,', 'with x as (select 1)']) {
      const e = failure(sql);
      expect(e.code).toBe('syntax_error');
      expect(e.message.length).toBeLessThan(200);
      expect(e.message).toMatch(/^Syntax error at line \d+, column \d+: /);
    }
  });

  it('UNION needs ALL or DISTINCT', () => {
    expect(failure('select 1 union select 2').message).toMatch(/expected DISTINCT, ALL but found "select"/);
  });

  it('a statement must start like a query', () => {
    const e = failure('selec a from t');
    expect(where(e)).toEqual([1, 1]);
    expect(e.message).toMatch(/expected SELECT, WITH, '\(' but found "selec"/);
  });

  it('window functions are refused by name', () => {
    const e = failure('select row_number() over (order by a) from t');
    expect(where(e)).toEqual([1, 21]);
    expect(e.message).toMatch(/OVER/);
  });

  it('soft words are checked where they matter', () => {
    expect(failure('select * from unnest(x) with ofset').message).toMatch(/expected OFFSET but found "ofset"/);
    expect(failure('select a from t order by a nulls middle').message).toMatch(/expected FIRST or LAST/);
  });

  it('invalid escapes are positioned at the literal', () => {
    const e = failure("select\n  'a\\qb'");
    expect(where(e)).toEqual([2, 3]);
    expect(e.message).toMatch(/invalid escape sequence/);
  });
});

describe('lexer errors', () => {
  it('unterminated string', () => {
    const e = failure("select\n  a,\n  'abc\nfrom t");
    expect(e.code).toBe('syntax_error');
    expect(where(e)).toEqual([3, 3]);
    expect(e.message).toMatch(/unterminated string/);
  });
  it('unterminated double-quoted and triple-quoted strings', () => {
    expect(where(failure('select "abc'))).toEqual([1, 8]);
    expect(where(failure("select 1, '''abc"))).toEqual([1, 11]);
  });
  it('unterminated backtick name', () => {
    const e = failure('select a\nfrom `edge.logs.prod');
    expect(where(e)).toEqual([2, 6]);
    expect(e.message).toMatch(/unterminated quoted name/);
  });
  it('unterminated block comment', () => {
    expect(failure('select 1 /* no end').message).toMatch(/line 1, column 10: unterminated comment/);
  });
  it('unexpected character', () => {
    const e = failure('select a\nfrom t where a $ 1');
    expect(where(e)).toEqual([2, 16]);
    expect(e.message).toMatch(/unexpected character "\$"/);
  });
});

describe('limits', () => {
  it('length', () => {
    const e = failure(`select ${'1'.repeat(200)}`, { maxLength: 100 });
    expect(e.code).toBe('value_too_large');
    expect(e.message).toMatch(/limit is 100\b/);
    expect(failure('x'.repeat(100_001)).code).toBe('value_too_large');
    expect(() => parseSql(`select 1 ${' '.repeat(99_000)}`)).not.toThrow();
  });

  it('nesting depth of parentheses, with the position of the first level too deep', () => {
    const e = failure(`select ${'('.repeat(65)}1${')'.repeat(65)}`);
    expect(e.code).toBe('value_too_large');
    expect(where(e)).toEqual([1, 8 + 64]);
    expect(e.message).toMatch(/limit of 64/);
    expect(() => parseSql(`select ${'('.repeat(64)}1${')'.repeat(64)}`)).not.toThrow();
    expect(failure(`select ${'('.repeat(11)}1${')'.repeat(11)}`, { maxDepth: 10 }).code).toBe('value_too_large');
  });

  it('100 000 nested parentheses give the clean error, not a stack overflow', () => {
    const e = failure('('.repeat(100_000), { maxLength: 1_000_000 });
    expect(e.code).toBe('value_too_large');
    expect(where(e)).toEqual([1, 65]);
    expect(failure(`select ${'[' .repeat(100_000)}`, { maxLength: 1_000_000 }).code).toBe('value_too_large');
    expect(failure(`select ${'case when a then '.repeat(10_000)}`, { maxLength: 1_000_000 }).code).toBe('value_too_large');
  });

  it('prefix operator chains count as nesting', () => {
    expect(failure(`select ${'not '.repeat(100_000)}a`, { maxLength: 1_000_000 }).code).toBe('value_too_large');
    expect(failure(`select ${'- '.repeat(100_000)}a`, { maxLength: 1_000_000 }).code).toBe('value_too_large');
    expect(failure(`select ${'-('.repeat(40)}a${')'.repeat(40)}`).code).toBe('value_too_large');
    // Binary minus and many separate NOTs are not nesting.
    expect(() => parseSql(`select ${Array(200).fill('a').join(' - ')}`)).not.toThrow();
    expect(() => parseSql(`select a from t where ${Array(100).fill('not a').join(' and ')}`)).not.toThrow();
  });

  it('nested subqueries up to the limit still parse', () => {
    let sql = 'select 1';
    for (let i = 0; i < 60; i++) sql = `select * from (${sql})`;
    expect(() => parseSql(sql)).not.toThrow();
    let scalar = '1';
    for (let i = 0; i < 60; i++) scalar = `(select ${scalar})`;
    expect(() => parseSql(`select ${scalar}`)).not.toThrow();
  });

  it('very long operator chains are bounded too', () => {
    const e = failure(`select ${Array(30_000).fill('1').join('+')}`);
    expect(e.code).toBe('value_too_large');
    expect(() => parseSql(`select ${Array(500).fill('1').join('+')}`)).not.toThrow();
  });
});

describe('statements', () => {
  it('splits on ; and names other statement kinds', () => {
    const stmts = parseSql('select 1;\n  delete from t where true;\ncreate table x (a int64);\nselect 2;');
    expect(stmts.map((s) => s.kind === 'other' ? s.verb : 'query')).toEqual(['query', 'DELETE', 'CREATE', 'query']);
    expect(stmts[1]!.pos).toEqual({ line: 2, column: 3 });
  });
  it('a trailing ; or comment gives no extra statement', () => {
    expect(parseSql('select 1;')).toHaveLength(1);
    expect(parseSql('select 1; -- done\n')).toHaveLength(1);
    expect(parseSql('-- nothing')).toHaveLength(0);
  });
  it('a ; inside parentheses does not split', () => {
    expect(failure('select (1; 2)').message).toMatch(/expected '\)' but found ";"/);
  });
  it('parseQuery wants exactly one query', () => {
    expect(() => parseQuery('select 1; select 2')).toThrow(/exactly one query/);
    expect(() => parseQuery('drop table x')).toThrow(/found a DROP statement/);
    expect(parseQuery('select 1;').kind).toBe('query');
  });
  it('positions are 1-based on names, calls, params, tables, CTEs, items and the query', () => {
    const q = parseQuery('with c as (select 1)\nselect  f(@p) as x, t.a\nfrom  `edge.logs.prod` as t');
    expect(q.pos).toEqual({ line: 1, column: 1 });
    expect(q.with![0]!.pos).toEqual({ line: 1, column: 6 });
    const body = q.body.kind === 'select' ? q.body : undefined;
    expect(body!.items[0]!.pos).toEqual({ line: 2, column: 9 });
    const call = body!.items[0]!.kind === 'expr' ? body!.items[0]!.expr : undefined;
    expect(call!.pos).toEqual({ line: 2, column: 9 });
    expect(call!.kind === 'call' && call!.args[0]!.pos).toEqual({ line: 2, column: 11 });
    const item2 = body!.items[1]!;
    expect(item2.kind === 'expr' && item2.expr.pos).toEqual({ line: 2, column: 21 });
    expect(body!.from!.pos).toEqual({ line: 3, column: 7 });
  });
});

describe('hints', () => {
  it('an unquoted dashed name is told to use backticks', () => {
    const e = failure('select * from function-relay-logs');
    expect(where(e)).toEqual([1, 23]);
    expect(e.message).toMatch(/needs backticks: `function-relay-logs`\)$/);
  });
});
