// Event normalisation: the record shape of SPEC §2, ids, `message` fallback, timestamp forms,
// project extraction, validation reasons, schema collection, and the source table.

import { describe, expect, it } from 'vitest';
import { normalizeEvent, type NormalizedEvent, type NormalizeOptions } from '../../src/store/event.ts';
import { SchemaTree } from '../../src/store/schema-tree.ts';
import { SOURCES, CTE_OF_SOURCE, sourceByNameOrId, uuidV5, SOURCE_NAMESPACE } from '../../src/store/sources.ts';
import { INEXACT, hotValueAt } from '../../src/store/hot-paths.ts';
import type { SourceDef } from '../../src/store/types.ts';

const NOW = 1_736_942_400_000_000;
const edge = sourceByNameOrId('edge.logs.prod')!;
const relay = sourceByNameOrId('function-relay-logs')!;
const realtime = sourceByNameOrId('realtime.logs.prod')!;

function opts(extra: Partial<NormalizeOptions> = {}): NormalizeOptions {
  return { maxEventDepth: 8, maxStringBytes: 64, nowUs: NOW, schema: null, hotPaths: [], ...extra };
}
function norm(e: unknown, def: SourceDef = edge, o: Partial<NormalizeOptions> = {}): NormalizedEvent {
  const r = normalizeEvent(e, def, opts(o));
  if (typeof r === 'string') throw new Error(r);
  return r;
}
function reason(e: unknown, o: Partial<NormalizeOptions> = {}): string {
  const r = normalizeEvent(e, edge, opts(o));
  if (typeof r !== 'string') throw new Error('expected invalid');
  return r;
}

describe('record shape (SPEC §2)', () => {
  it('nested objects become arrays of one record', () => {
    const r = norm({ id: 'a', timestamp: 1, metadata: { request: { path: '/x' } } });
    expect(r.json).toBe('{"id":"a","timestamp":1000000,"event_message":null,"metadata":[{"request":[{"path":"/x"}]}]}');
    expect(r.extra).toBeNull();
  });
  it('arrays of objects are arrays of records, not double-wrapped', () => {
    const r = norm({ id: 'a', timestamp: 1, metadata: { arr: [{ a: 1 }, { b: { c: true } }] } });
    expect(r.json).toContain('"metadata":[{"arr":[{"a":1},{"b":[{"c":true}]}]}]');
  });
  it('arrays of scalars stay arrays; nulls and empties kept', () => {
    const r = norm({ id: 'a', timestamp: 1, metadata: { s: [1, 'x', null, 2.5], e: [], o: {}, n: null } });
    expect(r.json).toContain('"metadata":[{"s":[1,"x",null,2.5],"e":[],"o":[{}],"n":null}]');
  });
  it('absent or null metadata is []', () => {
    expect(norm({ id: 'a', timestamp: 1 }).json).toBe('{"id":"a","timestamp":1000000,"event_message":null,"metadata":[]}');
    expect(norm({ id: 'a', timestamp: 1, metadata: null }).json).toContain('"metadata":[]');
  });
  it('other top-level keys go to extra, record-shaped', () => {
    const r = norm({ id: 'a', timestamp: 1, project: 'p', appname: 'x', ctx: { k: [{ v: 1 }] } });
    expect(r.extra).toBe('{"project":"p","appname":"x","ctx":[{"k":[{"v":1}]}]}');
    expect(r.project).toBe('p');
  });
  it('strings are JSON-escaped', () => {
    const r = norm({ id: 'a"b', timestamp: 1, event_message: 'line\n"q"\u2028', metadata: { 'k"': '\\' } });
    expect(JSON.parse(r.json)).toEqual({ id: 'a"b', timestamp: 1_000_000, event_message: 'line\n"q"\u2028', metadata: [{ 'k"': '\\' }] });
  });
  it('output always parses as JSON with the four keys in order', () => {
    const r = norm({ metadata: { a: { b: { c: [1, { d: 2 }] } } }, event_message: 'm', timestamp: '2025-01-15T12:00:00Z' });
    const parsed = JSON.parse(r.json) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['id', 'timestamp', 'event_message', 'metadata']);
    expect(parsed.metadata).toEqual([{ a: [{ b: [{ c: [1, { d: 2 }] }] }] }]);
  });
});

