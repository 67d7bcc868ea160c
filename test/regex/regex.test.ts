// RE2-backed regular expressions with BigQuery semantics: results, errors, literal fast paths, linear time.

import { describe, expect, it } from 'vitest';
import { compileRegex, literalShape } from '../../src/core/regex.ts';
import { RingqlError } from '../../src/core/errors.ts';

describe('compileRegex', () => {
  it('uses RE2 syntax: (?i) works, lookarounds and backreferences are invalid', () => {
    expect(compileRegex('(?i)GET').test('a get b')).toBe(true);
    for (const bad of ['(?=a)', '(a)\\1', '(a', 'a**', '[z-a]']) {
      let err: unknown;
      try { compileRegex(bad); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(RingqlError);
      expect((err as RingqlError).code).toBe('query_error');
      expect((err as RingqlError).message).toContain(bad);
    }
  });

  it('anchors $ at the very end of the text, as RE2 does', () => {
    expect(compileRegex('^a$').test('a\n')).toBe(false);
    expect(compileRegex('a$').test('ba')).toBe(true);
  });

  it('takes literal fast paths only where the result is the same', () => {
    expect(literalShape('project-ref')).toEqual({ text: 'project-ref', kind: 'includes' });
    expect(literalShape('^/rest/v1')).toEqual({ text: '/rest/v1', kind: 'startsWith' });
    expect(literalShape('a\\.b$')).toEqual({ text: 'a.b', kind: 'endsWith' });
    expect(literalShape('^x$')).toEqual({ text: 'x', kind: 'equals' });
    expect(literalShape('a.b')).toBeNull();
    expect(literalShape('\\d')).toBeNull();
    expect(literalShape('a\\$')).toEqual({ text: 'a$', kind: 'includes' });
    const subjects = ['', 'a.b', 'xa.bx', 'axb', 'a$', '/rest/v1/x', 'x/rest/v1', 'x'];
    for (const p of ['a\\.b', '^/rest/v1', 'a\\$', '^x$', 'x$', '', '^']) {
      const fast = compileRegex(p);
      const slow = compileRegex(`(?:${p})`);
      expect(slow.strategy).toBe('re2');
      for (const s of subjects) {
        expect(fast.test(s)).toBe(slow.test(s));
        expect(fast.extractAll(s)).toEqual(slow.extractAll(s));
        expect(fast.replace(s, '<\\0>')).toBe(slow.replace(s, '<\\0>'));
        expect(fast.extract(s)).toBe(slow.extract(s));
      }
    }
  });
});

describe('BigQuery function semantics', () => {
  it('REGEXP_EXTRACT returns the group or the whole match, NULL when none', () => {
    expect(compileRegex('/rest/v1/(\\w+)').extract('/rest/v1/users?x=1')).toBe('users');
    expect(compileRegex('\\d+').extract('ab 12 34')).toBe('12');
    expect(compileRegex('\\d+').extract('ab')).toBeNull();
    expect(compileRegex('\\d+').extract('1 22 333', 1, 3)).toBe('333');
    expect(compileRegex('\\d+').extract('1 22 333', 3)).toBe('22');
    expect(() => compileRegex('(a)(b)').extract('ab')).toThrow(/more than 1 capturing group/);
  });

  it('REGEXP_EXTRACT_ALL returns non-overlapping matches and steps over empty ones', () => {
    expect(compileRegex('a(\\d)').extractAll('a1 a2 b3 a4')).toEqual(['1', '2', '4']);
    expect(compileRegex('x*').extractAll('axb')).toEqual(['', 'x', '', '']);
    expect(compileRegex('o').extractAll('😀fo😀o')).toEqual(['o', 'o']);
  });

  it('REGEXP_REPLACE expands \\N groups and \\\\, and rejects bad escapes', () => {
    expect(compileRegex('(\\w+)@(\\w+)').replace('me@host, you@there', '\\2 at \\1')).toBe('host at me, there at you');
    expect(compileRegex('').replace('abc', '-')).toBe('-a-b-c-');
    expect(compileRegex('b').replace('abc', '\\\\')).toBe('a\\c');
    expect(() => compileRegex('b').replace('abc', '\\1')).toThrow(/group \\1/);
    expect(() => compileRegex('b').replace('abc', '\\q')).toThrow(/invalid escape/);
  });

  it('matches catastrophic-backtracking patterns in linear time', () => {
    const s = 'a'.repeat(100_000) + '!';
    const t0 = performance.now();
    expect(compileRegex('(a+)+$').test(s)).toBe(false);
    expect(compileRegex('(a|aa)*b').test(s)).toBe(false);
    expect(compileRegex('(.*a){20}').test(s)).toBe(true);
    // Generous bound: a backtracking engine would not finish these in hours.
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});
