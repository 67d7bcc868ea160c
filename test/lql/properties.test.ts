// Properties: any text either compiles or fails with a RingqlError (syntax errors inside the text's
// bounds); generated well-formed terms compile to one conjunct each; phrases round-trip exactly.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileLql } from '../../src/lql/compile.ts';
import { RingqlError } from '../../src/core/errors.ts';
import type { Expr } from '../../src/sql/ast.ts';
import { conjuncts, ONE_CTE, select } from './helpers.ts';

const lqlChars = fc.constantFrom(...'abmtfsc.:-~"\\ ()*@<>=/019_ZT'.split(''));

describe('LQL properties', () => {
  it('arbitrary text compiles or fails with a positioned RingqlError', () => {
    fc.assert(
      fc.property(fc.string({ unit: lqlChars, maxLength: 40 }), (text) => {
        try {
          compileLql(text, ONE_CTE);
        } catch (e) {
          expect(e).toBeInstanceOf(RingqlError);
          const err = e as RingqlError;
          expect(['syntax_error', 'invalid_parameter', 'unknown_name']).toContain(err.code);
          if (err.code === 'syntax_error') {
            const column = err.details['column'] as number;
            expect(err.details['line']).toBe(1);
            expect(column).toBeGreaterThanOrEqual(1);
            expect(column).toBeLessThanOrEqual(text.length + 1);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  const word = fc.stringMatching(/^[a-z][a-z0-9_/.-]{0,8}$/).filter((w) => !/\.\.|:/.test(w));
  const filterTerm = fc.oneof(
    word.map((w) => `${w}`),
    fc.string({ maxLength: 10 }).map((s) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`),
    word.map((w) => `~${w}`),
    fc.tuple(fc.constantFrom('m.request.path', 'metadata.level', 'project', 'm.a.b.c'), fc.constantFrom(':', ':>', ':>=', ':<', ':<=', ':~'), fc.oneof(word, fc.integer().map(String)))
      .map(([p, op, v]) => `${p}${op}${v}`),
    fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 100, max: 999 })).map(([a, b]) => `m.code:${a}..${b}`),
    fc.constantFrom('t:last@5minutes', 't:>2024-01-01T00:00:00Z', 't:2024-01-01..2024-02-01', 'm.x:NULL', 'm.ok:true'),
  );
  it('well-formed filter terms compile to one conjunct each, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), filterTerm), { maxLength: 8 }), (terms) => {
        const text = terms.map(([neg, t]) => (neg ? `-${t}` : t)).join(' ');
        const q = compileLql(text, ONE_CTE);
        const c = conjuncts(q);
        expect(c).toHaveLength(terms.length);
        terms.forEach(([neg], i) => {
          // A negation is NOT (...), or `x IS NULL OR NOT (...)` when it reads a column that may be NULL.
          if (neg) expect(c[i]).toSatisfy((e: Expr) => (e.kind === 'unary' && e.op === 'NOT') || (e.kind === 'binary' && e.op === 'OR' && e.right.kind === 'unary' && e.right.op === 'NOT'));
        });
        expect(select(q).items.length).toBeGreaterThanOrEqual(3);
      }),
      { numRuns: 500 },
    );
  });

  it('a quoted phrase round-trips any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        const text = `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
        const [pred] = conjuncts(compileLql(text, ONE_CTE));
        expect(pred).toMatchObject({ kind: 'binary', left: { kind: 'call', name: 'STRPOS', args: [{}, { kind: 'literal', value: s }] } });
      }),
    );
  });
});
