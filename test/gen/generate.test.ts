// The generated stream as a whole: determinism, exact per-source counts, the time window,
// project popularity, and the roughly-but-not-strictly chronological order.

import { describe, expect, it } from 'vitest';
import { generateEvents, generateSourceEvents, sourceCounts, GEN_SOURCE_NAMES, DEMO_PROJECTS, type GenerateOptions } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { END_US, DAY_US, toMicros, at } from './helpers.ts';

const base: GenerateOptions = { events: 20_000, projects: 10, days: 7, seed: 42, endUs: END_US };

function text(opts: GenerateOptions): string {
  let s = '';
  for (const { source, event } of generateEvents(opts)) s += source + '\t' + serializeEvent(source, event) + '\n';
  return s;
}

function projectOf(source: string, e: Record<string, unknown>): unknown {
  if (source === 'function-relay-logs' || source === 'function-runtime-events') return at(e, 'metadata.project_ref');
  if (source === 'realtime.logs.prod' || source === 'storage.logs.prod') return at(e, 'metadata.project');
  return e.project;
}

describe('generateEvents', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const a = text(base);
    expect(text(base)).toBe(a);
    expect(text({ ...base, seed: 43 })).not.toBe(a);
  });

  it('splits the total exactly, edge the majority', () => {
    for (const n of [0, 1, 7, 999, 20_000]) {
      const expected = sourceCounts({ events: n });
      expect(expected.reduce((a, c) => a + c.events, 0)).toBe(n);
      const seen = new Map<string, number>();
      for (const { source } of generateEvents({ ...base, events: n })) seen.set(source, (seen.get(source) ?? 0) + 1);
      for (const c of expected) expect(seen.get(c.source) ?? 0).toBe(c.events);
    }
    const counts = sourceCounts({ events: 100_000 });
    expect(counts.map((c) => c.source)).toEqual(GEN_SOURCE_NAMES);
    expect(counts[0]!.events).toBe(55_000);
    expect(counts[1]!.events).toBe(15_000);
  });

  it('honours a source selection', () => {
    const srcs = new Set<string>();
    for (const { source } of generateEvents({ ...base, events: 500, sources: ['auth.logs.prod', 'pooler.logs.prod'] })) srcs.add(source);
    expect([...srcs].sort()).toEqual(['auth.logs.prod', 'pooler.logs.prod']);
    expect(() => [...generateEvents({ ...base, sources: ['nope'] })]).toThrow(/unknown source/);
    expect(generateSourceEvents('rest.logs.prod', 25, { projects: 3, days: 1, seed: 1, endUs: END_US })).toHaveLength(25);
  });

  it('keeps every timestamp inside [end - days, end], in all its forms, with unique ids', () => {
    const forms = { z: 0, offset0: 0, offsetOther: 0, number: 0 };
    const ids = new Set<string>();
    let n = 0;
    for (const { event } of generateEvents(base)) {
      n++;
      const ts = event.timestamp;
      if (typeof ts === 'number') forms.number++;
      else if (typeof ts === 'string' && ts.endsWith('Z')) { forms.z++; expect(ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/); }
      else if (typeof ts === 'string' && ts.endsWith('+00:00')) forms.offset0++;
      else forms.offsetOther++;
      const us = toMicros(ts);
      expect(Number.isFinite(us)).toBe(true);
      expect(us).toBeGreaterThanOrEqual(END_US - 7 * DAY_US);
      expect(us).toBeLessThanOrEqual(END_US);
      expect(typeof event.id).toBe('string');
      expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(event.id as string);
    }
    expect(ids.size).toBe(n);
    expect(forms.number / n).toBeGreaterThan(0.07);
    expect(forms.number / n).toBeLessThan(0.13);
    expect(forms.offset0).toBeGreaterThan(0);
    expect(forms.offsetOther).toBeGreaterThan(0);
    expect(forms.z / n).toBeGreaterThan(0.8);
  });

  it('has a daily cycle: the busiest UTC hours carry clearly more than the quietest', () => {
    const perHour = new Array<number>(24).fill(0);
    for (const { event } of generateEvents(base)) perHour[new Date(toMicros(event.timestamp) / 1000).getUTCHours()]!++;
    expect(Math.max(...perHour)).toBeGreaterThan(2 * Math.min(...perHour));
  });

  it('makes `default` the most popular project, with a long tail', () => {
    const perProject = new Map<unknown, number>();
    for (const { source, event } of generateEvents({ ...base, projects: 30 })) {
      const p = projectOf(source, event);
      perProject.set(p, (perProject.get(p) ?? 0) + 1);
    }
    const sorted = [...perProject].sort((a, b) => b[1] - a[1]);
    expect(sorted[0]![0]).toBe('default');
    expect(perProject.size).toBe(30);
    for (const [p] of perProject) expect(p === 'default' || /^[a-z]{20}$/.test(String(p))).toBe(true);
    const top3 = sorted.slice(0, 3).reduce((a, e) => a + e[1], 0);
    expect(top3 / base.events).toBeGreaterThan(0.4);
    expect(DEMO_PROJECTS[0]).toBe('default');
  });

  it('arrives out of order, but mostly close to chronological', () => {
    let maxSoFar = -Infinity;
    let descents = 0;
    let farBehind = 0;
    let maxLag = 0;
    let n = 0;
    for (const { event } of generateEvents({ ...base, events: 50_000 })) {
      const us = toMicros(event.timestamp);
      if (us < maxSoFar) descents++;
      const lag = maxSoFar - us;
      if (lag > 5 * 60_000_000) farBehind++;
      if (lag > maxLag) maxLag = lag;
      maxSoFar = Math.max(maxSoFar, us);
      n++;
    }
    expect(descents).toBeGreaterThan(n * 0.05); // not sorted
    expect(farBehind / n).toBeLessThan(0.07); // ~5% late events, the rest within minutes
    expect(farBehind).toBeGreaterThan(0);
    expect(maxLag).toBeLessThanOrEqual(3_600_000_000 + 10 * 60_000_000);
  });

  it('validates its options', () => {
    expect(() => [...generateEvents({ ...base, events: -1 })]).toThrow(/events/);
    expect(() => [...generateEvents({ ...base, projects: 0 })]).toThrow(/projects/);
    expect(() => [...generateEvents({ ...base, days: 0 })]).toThrow(/days/);
  });
});
