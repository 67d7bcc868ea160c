// The addon's noRows scan (src/native/scan-*.c, the column-only load's NDJSON path) against its tape path
// on the same bodies: equal batches (timestamps, project and descriptor ids, strings, descriptors, counted
// row bytes) or the same reason to decline, for demo events, hand-made edge cases and the seeded fuzzer.

import { describe, expect, it } from 'vitest';
import { runTransform } from '../../src/store/byte-batch.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { Rng, mutate } from '../fuzz/fuzz-targets.ts';

const NOW = Date.UTC(2025, 0, 15, 12) * 1000;
const RUNS = Number(process.env.BYTE_FUZZ_RUNS ?? 600);

/** What a noRows transform gives, comparable: per event its 6 numbers, then the batch's bytes. */
function outcome(body: Buffer, hot: string[][], maxDepth: number, maxString: number): unknown {
  const r = runTransform({ body, ndjson: true, maxEventDepth: maxDepth, maxStringBytes: maxString, fillUs: NOW, projectPath: ['project'], hotPaths: hot, idSeed: Buffer.alloc(16, 7), noRows: true });
  if (typeof r === 'string') return r;
  const stride = 6 + 2 * hot.length;
  const meta = Array.from({ length: r.n }, (_, i) => Array.from(r.meta.subarray(i * stride, i * stride + 6)));
  return { n: r.n, meta, bytes: r.noRowsBytes, strs: r.strs.toString('latin1'), strEnds: [...r.strEnds], descs: r.descs.toString('latin1'), descEnds: [...r.descEnds] };
}

/** The scan (no hot paths) and the tape path (a hot path, absent from every event, turns the scan off) agree. */
function agree(body: Buffer, maxDepth = 32, maxString = 1 << 20): unknown {
  const scan = outcome(body, [], maxDepth, maxString);
  expect(scan, JSON.stringify(body.toString('latin1').slice(0, 200))).toEqual(outcome(body, [['zz_absent']], maxDepth, maxString));
  return scan;
}

const nd = (...lines: string[]): Buffer => Buffer.from(lines.join('\n'));

