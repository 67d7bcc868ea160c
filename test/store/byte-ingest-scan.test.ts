// The addon's vector string scan, key fingerprints and exact 16-digit integers against the reference
// path: strings of every length around the 16-byte steps, escapes / non-ASCII / invalid UTF-8 / control
// bytes straddling them, colliding key fingerprints, integers around 2^53; and noRows on the same bodies.

import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/core/time.ts';
import { runTransform } from '../../src/store/byte-batch.ts';
import { ingestBoth, snapshot, twinStores, type Twin } from './byte-ingest-diff.ts';

const NOW = parseTimestamp('2025-01-15T12:00:00Z')!;
const CT = 'application/json';

/** Same outcome on both paths (the stores are compared once a test has ingested all its bodies: `sameStores`). */
function same(t: Twin, body: Buffer): void {
  const r = ingestBoth(t, body, CT, NOW);
  expect(r.fast, `outcome of ${JSON.stringify(body.toString('latin1').slice(0, 160))}`).toEqual(r.ref);
}

function sameStores(t: Twin): void {
  expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
}

/** The addon's own verdict on a body: true when it transformed it, else its reason to decline. */
function verdict(body: Buffer, noRows = false): true | string {
  const r = runTransform({ body, ndjson: false, maxEventDepth: 32, maxStringBytes: 1 << 20, fillUs: NOW, projectPath: ['project'], hotPaths: [['request', 'url']], idSeed: Buffer.alloc(16, 3), noRows });
  return typeof r === 'string' ? r : true;
}

const ascii = (n: number, seed = 0): string => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i + seed) % 26))).join('');

/** An event whose message is `raw` (bytes spliced in as they are), optionally shifted by a prefix key. */
function body(raw: Buffer, pad: number, extra = ''): Buffer {
  return Buffer.concat([Buffer.from(`{"project":"${'p'.repeat(pad)}"${extra},"event_message":"`), raw, Buffer.from('"}')]);
}

describe('the vector string scan agrees with the reference path', () => {
  it('plain strings of 0-49 bytes ending on, before and after each 16-byte step, at the body\'s very end', () => {
    const t = twinStores('edge.logs.prod');
    for (let n = 0; n < 50; n++) for (const pad of [0, 1, 7]) same(t, body(Buffer.from(ascii(n, pad)), pad));
    sameStores(t);
    expect(t.took).toBe(150);
  });

  it('escapes, non-ASCII and a DEL at every position of a 34-byte string (straddling the steps)', () => {
    const t = twinStores('edge.logs.prod');
    const inserts = ['\\n', '\\"', '\\\\', '\\u00e9', '\\ud83d\\ude00', '\\/', 'é', '€', '😀', '\u007f', '\u2028'];
    for (const ins of inserts) {
      for (let at = 0; at <= 34; at++) {
        const s = ascii(34);
        same(t, body(Buffer.from(s.slice(0, at) + ins + s.slice(at)), 3));
      }
    }
    sameStores(t);
    expect(t.took).toBe(inserts.length * 35);
    expect(t.declined.size).toBe(0);
  });

  it('invalid UTF-8 and raw control bytes anywhere in a vector are left to the reference path (same outcome)', () => {
    const t = twinStores('edge.logs.prod');
    const bad = [[0x80], [0xff], [0xc0, 0x80], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xf5, 0x80, 0x80, 0x80]];
    const controls = [[0x00], [0x01], [0x09], [0x0a], [0x1f]];
    for (const bytes of [...bad, ...controls]) {
      for (let at = 0; at <= 33; at++) {
        const s = Buffer.from(ascii(33));
        const b = body(Buffer.concat([s.subarray(0, at), Buffer.from(bytes), s.subarray(at)]), 2);
        expect(verdict(b)).not.toBe(true);
        same(t, b);
      }
    }
    sameStores(t);
    expect(t.took).toBe(0);
  });

  it('a body whose last string runs to the last byte (no closing quote) is refused by both', () => {
    const t = twinStores('edge.logs.prod');
    for (let n = 10; n < 40; n++) {
      const b = Buffer.from(`{"event_message":"${ascii(n)}`);
      expect(verdict(b)).not.toBe(true);
      same(t, b);
    }
    sameStores(t);
  });
});

