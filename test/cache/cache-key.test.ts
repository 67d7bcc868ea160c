// The cache key tells every distinct request apart, even when values contain the characters the key
// is built from, and gives one key to requests that differ only in undeclared parameters.

import { describe, expect, it } from 'vitest';
import { cacheKey, cacheKeyOnce } from '../../src/cache/cache-key.ts';
import type { ResolvedRequest } from '../../src/endpoints/execute.ts';

const LIMITS = { maxQueryLength: 100_000, maxQueryDepth: 64 };
const req = (values: [string, string | null][], consumer: ResolvedRequest['consumer'] = null): ResolvedRequest =>
  ({ values: new Map(values), consumer, limits: LIMITS });

describe('cacheKey', () => {
  it('is injective over values, consumer queries, endpoints and the redaction flag', () => {
    const requests: [string, ResolvedRequest, boolean][] = [
      ['e1', req([['a', 'x'], ['b', 'y']]), false],
      ['e1', req([['a', 'x'], ['b', 'y']]), true],
      ['e2', req([['a', 'x'], ['b', 'y']]), false],
      ['e1', req([['a', 'x;1:b=y'], ['b', null]]), false],
      ['e1', req([['a', 'x'], ['b', null]]), false],
      ['e1', req([['a', 'x'], ['b', '~']]), false],
      ['e1', req([['a', 'x'], ['b', '']]), false],
      ['e1', req([['a', '1:x'], ['b', 'y']]), false],
      ['e1', req([['a', 'x'], ['b', 'y']], { kind: 'sql', text: 'select 1' }), false],
      ['e1', req([['a', 'x'], ['b', 'y']], { kind: 'lql', text: 'select 1' }), false],
      ['e1', req([['a', 'x'], ['b', 'ysql:8:select 1']]), false],
      ['e1\n-', req([['a', 'x'], ['b', 'y']]), false],
    ];
    const keys = requests.map(([id, r, red]) => cacheKey(id, r, red));
    expect(new Set(keys).size).toBe(requests.length);
  });

  it('is the same for the same request', () => {
    expect(cacheKey('e', req([['p', 'v']], { kind: 'sql', text: 's' }), true))
      .toBe(cacheKey('e', req([['p', 'v']], { kind: 'sql', text: 's' }), true));
  });
});

describe('cacheKeyOnce', () => {
  it('gives cacheKey\'s key for each redaction flag and endpoint, however often asked for one request object', () => {
    const r = req([['p', 'v'], ['q', null]], { kind: 'lql', text: 'x' });
    for (let i = 0; i < 3; i++) {
      expect(cacheKeyOnce('e', r, false)).toBe(cacheKey('e', r, false));
      expect(cacheKeyOnce('e', r, true)).toBe(cacheKey('e', r, true));
    }
    // The same resolved object asked for under another endpoint id gets that endpoint's key, not the memo's.
    expect(cacheKeyOnce('other', r, false)).toBe(cacheKey('other', r, false));
    expect(cacheKeyOnce('e', r, true)).toBe(cacheKey('e', r, true));
  });
});