describe('the noRows scan agrees with the tape path', () => {
  it('demo events of every source as NDJSON bodies, all transformed', () => {
    const lines = [...generateEvents({ events: 1500, projects: 3, days: 1, seed: 11, endUs: NOW })].map((e) => serializeEvent(e.source, e.event));
    for (let i = 0; i < lines.length; i += 250) expect(typeof agree(nd(...lines.slice(i, i + 250)))).toBe('object');
  });

  it('what the scan leaves to the tape path: escapes, message, odd ids, projects and timestamps', () => {
    const cases = [
      '{"event_message":"a\\nb","metadata":{"k\\u00e9y":"\\ud83d\\ude00","v":"\\/"}}', '{"message":"m","project":"p"}',
      '{"message":null,"event_message":"e"}', '{"id":""}', `{"id":"${'x'.repeat(257)}"}`, '{"id":7}', '{"id":null,"project":12.50}',
      '{"project":["one"]}', '{"project":[]}', '{"project":{"a":1}}', '{"project":null}', '{"project":true}', '{"project":1e999}',
      '{"project":-0}', '{"timestamp":"2025-01-15 10:00:00+02:00"}', '{"timestamp":"nope"}', '{"timestamp":1736935200123456789}',
      '{"timestamp":9007199254740993}', '{"timestamp":true}', '{"timestamp":null}', '{"metadata":null,"x":[null,[],[1],{"a":[]}]}',
      '{"metadata":5}', '{"metadata":[{"a":1}]}', '{"n":[1.5,2,"s"],"m":[null,2.0,1e2,-0,0.1e1,123456789012345678901]}', '\ufeff{"a":1}',
      '{"a":"é€😀"}', '{"a":1} x', '[{"a":1}]', '"s"', '{"a":1,"a":2}', '{"0":1}', '{"a":{"b":1,"b":2}}', '{"a"}', '{"a":tru}',
    ];
    for (const c of cases) { agree(Buffer.from(c)); agree(nd('{"a":1}', c, '', ' \r', '{"b":2}\r')); }
  });

  it('the limits: nesting depth, string and key lengths, duplicate keys, 256 keys', () => {
    const deep = (d: number): string => `{"metadata":${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`;
    const deepArr = (d: number): string => `{"x":${'['.repeat(d)}1${']'.repeat(d)}}`;
    for (let d = 1; d <= 8; d++) { agree(Buffer.from(deep(d)), 5); agree(Buffer.from(deepArr(d)), 5); }
    for (const n of [15, 16, 17]) {
      agree(Buffer.from(`{"event_message":"${'m'.repeat(n)}","${'k'.repeat(n)}":"${'v'.repeat(n)}"}`), 32, 16);
      agree(Buffer.from(`{"metadata":{"${'k'.repeat(n)}":{"${'v'.repeat(n)}":1}}}`), 32, 16);
    }
    for (const len of [1, 3, 4, 7, 8, 9, 16, 17, 19]) {
      for (const gap of [0, 1, 30]) {
        const k = 'abcdefghijklmnopqrs'.slice(0, len), fill = Array.from({ length: gap }, (_, i) => `,"f${i}":${i}`).join('');
        // A duplicate, and (length 19) a key differing only in a middle byte, which is none.
        expect(agree(Buffer.from(`{"metadata":{"${k}":1${fill},"${k}":2}}`))).toBe('a duplicate key');
        agree(Buffer.from(`{"metadata":{"${k}":1${fill},"${k.slice(0, 9)}X${k.slice(10)}":2}}`));
      }
    }
    for (const n of [255, 256, 257]) agree(Buffer.from(`{"metadata":{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}}`));
  });

  it('a duplicate key after events of known shapes (nested keys are checked only for a shape new to the batch)', () => {
    const known = ['{"metadata":{"a":1,"b":2},"x":[{"c":1}]}', '{"metadata":{"a":3,"b":4},"x":[{"c":2}]}'];
    for (const dup of ['{"metadata":{"a":1,"b":2,"a":3},"x":[{"c":1}]}', '{"metadata":{"a":1,"b":2},"x":[{"c":1,"c":2}]}',
      '{"metadata":{"a":{"b":1,"b":1},"b":2},"x":[]}', '{"metadata":{"a":1,"a":2},"x":[{"c":1}]}']) {
      expect(agree(nd(...known, dup, ...known))).toBe('a duplicate key');
    }
    // New shapes among known ones, each interned once: the same ids as the tape path gives.
    const shapes = ['{"metadata":{"a":1}}', '{"metadata":{"b":1}}', '{"metadata":{"a":"s"}}', '{"y":1}', '{"metadata":{"a":1,"b":[1]}}'];
    expect(typeof agree(nd(...Array.from({ length: 60 }, (_, i) => shapes[(i * 7) % 5]!)))).toBe('object');
  });

  it('line ends at every place in the scan\'s 16- and 64-byte steps', () => {
    const line = (n: number): string => { const head = '{"event_message":"'; return `${head}${'m'.repeat(Math.max(0, n - head.length - 2))}"}`; };
    for (let n = 20; n <= 140; n++) {
      expect(typeof agree(nd(line(n), line(n + 1), line(n)))).toBe('object');
      agree(nd(line(n), `${line(n)} `, '', line(n).replace('m', '\\n')));
      agree(Buffer.from(`${line(n)}\n`));
    }
  });

  it('the seeded event fuzzer (BYTE_FUZZ_SEED, BYTE_FUZZ_RUNS)', () => {
    const rng = new Rng(Number(process.env.BYTE_FUZZ_SEED ?? 16) + 1);
    const seeds = [...generateEvents({ events: 40, projects: 3, days: 1, seed: 5, endUs: NOW })].map((e) => serializeEvent(e.source, e.event));
    const tokens = ['{', '}', '[', ']', ',', ':', '"', 'null', '1e999', '-0', '"\\u0000"', '{"metadata":', '\n', '"\\ud800"', '\u00e9', '1736935200123456789', '"timestamp":', '"project":', '"message":', '"__proto__":', '0.1', '"id":', '\r\n', '\ufeff'];
    let took = 0;
    for (let i = 0; i < RUNS; i++) {
      const lines = Array.from({ length: 1 + rng.int(4) }, () => rng.pick(seeds));
      let body = Buffer.from(mutate(rng, lines.join('\n'), tokens), 'utf8');
      if (rng.int(10) === 0) { body = Buffer.from(body); body[rng.int(body.length || 1)] = rng.int(256); }
      if (typeof agree(body, 3 + rng.int(30)) === 'object') took++;
    }
    expect(took).toBeGreaterThan(RUNS / 20);
  });
});
