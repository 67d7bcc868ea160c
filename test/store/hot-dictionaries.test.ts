// Hot dictionaries: ids as rows store them (0 = NULL, then first-seen order), a checkpoint's values
// restored as they were, and a checkpoint whose dictionaries do not match the hot columns refused by name.

import { describe, expect, it } from 'vitest';
import { HotDictionaries } from '../../src/store/hot-dictionaries.ts';
import { INEXACT_ID } from '../../src/store/hot-paths.ts';

describe('HotDictionaries', () => {
  it('gives NULL id 0 and new values the next ids, once each', () => {
    const d = new HotDictionaries([['request', 'method'], ['response', 'status_code']]);
    expect(d.id(0, null)).toBe(0);
    const get = d.id(0, 'GET');
    expect(get).toBeGreaterThan(INEXACT_ID);
    expect(d.id(0, 'POST')).toBe(get + 1);
    expect(d.id(0, 'GET')).toBe(get);
    expect(d.dict('request.method', 'edge_logs').get(get)).toBe('GET');
    expect(() => d.dict('request.path', 'edge_logs')).toThrow(/unknown hot key "request.path" of edge_logs/);
  });

  it('restores a checkpoint of the same columns and refuses one with another number of dictionaries', () => {
    const a = new HotDictionaries([['request', 'method']]);
    const get = a.id(0, 'GET');
    const b = new HotDictionaries([['request', 'method']]);
    b.restore(a.allValues(), 3);
    expect(b.id(0, 'GET')).toBe(get);
    expect(b.epoch).toBe(3);
    const c = new HotDictionaries([['request', 'method'], ['response', 'status_code']]);
    expect(() => c.restore(a.allValues(), 0)).toThrow(/holds 1 hot dictionaries for 2 hot columns/);
  });
});