describe('id, timestamp, message', () => {
  it('generates a UUID when id is absent or null', () => {
    const a = JSON.parse(norm({ timestamp: 1 }).json) as { id: string };
    const b = JSON.parse(norm({ timestamp: 1, id: null }).json) as { id: string };
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.id).not.toBe(a.id);
  });
  it('absent timestamp is now', () => {
    expect(norm({}).ts).toBe(NOW);
  });
  it.each([
    ['2025-01-15T12:00:00Z', NOW],
    ['2025-01-15T13:00:00+01:00', NOW],
    ['2025-01-15 12:00:00 UTC', NOW],
    ['2025-01-15T12:00:00', NOW],
    [1_736_942_400, NOW],
    [1_736_942_400_000, NOW],
    [1_736_942_400_000_000, NOW],
    [1_736_942_400_000_000_000, NOW],
  ])('timestamp %s', (t, us) => {
    expect(norm({ timestamp: t }).ts).toBe(us);
    expect(norm({ timestamp: t }).json).toContain(`"timestamp":${us},`);
  });
  it('message stands in for event_message only when it is absent', () => {
    const a = norm({ message: 'hi' });
    expect(a.json).toContain('"event_message":"hi"');
    expect(a.extra).toBeNull();
    const b = norm({ message: 'hi', event_message: 'real' });
    expect(b.json).toContain('"event_message":"real"');
    expect(b.extra).toBe('{"message":"hi"}');
    const c = norm({ message: { not: 'a string' } });
    expect(c.json).toContain('"event_message":null');
    expect(c.extra).toBe('{"message":[{"not":"a string"}]}');
  });
});

describe('project and hot paths', () => {
  it('reads the project where the source keeps it', () => {
    expect(norm({ project: 'p' }).project).toBe('p');
    expect(norm({ project: 42 }).project).toBe('42');
    expect(norm({ project: { x: 1 } }).project).toBeNull();
    expect(norm({ metadata: { project: 'p' } }).project).toBeNull();
    expect(norm({ metadata: { project_ref: 'r' } }, relay).project).toBe('r');
    expect(norm({ project: 'top', metadata: { project: 'm' } }, realtime).project).toBe('m');
  });
  it('hot values traverse single-element arrays only', () => {
    expect(hotValueAt({ metadata: { request: { url: 'u' } } }, ['metadata', 'request', 'url'])).toBe('u');
    expect(hotValueAt({ metadata: { request: [{ url: 'u' }] } }, ['metadata', 'request', 'url'])).toBe('u');
    // Several records on the way, or a non-scalar leaf: the hot column cannot stand in for the unnest chain.
    expect(hotValueAt({ metadata: { request: [{ url: 'u' }, { url: 'v' }] } }, ['metadata', 'request', 'url'])).toBe(INEXACT);
    expect(hotValueAt({ metadata: { request: { url: { x: 1 } } } }, ['metadata', 'request', 'url'])).toBe(INEXACT);
    expect(hotValueAt({ metadata: { request: { url: ['u'] } } }, ['metadata', 'request', 'url'])).toBe(INEXACT);
    // No record on the way: LEFT and CROSS JOIN UNNEST disagree, so the row must be read from JSON.
    expect(hotValueAt({ metadata: { request: [] } }, ['metadata', 'request', 'url'])).toBe(INEXACT);
    expect(hotValueAt({ metadata: { request: 'text' } }, ['metadata', 'request', 'url'])).toBe(INEXACT);
    expect(hotValueAt({ metadata: {} }, ['metadata', 'request', 'url'])).toBe(INEXACT);
    expect(hotValueAt({ metadata: { request: {} } }, ['metadata', 'request', 'url'])).toBeNull();
    expect(hotValueAt({ metadata: { request: { url: 7 } } }, ['metadata', 'request', 'url'])).toBe(7);
    expect(hotValueAt({}, ['metadata', 'request', 'url'])).toBe(INEXACT);
    const r = norm({ metadata: { request: { url: 'u', path: '/p' } } }, edge, { hotPaths: [['metadata', 'request', 'url'], ['metadata', 'request', 'path']] });
    expect(r.hot).toEqual(['u', '/p']);
  });
});

