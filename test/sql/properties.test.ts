// Properties: generated ASTs survive print → parse unchanged, and arbitrary text either parses or
// fails with a positioned RingqlError (never another exception).

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RingqlError } from '../../src/core/errors.ts';
import type { Expr, Query } from '../../src/sql/ast.ts';
import { parseQuery, parseSql } from '../../src/sql/parse.ts';
import { printSql } from '../../src/sql/print.ts';
import { exprArbitrary, queryArbitrary } from './ast-arbitrary.ts';
import { stripPos } from './helpers.ts';

function reparseExpr(e: Expr): Expr {
  const q = parseQuery(`SELECT ${printSql(e)}`);
  if (q.body.kind !== 'select' || q.body.items[0]?.kind !== 'expr') throw new Error('expected one select item');
  return q.body.items[0].expr;
}

describe('SQL printer properties', () => {
  it('expressions: parse(print(e)) = e', () => {
    fc.assert(
      fc.property(exprArbitrary(4), (e) => {
        expect(stripPos(reparseExpr(e)), printSql(e)).toEqual(stripPos(e));
      }),
      { numRuns: 1500 },
    );
  });

  it('queries: parse(print(q)) = q', () => {
    fc.assert(
      fc.property(queryArbitrary(2), (q: Query) => {
        const text = printSql(q);
        expect(stripPos(parseQuery(text)), text).toEqual(stripPos(q));
      }),
      { numRuns: 400 },
    );
  });

  it('arbitrary text parses or fails with a RingqlError inside its bounds', () => {
    const chars = fc.constantFrom(...`selct fromwhe()[],.*+-/'"\`@<>=!|&^~;#\n 01aS`.split(''));
    fc.assert(
      fc.property(fc.string({ unit: chars, maxLength: 60 }), (text) => {
        try {
          parseSql(text);
        } catch (e) {
          expect(e).toBeInstanceOf(RingqlError);
          const err = e as RingqlError;
          expect(['syntax_error', 'value_too_large']).toContain(err.code);
          expect(err.details['line']).toBeGreaterThanOrEqual(1);
          expect(err.details['column']).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
