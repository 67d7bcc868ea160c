// bench/targets.ts: each issue's Targets rows say "not run" for a section --only left out, and PASS or
// MISS by the issue's threshold (e.g. resident ÷ NDJSON ≤ 0.25, the cap needs the oldest evicted).

import { describe, expect, it } from 'vitest';
import { issue14, issue15, issue16, issue18 } from '../../bench/targets.ts';
import type { RunResults } from '../../bench/results.ts';
import type { CapFigures } from '../../bench/memory-cap.ts';

const machine = { cpu: 'x', cores: 2, memoryGiB: 24, node: 'v20', os: 'linux', wrk: null, faultUs: { page: 10, hugePer4k: 1 } };
const empty = (): RunResults => ({ quick: false, machine, sections: [] });
const MiB = 2 ** 20;

function cap(over: Partial<CapFigures>): CapFigures {
  return {
    capBytes: 512 * MiB, seconds: 100, sent: { events: 1e6, bytes: 5e8 }, held: 4e5, evictedForBudget: 6e5, usedBytes: 500 * MiB,
    maxRss: 590 * MiB, endRss: 560 * MiB, oldestLeft: 2, firstBatchMax: 1, newestLeft: 9, lastSent: 9, oldestEvicted: true, newestQueryable: true,
    load: { start: '0', end: '0' }, ...over,
  };
}

describe('targets', () => {
  it('every row of a run with no section is "not run"', () => {
    const rows = [...issue14(empty()), ...issue15(empty()), ...issue16(empty()), ...issue18(empty())];
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.every((r) => r.status === 'not run')).toBe(true);
  });

  it('the 512M cap passes at ≤ 600 MiB with the oldest evicted, and misses otherwise', () => {
    const status = (c: CapFigures): string => issue15({ ...empty(), cap: c }).find((r) => r.measure.startsWith('process RSS'))!.status;
    expect(status(cap({}))).toBe('PASS');
    expect(status(cap({ maxRss: 601 * MiB }))).toBe('MISS');
    expect(status(cap({ oldestEvicted: false }))).toBe('MISS');
    expect(status(cap({ evictedForBudget: 0 }))).toBe('MISS');
  });

  it('events held needs 30M without eviction', () => {
    const held = (n: number, evicted = 0): string => issue15({ ...empty(), held: { target: 3e7, held: n, evicted, ndjsonBytes: n * 480, rss: 1e9, rssGrowth: 1e9, counted: 1e9, budget: '20000M', stopped: 'target', loadMs: 1, load: { start: '0', end: '0' } } })
      .find((r) => r.measure.startsWith('edge events held'))!.status;
    expect(held(30_000_000)).toBe('PASS');
    expect(held(29_999_999)).toBe('MISS');
    expect(held(30_000_000, 5)).toBe('MISS');
  });
});