describe('key fingerprints', () => {
  it('keys that differ only in bytes the fingerprint does not read are not duplicates', () => {
    const t = twinStores('edge.logs.prod');
    // Length 19: the fingerprint reads the first and last 8 bytes; these differ in byte 9 only.
    const keys = Array.from({ length: 40 }, (_, i) => `aaaaaaaa_${String.fromCharCode(65 + i % 26)}${i >= 26 ? 'x' : '_'}bbbbbbbb`);
    const meta = `{${keys.map((k, i) => `"${k}":${i}`).join(',')}}`;
    const b = Buffer.from(`{"metadata":${meta}}`);
    expect(verdict(b)).toBe(true);
    same(t, b);
    sameStores(t);
  });

  it('a duplicate key is found at any distance and length, plain or escaped', () => {
    const t = twinStores('edge.logs.prod');
    for (const len of [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 19, 40]) {
      for (const gap of [0, 1, 30]) {
        const k = ascii(len, 5);
        const fill = Array.from({ length: gap }, (_, i) => `,"f${i}":${i}`).join('');
        for (const twin of [k, `\\u00${k.charCodeAt(0).toString(16)}${k.slice(1)}`]) {
          const b = Buffer.from(`[{"metadata":{"${k}":1${fill},"${twin}":2}}]`);
          expect(verdict(b), `${k} then ${twin}`).toBe('a duplicate key');
          same(t, b);
        }
      }
    }
    sameStores(t);
  });
});

describe('integers kept as their token', () => {
  it('16-digit integers up to 2^53 are exact; past it JSON.stringify rounds (as the reference does)', () => {
    const t = twinStores('edge.logs.prod');
    const ns = ['9007199254740991', '9007199254740992', '9007199254740993', '-9007199254740992', '-9007199254740993', '1000000000000000',
      '9999999999999999', '1234567890123456', '12345678901234567', '-0', '0', '100000000000000000000', '1000000000000000000000'];
    const b = Buffer.from(`[${ns.map((n, i) => `{"timestamp":${1736935200000000 + i},"project":${n},"metadata":{"request":{"url":${n}},"n":${n},"a":[${n}]}}`).join(',')}]`);
    expect(verdict(b)).toBe(true);
    same(t, b);
    sameStores(t);
    // The stored row text is JSON.stringify's: 2^53 + 1 is not a double, so it reads back as 2^53.
    const rows = (snapshot(t.fast) as { rows: { json: string }[] }).rows.map((r) => r.json);
    expect(rows[2]).toContain('"n":9007199254740992,');
    expect(rows[0]).toContain('"n":9007199254740991,');
  });

  it('timestamps before 1970 and at 0 are written as the reference writes them', () => {
    const t = twinStores('edge.logs.prod');
    same(t, Buffer.from('[{"timestamp":"1969-12-31T23:59:59.999999Z"},{"timestamp":0},{"timestamp":-1736935200123456}]'));
    sameStores(t);
    expect(t.took).toBe(1);
  });
});

describe('noRows on the same bodies', () => {
  it('counts exactly the bytes of the rows the full transform writes', () => {
    for (let n = 0; n < 50; n += 7) {
      for (const ins of ['', '\\n', 'é', '\\u0001']) {
        const b = body(Buffer.from(ascii(n) + ins + ascii(n, 3)), 1, `,"metadata":{"request":{"url":"${ascii(n)}${ins}","k${ascii(n)}":[${n},"${ins}"]}}`);
        const full = runTransform({ body: b, ndjson: false, maxEventDepth: 32, maxStringBytes: 1 << 20, fillUs: NOW, projectPath: ['project'], hotPaths: [['request', 'url']], idSeed: Buffer.alloc(16, 3) });
        const cols = runTransform({ body: b, ndjson: false, maxEventDepth: 32, maxStringBytes: 1 << 20, fillUs: NOW, projectPath: ['project'], hotPaths: [['request', 'url']], idSeed: Buffer.alloc(16, 3), noRows: true });
        if (typeof full === 'string' || typeof cols === 'string') throw new Error(`declined: ${String(full)} / ${String(cols)}`);
        expect(cols.noRowsBytes).toBe(full.rows.length);
        expect(cols.descs.equals(full.descs) && cols.strs.equals(full.strs)).toBe(true);
      }
    }
  });
});
