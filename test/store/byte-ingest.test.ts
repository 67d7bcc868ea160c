// The byte-level ingest path (native addon) against the reference JS path: hand-picked SPEC §1/§3
// cases, the demo generator's events and the seeded event fuzzer store identical rows, schemas and errors.

import { describe, expect, it } from 'vitest';
import { Rng, mutate } from '../fuzz/fuzz-targets.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { parseTimestamp } from '../../src/core/time.ts';
import { ingestBoth, snapshot, twinStores, type Twin } from './byte-ingest-diff.ts';

const NOW = parseTimestamp('2025-01-15T12:00:00Z')!;
const JSON_CT = 'application/json', ND = 'application/x-ndjson';

/** By hand: BYTE_FUZZ_RUNS=200000 BYTE_FUZZ_SEED=<n> npx vitest run ... (CI runs a short round, seed 16). */
const FUZZ_RUNS = Number(process.env.BYTE_FUZZ_RUNS ?? 600);

function same(t: Twin, body: string | Buffer, ct = JSON_CT, now = NOW, compareStores = true): void {
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const r = ingestBoth(t, buf, ct, now);
  expect(r.fast, `outcome of ${buf.toString('utf8').slice(0, 200)}`).toEqual(r.ref);
  if (compareStores) expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
}

const CASES: [string, string][] = [
  ['batch', '{"batch":[{"id":"a","timestamp":"2025-01-15T10:00:00Z","event_message":"hi","metadata":{"request":{"url":"https://x/y","path":"/y","method":"GET"}},"project":"p1"}]}'],
  ['bare array, message fallback', '[{"message":"stands in","timestamp":1736935200},{"event_message":null,"message":"kept as a column"},{"message":7}]'],
  ['single object', '{"timestamp":1736935200123,"project":"p2","metadata":{"a":[1,2,{"b":null}]}}'],
  ['timestamp forms', '[{"timestamp":"2025-01-15 10:00:00+02:00"},{"timestamp":"2025-01-15T10:00:00.123456789Z"},{"timestamp":"2025-1-5"},{"timestamp":"2025-01-15 10:00 UTC"},{"timestamp":"2025-01-15T10:00:00,5-0530"},{"timestamp":1736935200123456},{"timestamp":1736935200123456789},{"timestamp":-1736935200123456789},{"timestamp":0},{"timestamp":null}]'],
  ['numbers', '[{"metadata":{"n":[1.50,2e3,-0,1e21,1e-7,0.000001,123456789012345678,1e400,-1e-400,5e-324,1.7976931348623157e308,0.1,100,1E+2]}}]'],
  ['strings and escapes', '[{"event_message":"tab\\tnl\\nq\\"bs\\\\ \\u0000\\u001f\\u007f \\u00e9\\u20ac\\ud83d\\ude00 é€😀 \\/ \\u2028"}]'],
  ['__proto__ and odd keys', '[{"__proto__":{"x":1},"metadata":{"__proto__":[1],"constructor":"c","a.b":"dots","":"empty"}}]'],
  ['types of first sight', '[{"metadata":{"s":[],"t":[null,[],["x"]],"u":[[1]],"v":[{"w":true}],"x":null}},{"metadata":{"s":[1],"x":"now a string"}}]'],
  ['project paths and hot values', '[{"project":12.5,"metadata":{"request":[{"url":"u","path":7,"method":true}]}},{"project":["one"],"metadata":{"request":[{"url":"a"},{"url":"b"}]}},{"metadata":{"request":{"url":{"x":1},"path":null}}}]'],
];

const INVALID: [string, string, string?][] = [
  ['not JSON', '{"batch":[{"a":1},]}'],
  ['truncated', '[{"event_message":"abc'],
  ['empty', '   '],
  ['bad timestamp', '[{"timestamp":"yesterday"}]'],
  ['bad id', '[{"id":""},{"id":7}]'],
  ['bad metadata', '[{"metadata":[1]}]'],
  ['bad message', '[{"event_message":{"a":1}}]'],
  ['too deep', '[{"metadata":' + '{"a":'.repeat(40) + '1' + '}'.repeat(41) + '}]'],
  ['ndjson with a bad line', '{"a":1}\n{nope}\n', ND],
  ['duplicate keys', '[{"timestamp":1,"timestamp":1736935200123456789}]'],
  ['array-index keys', '[{"metadata":{"b":1,"2":2,"1":3}}]'],
  ['lone surrogate', '[{"event_message":"\\ud800x"}]'],
  ['timestamp past 2^53 µs', '[{"timestamp":"2300-01-01T00:00:00Z"}]'],
];

