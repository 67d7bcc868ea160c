// ScanRow.head reads id / event_message from the stored text without parsing the event; it must agree
// with the full parse for every string JSON can hold.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ScanRow } from '../../src/exec/scan-row.ts';

/** A row as the open segment keeps it: text. */
const rowOf = (json: string): ScanRow => new ScanRow({ json: () => json, extra: () => null, jsonBytes: () => json }, 0, 0, null);

const stored = (id: string, msg: string | null): string =>
  JSON.stringify({ id, timestamp: 1736899200000000, event_message: msg, metadata: [{ note: ',"event_message":"fake"' }] });

describe('ScanRow.head', () => {
  it('agrees with JSON.parse on awkward strings', () => {
    const cases: [string, string | null][] = [
      ['plain', 'hello'], ['quo"te', 'back\\slash'], ['\u00e9\u4e2d\ud83d\ude00', 'line\nbreak\ttab'],
      ['', null], [',"event_message":"x"', '"'], ['\\', '\\"'], ['\u2028', '\u0000'],
    ];
    for (const [id, msg] of cases) {
      const row = rowOf(stored(id, msg));
      expect(row.head('id')).toBe(id);
      expect(row.head('event_message')).toBe(msg);
      expect(row.parsed).toBeUndefined();
    }
  });

  it('agrees with JSON.parse on random strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.option(fc.string({ unit: 'binary' })), (id, msg) => {
      const json = stored(id, msg);
      const parsed = JSON.parse(json) as { id: string; event_message: string | null };
      expect(rowOf(json).head('id')).toBe(parsed.id);
      expect(rowOf(json).head('event_message')).toBe(parsed.event_message);
    }), { numRuns: 500, seed: 11 });
  });
});
