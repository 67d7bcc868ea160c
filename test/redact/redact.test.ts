// PII redaction (SPEC §6): which substrings are addresses, and that only string values of a JSON body change.

import { describe, expect, it } from 'vitest';
import { redactString, redactValue } from '../../src/redact/redact-string.ts';
import { redactJsonText } from '../../src/redact/redact-json.ts';

const redacted: [string, string][] = [
  ['User 10.0.0.1 connected', 'User REDACTED connected'],
  ['1.2.3.4:8080', 'REDACTED:8080'],
  ['nginx/1.2.3.4', 'nginx/REDACTED'],
  ['version 10.20.30.40 released', 'version REDACTED released'],
  ['x 0.0.0.0 y 255.255.255.255', 'x REDACTED y REDACTED'],
  ['1.2.3.4.5', 'REDACTED.5'],
  ['[2001:db8::1]', '[REDACTED]'],
  ['ip=::1,', 'ip=REDACTED,'],
  ['::ffff:192.168.0.1', 'REDACTED'],
  ['2001:0db8:85a3:0000:0000:8a2e:0370:7334', 'REDACTED'],
  ['FE80::1%eth0', 'REDACTED%eth0'],
  ['from:fe80::abcd:1', 'from:REDACTED'],
  ['connect to ::1.', 'connect to REDACTED.'],
  ['dead:beef::', 'REDACTED'],
  ['64:ff9b::10.1.2.3 and 10.9.8.7', 'REDACTED and REDACTED'],
  ['"x-forwarded-for": 203.0.113.9, 198.51.100.7', '"x-forwarded-for": REDACTED, REDACTED'],
];
const untouched = [
  '12192.168.1.11',
  '1.2.3.256',
  '999.1.1.1',
  'std::vector<int>',
  'Vec::new()',
  'aa:bb:cc:dd:ee:ff',
  '12:30:45',
  '2025-01-15T12:30:45.123Z',
  '550e8400-e29b-41d4-a716-446655440000',
  '1.2.3',
  'no address here',
  '::',
];

/** Every form SPEC §6 names, with the answer it gives. */
const spec6: [string, string][] = [
  ['User 10.0.0.1 connected', 'User REDACTED connected'],
  ['12192.168.1.11', '12192.168.1.11'],
  ['10.1.2.3:443', 'REDACTED:443'],
  ['curl/7.10.1.2 (x86_64)', 'curl/REDACTED (x86_64)'],
  ['[2001:db8::1]', '[REDACTED]'],
  ['ip=::1,', 'ip=REDACTED,'],
  ['Remote:fe80::1', 'Remote:REDACTED'],
  // A full address with a port and no brackets: the eight groups are the address.
  ['from 2001:0db8:85a3:0000:0000:8a2e:0370:7334:8080', 'from REDACTED:8080'],
  ['ff:ee:dd:cc:bb:aa:99:88:77 (a colon run of two-digit groups)', 'ff:ee:dd:cc:bb:aa:99:88:77 (a colon run of two-digit groups)'],
  ['source:2001:db8::1', 'source:REDACTED'],
  ['x_fe80::1', 'x_REDACTED'],
  ['a.2001:db8::1', 'a.REDACTED'],
  ['010.001.002.003', 'REDACTED'],
  ['peer 001.2.030.255 left', 'peer REDACTED left'],
  ['(010.001.002.003)', '(REDACTED)'],
];
/** Near misses of the new forms that stay as they are. */
const nearMisses: [string, string][] = [
  ['0100.001.002.003', '0100.001.002.003'],
  ['010.001.002.0034', '010.001.002.0034'],
  ['aa:bb:cc:dd:ee:ff:fe80::1', 'aa:bb:cc:dd:ee:ff:fe80::1'],
  ['ab:fe80::1', 'REDACTED'], // one address: ab:fe80::1
  ['ff:ee:dd:cc:bb:aa:99:88:77', 'ff:ee:dd:cc:bb:aa:99:88:77'],
  ['Deface:fe80::1', 'Deface:REDACTED'],
  ['std::vector::fe80', 'std::vector::fe80'],
  ['xfe80::1', 'xfe80::1'],
  ['fe80::1x', 'fe80::1x'],
];

describe('SPEC §6 forms', () => {
  it.each(spec6)('%j → %j', (input, want) => expect(redactString(input)).toBe(want));
  it.each(nearMisses)('%j → %j', (input, want) => expect(redactString(input)).toBe(want));
  it('redacts the same forms inside a JSON body', () => {
    const body = JSON.stringify({ result: spec6.map(([input]) => ({ v: input })) });
    expect((JSON.parse(redactJsonText(body)) as { result: { v: string }[] }).result.map((r) => r.v)).toEqual(spec6.map(([, want]) => want));
  });
});

describe('redactString', () => {
  it.each(redacted)('redacts %j', (input, want) => expect(redactString(input)).toBe(want));
  it.each(untouched)('leaves %j alone', (input) => expect(redactString(input)).toBe(input));
});

describe('redactValue', () => {
  it('rewrites nested string values only', () => {
    const v = { '10.0.0.1': 'from 10.0.0.1', n: 10, b: true, arr: [{ ip: '::1' }, 'ok'], nil: null };
    expect(redactValue(v)).toEqual({ '10.0.0.1': 'from REDACTED', n: 10, b: true, arr: [{ ip: 'REDACTED' }, 'ok'], nil: null });
  });
});

describe('redactJsonText', () => {
  it('redacts values but never keys, numbers or booleans', () => {
    const body = JSON.stringify({ result: [{ '1.2.3.4': '1.2.3.4', port: 8080, ok: true, meta: { list: ['a 10.1.1.1', 'b'] } }] });
    const out = JSON.parse(redactJsonText(body));
    expect(out).toEqual({ result: [{ '1.2.3.4': 'REDACTED', port: 8080, ok: true, meta: { list: ['a REDACTED', 'b'] } }] });
  });
  it('handles escapes inside strings and whitespace before colons', () => {
    const body = '{"a" : "line\\n10.0.0.2\\"q\\"", "k\\"1.2.3.4" : "::1"}';
    expect(JSON.parse(redactJsonText(body))).toEqual({ a: 'line\nREDACTED"q"', 'k"1.2.3.4': 'REDACTED' });
  });
  it('returns the same text when nothing matches', () => {
    const body = JSON.stringify({ result: [{ t: '12:30:45', v: 'std::map' }] });
    expect(redactJsonText(body)).toBe(body);
  });
  it('equals redactValue on random nested documents', () => {
    const parts = ['10.0.0.1', '::1', 'fe80::2', 'text', '12:00', '256.1.1.1', ' ', 'é', '\\', '"', '\n'];
    let seed = 7;
    const rnd = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const str = (): string => Array.from({ length: rnd(5) }, () => parts[rnd(parts.length)]).join('');
    for (let k = 0; k < 300; k++) {
      const doc = { [str()]: str(), list: [str(), rnd(100), { [str()]: [str(), false] }] };
      expect(JSON.parse(redactJsonText(JSON.stringify(doc)))).toEqual(redactValue(doc));
    }
  });
});

describe('linear time', () => {
  it('redacts long adversarial runs (colon runs, dotted digits, hex words) promptly', () => {
    for (const unit of ['ff:', 'a:b::', '1.', '010.0', 'x_fe80:', 'e:', '::1.']) {
      const s = unit.repeat(Math.ceil(200_000 / unit.length));
      const t0 = performance.now();
      redactString(s);
      expect(performance.now() - t0).toBeLessThan(2000);
    }
  });
});