describe('byte-level ingest matches the reference path', () => {
  it.each(CASES)('%s', (_name, body) => {
    const t = twinStores('edge.logs.prod');
    same(t, body);
    same(t, body.startsWith('[') ? '\uFEFF' + body : body);
    expect(t.took).toBeGreaterThan(0);
  });

  it.each(INVALID)('%s', (_name, body, ct) => {
    const t = twinStores('edge.logs.prod');
    same(t, '[{"event_message":"before"}]');
    same(t, body, ct ?? JSON_CT);
  });

  it('NDJSON: blank lines, CRLF, a BOM, every source', () => {
    const body = '\uFEFF{"event_message":"a","project":"p"}\r\n\r\n  \n{"message":"b","metadata":{"project":"q","project_ref":"r"}}\n';
    for (const src of ['edge.logs.prod', 'function-relay-logs', 'realtime.logs.prod']) {
      const t = twinStores(src);
      same(t, body, ND);
      expect(t.took).toBe(1);
    }
  });

  it('retention drops and string limits agree', () => {
    const t = twinStores('edge.logs.prod', { retentionUs: 3_600_000_000, maxStringBytes: 16 });
    same(t, '[{"timestamp":"2025-01-15T11:30:00Z"},{"timestamp":"2025-01-15T09:00:00Z"},{"timestamp":"2025-01-15T11:59:00Z","metadata":{"k":"0123456789abcdef"}}]');
    same(t, '[{"metadata":{"k":"0123456789abcdefg"}}]');
    same(t, '[{"metadata":{"0123456789abcdefg":1}}]');
  });

  it('small segments: sealing and compaction in the middle of a batch, capacity eviction', () => {
    const t = twinStores('edge.logs.prod', { segmentRows: 7, maxRows: 40 });
    for (let k = 0; k < 6; k++) {
      const events = Array.from({ length: 13 }, (_, i) => `{"timestamp":"2025-01-15T11:${String(k * 9 + (i % 9)).padStart(2, '0')}:00Z","project":"p${i % 3}","metadata":{"request":{"url":"u${i}","method":"GET"}}}`);
      same(t, `[${events.join(',')}]`);
    }
    expect(t.took).toBe(6);
  });

  it('a batch refused by its size (checkCount) changes nothing, not even the watermark', () => {
    const t = twinStores('edge.logs.prod', { retentionUs: 3_600_000_000 });
    const before = snapshot(t.fast);
    const refuse = (n: number): void => { throw new Error(`${n} events`); };
    expect(() => t.fast.ingestBytes(Buffer.from('[{"a":1},{"b":2}]'), false, NOW, { checkCount: refuse })).toThrow('2 events');
    expect(snapshot(t.fast)).toEqual(before);
  });

  it('the field bound is judged by the reference path', () => {
    const t = twinStores('edge.logs.prod', { maxFieldsPerSource: 3 });
    same(t, '[{"metadata":{"a":1,"b":2}}]');
    same(t, '[{"metadata":{"c":1,"d":2}}]');
    same(t, '[{"metadata":{"a":5}}]');
  });

  it('demo generator events of every source, as batches and NDJSON', () => {
    const bySource = new Map<string, string[]>();
    for (const { source, event } of generateEvents({ events: 1500, projects: 3, days: 1, seed: 7, endUs: NOW })) {
      let lines = bySource.get(source);
      if (!lines) bySource.set(source, (lines = []));
      lines.push(serializeEvent(source, event));
    }
    for (const [source, lines] of bySource) {
      const t = twinStores(source);
      for (let i = 0; i < lines.length; i += 100) {
        const chunk = lines.slice(i, i + 100);
        if ((i / 100) % 2 === 0) same(t, `{"batch":[${chunk.join(',')}]}`, JSON_CT, NOW, false);
        else same(t, chunk.join('\n'), ND, NOW, false);
      }
      expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
      expect(t.declined, source).toEqual(new Map());
    }
  });

  it('the seeded event fuzzer: identical outcomes and stores', { timeout: 600_000 }, () => {
    const rng = new Rng(Number(process.env.BYTE_FUZZ_SEED ?? 16));
    let took = 0;
    const seeds = [...CASES.map((c) => c[1]), ...INVALID.map((c) => c[1])];
    const tokens = ['{', '}', '[', ']', ',', ':', '"', 'null', '1e999', '-0', '"\\u0000"', '{"metadata":', '\n', '"\\ud800"', '\u00e9', '1736935200123456789', '"timestamp":', '"__proto__":', '0.1'];
    let t = twinStores('edge.logs.prod', { maxFieldsPerSource: 200 });
    for (let i = 0; i < FUZZ_RUNS; i++) {
      if (i % 200 === 199) { expect(snapshot(t.fast)).toEqual(snapshot(t.ref)); t = twinStores('edge.logs.prod', { maxFieldsPerSource: 200 }); }
      const text = mutate(rng, rng.pick(seeds), tokens);
      let body = Buffer.from(text, 'utf8');
      if (rng.int(10) === 0) { body = Buffer.from(body); body[rng.int(body.length || 1)] = 0x80 + rng.int(0x80); }
      same(t, body, rng.int(3) === 0 ? ND : JSON_CT, NOW, i % 20 === 0);
      took += t.took; t.took = 0;
    }
    expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
    expect(took).toBeGreaterThan(FUZZ_RUNS / 20);
  });
});

describe('the ingest addon', () => {
  it('refuses loudly when its build is missing (no silent slow path)', async () => {
    const { loadIngestAddon, INGEST_ADDON } = await import('../../src/store/native-ingest.ts');
    expect(typeof INGEST_ADDON.transform).toBe('function');
    expect(() => loadIngestAddon('../native/build/Release/missing.node')).toThrow(/native ingest addon[\s\S]*will not start without it/);
  });
});
