// s: forms of the reference: `s:*` means the default columns, `s:path@alias` names the output column,
// a blank `@` is a syntax error.

import { describe, expect, it } from 'vitest';
import { errorOf, lql } from './helpers.ts';
import { lqlRows, lqlSql } from './store-rows.ts';

const EVENTS = [{ id: 'e1', timestamp: Date.UTC(2025, 0, 15, 11) * 1000, event_message: 'hello', metadata: { request: { path: '/a' } } }];

describe('s: forms', () => {
  it('s:path@alias names the column', () => {
    expect(lqlRows('s:m.request.path@p s:id', EVENTS)).toEqual([{ p: '/a', id: 'e1' }]);
    expect(lqlSql('s:m.request.path@p')).toMatch(/^SELECT f_metadata_request\.path AS p FROM/);
  });

  it('s:* anywhere means the default columns, as the sandboxed LQL of the reference (no s: at all)', () => {
    expect(lql('s:* s:id m.request.path:/a')).toEqual(lql('m.request.path:/a'));
    expect(Object.keys(lqlRows('select:*', EVENTS)[0]!)).toEqual(['id', 'timestamp', 'event_message']);
  });

  it('a blank alias is a syntax error', () => {
    expect(errorOf(() => lql('s:m.request.path@')).code).toBe('syntax_error');
  });
});