describe('validation reasons', () => {
  it.each([
    [[1], /must be a JSON object, not an array/],
    [null, /not null/],
    ['str', /not a string/],
    [{ id: '' }, /id "" must be a non-empty string/],
    [{ id: 5 }, /id 5 must be/],
    [{ id: 'x'.repeat(257) }, /at most 256/],
    [{ timestamp: 'abc' }, /^timestamp "abc" is not an ISO 8601 string or epoch number$/],
    [{ timestamp: 1.5 }, /timestamp 1.5 is not/],
    [{ timestamp: true }, /timestamp true is not/],
    [{ event_message: 5 }, /event_message must be a string or null, not a number/],
    [{ metadata: [1] }, /metadata must be an object, not an array/],
    [{ metadata: 'x' }, /metadata must be an object, not a string/],
    [{ metadata: { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } } }, /metadata: objects and arrays are nested deeper than 8 levels/],
    [{ deep: [[[[[[[[1]]]]]]]] }, /deep: objects and arrays are nested deeper/],
    [{ metadata: { s: 'x'.repeat(65) } }, /metadata: a string value is longer than 64 bytes/],
    [{ metadata: { s: 'é'.repeat(33) } }, /longer than 64 bytes/],
    [{ metadata: { ['k'.repeat(65)]: 1 } }, /metadata: a key is longer than 64 bytes/],
    [{ event_message: 'x'.repeat(65) }, /event_message: the string is longer than 64 bytes/],
  ])('%j', (e, re) => {
    expect(reason(e)).toMatch(re);
  });
  it('accepts strings of exactly the limit (in UTF-8 bytes)', () => {
    expect(() => norm({ metadata: { s: 'é'.repeat(32) } })).not.toThrow();
    expect(() => norm({ metadata: { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } } })).not.toThrow();
  });
});

describe('schema collection', () => {
  it('records paths with types, first seen wins', () => {
    const s = new SchemaTree(true);
    norm({ metadata: { a: 1, b: 1.5, c: 'x', d: true, r: { q: 'z' }, arr: [{ k: 1 }], ss: ['a'], n: null }, top: 3 }, edge, { schema: s });
    norm({ metadata: { a: 'now a string', n: 'late' } }, edge, { schema: s });
    const f = Object.fromEntries(s.list().map((x) => [x.path.join('.'), `${x.type}/${x.mode}`]));
    expect(f).toMatchObject({
      id: 'STRING/NULLABLE', timestamp: 'TIMESTAMP/NULLABLE', metadata: 'RECORD/REPEATED', project: 'STRING/NULLABLE',
      'metadata.a': 'INT64/NULLABLE', 'metadata.b': 'FLOAT64/NULLABLE', 'metadata.c': 'STRING/NULLABLE', 'metadata.d': 'BOOL/NULLABLE',
      'metadata.r': 'RECORD/REPEATED', 'metadata.r.q': 'STRING/NULLABLE', 'metadata.arr': 'RECORD/REPEATED', 'metadata.arr.k': 'INT64/NULLABLE',
      'metadata.ss': 'STRING/REPEATED', 'metadata.n': 'STRING/NULLABLE', top: 'INT64/NULLABLE',
    });
    expect([...s.topLevel]).toEqual(['id', 'timestamp', 'event_message', 'metadata', 'project', 'top']);
  });
  it('rollback forgets a rejected batch', () => {
    const s = new SchemaTree(false);
    const before = s.list().length;
    s.begin();
    norm({ metadata: { fresh: { x: 1 } }, newTop: 1 }, edge, { schema: s });
    s.rollback();
    expect(s.list().length).toBe(before);
    expect(s.topLevel.has('newTop')).toBe(false);
    expect(s.metadataNode.children?.has('fresh') ?? false).toBe(false);
  });
});

describe('sources', () => {
  it('implements UUIDv5 (RFC 4122 test vector)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
  it('has the nine sources in SPEC order with stable ids and CTEs', () => {
    expect(SOURCES.map((s) => s.name)).toEqual([
      'edge.logs.prod', 'postgres.logs', 'function-relay-logs', 'function-runtime-events', 'auth.logs.prod',
      'realtime.logs.prod', 'storage.logs.prod', 'rest.logs.prod', 'pooler.logs.prod',
    ]);
    for (const s of SOURCES) {
      expect(s.id).toBe(uuidV5(s.name, SOURCE_NAMESPACE));
      expect(sourceByNameOrId(s.id)).toBe(s);
      expect(sourceByNameOrId(s.id.toUpperCase())).toBe(s);
      expect(CTE_OF_SOURCE[s.name]).toMatch(/^[a-z_]+_logs$/);
    }
    expect(new Set(SOURCES.map((s) => s.id)).size).toBe(9);
    expect(sourceByNameOrId('nope')).toBeUndefined();
    expect(sourceByNameOrId('realtime.logs.prod')!.projectPath).toEqual(['metadata', 'project']);
    expect(sourceByNameOrId('function-runtime-events')!.projectPath).toEqual(['metadata', 'project_ref']);
    expect(sourceByNameOrId('pooler.logs.prod')!.projectPath).toEqual(['project']);
  });
});
