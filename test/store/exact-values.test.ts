// Exact values at ingest: epoch digits read back from the raw JSON (nested and duplicate `timestamp`
// keys, strings that look like keys), the timestamp range edge, and `__proto__` keys kept as data.

import { describe, expect, it } from 'vitest';
import { EpochDigits, formatDatetime, parseTimestamp, timestampJson } from '../../src/core/time.ts';
import { MAX_TIMESTAMP_US } from '../../src/core/time-units.ts';
import { formatTimestampPattern } from '../../src/core/format-timestamp.ts';
import { truncTimestamp } from '../../src/core/time-arithmetic.ts';
import { restoreExactEpochs, scanEpochTokens } from '../../src/store/exact-epochs.ts';
import { normalizeEvent } from '../../src/store/event.ts';
import { sourceByNameOrId } from '../../src/store/sources.ts';

const edge = sourceByNameOrId('edge.logs.prod')!;
const OPTS = { maxEventDepth: 8, maxStringBytes: 1 << 20, nowUs: 0, schema: null, hotPaths: [] };

function exact(text: string, single = false): unknown[] {
  const v = JSON.parse(text) as unknown;
  const events = single ? [v] : Array.isArray(v) ? v : (v as { batch: unknown[] }).batch;
  restoreExactEpochs(events, text, single);
  return events;
}

describe('exact epoch digits', () => {
  it('takes each event\'s own last top-level timestamp token, not nested or string look-alikes', () => {
    const text = '[{"metadata":{"timestamp":1700000000999999999},"s":"\\"timestamp\\":1700000000111111111","timestamp":1700000000123456789},' +
      '{"timestamp":5,"timestamp":1700000000222222229},{"timestamp":"2024-01-01"},{"timestamp":1700000000333333339}]';
    const ev = exact(text) as { timestamp: unknown; metadata?: { timestamp: unknown } }[];
    expect(ev.map((e) => (e.timestamp instanceof EpochDigits ? e.timestamp.digits : e.timestamp))).toEqual([
      '1700000000123456789', '1700000000222222229', '2024-01-01', '1700000000333333339',
    ]);
    expect(ev[0]!.metadata!.timestamp).toBe(1700000000999999999);
    expect(scanEpochTokens('{"batch":[{"timestamp":1},{"x":[{"timestamp":2}],"timestamp":3}]}').elements).toEqual(new Map([[0, '1'], [1, '3']]));
  });

  it('a batch body and a single object', () => {
    expect((exact('{"batch":[{"timestamp":1700000000123456789}]}')[0] as { timestamp: EpochDigits }).timestamp.digits).toBe('1700000000123456789');
    expect((exact(' {"timestamp" : -1700000000123456789 } ', true)[0] as { timestamp: EpochDigits }).timestamp.digits).toBe('-1700000000123456789');
  });

  it('parses digits exactly with the same scaling as numbers, floored to µs', () => {
    expect(parseTimestamp(new EpochDigits('1700000000123456789'))).toBe(1700000000123456);
    expect(parseTimestamp(1700000000123456789)).toBe(1700000000123456); // the double rounds down to ...768
    expect(parseTimestamp(new EpochDigits('1700000000123456999'))).toBe(1700000000123456);
    expect(parseTimestamp(new EpochDigits('-1700000000123456001'))).toBe(-1700000000123457);
    expect(parseTimestamp(new EpochDigits('1700000000'))).toBe(1700000000_000000);
    expect(parseTimestamp(new EpochDigits('1700000000123'))).toBe(1700000000123_000);
    expect(parseTimestamp(new EpochDigits('1700000000123456'))).toBe(1700000000123456);
    expect(parseTimestamp(new EpochDigits('0'))).toBe(0);
    expect(parseTimestamp(new EpochDigits('12345678901234567890'))).toBeNull();
  });

  it('without exact digits a 19-digit value can land on the wrong microsecond (the bug this fixes)', () => {
    // 1700000000123456896 is the double 1700000000123457000: floored to µs it would read ...457.
    const lossy = normalizeEvent(JSON.parse('{"timestamp":1700000000123456896}'), edge, OPTS);
    const kept = normalizeEvent(exact('{"timestamp":1700000000123456896}', true)[0], edge, OPTS);
    expect(typeof lossy !== 'string' && lossy.ts).toBe(1700000000123457);
    expect(typeof kept !== 'string' && kept.ts).toBe(1700000000123456);
  });
});

describe('the largest timestamp', () => {
  it('formats, truncates and serialises as 9999-12-31 23:59:59.999999', () => {
    const max = parseTimestamp('9999-12-31T23:59:59.999999Z')!;
    expect(max).toBe(MAX_TIMESTAMP_US);
    expect(formatDatetime(max)).toBe('9999-12-31T23:59:59.999999');
    expect(formatTimestampPattern('%Y-%m-%d %H:%M:%E6S %s', max)).toBe('9999-12-31 23:59:59.999999 253402300799');
    expect(formatDatetime(truncTimestamp(max, 'DAY'))).toBe('9999-12-31T00:00:00');
    expect(formatDatetime(truncTimestamp(max, 'YEAR'))).toBe('9999-01-01T00:00:00');
    expect(timestampJson(max)).toBe('253402300799999999');
    expect(timestampJson(1700000000123456)).toBe('1700000000123456');
    const ev = normalizeEvent({ id: 'x', timestamp: '9999-12-31T23:59:59.999999Z' }, edge, OPTS);
    expect(typeof ev !== 'string' && ev.json).toBe('{"id":"x","timestamp":253402300799999999,"event_message":null,"metadata":[]}');
    expect(parseTimestamp('9999-12-31T23:59:59.999999-00:01')).toBeNull();
    expect(parseTimestamp('0001-01-01T00:00:00Z')).toBe(-62_135_596_800_000_000);
  });
});

describe('keys named like Object.prototype members', () => {
  it('are kept as data, top level and nested', () => {
    const ev = normalizeEvent(JSON.parse('{"id":"p","timestamp":1,"__proto__":{"a":1},"constructor":2,"metadata":{"__proto__":{"x":1},"toString":"t"}}'), edge, OPTS);
    if (typeof ev === 'string') throw new Error(ev);
    expect(ev.json).toBe('{"id":"p","timestamp":1000000,"event_message":null,"metadata":[{"__proto__":[{"x":1}],"toString":"t"}]}');
    expect(ev.extra).toBe('{"__proto__":[{"a":1}],"constructor":2}');
  });
});
