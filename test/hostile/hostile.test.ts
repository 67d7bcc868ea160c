// The short, fixed-seed pass of the hostile-input harness that runs in `npm test` (the long one:
// `npm run hostile -- --scale N`): every class must keep its invariant against a real server process.

import { describe, expect, it } from 'vitest';
import { runHostile, type ClassReport } from './hostile-core.ts';

describe('hostile inputs (short pass)', () => {
  let reports: ClassReport[] = [];
  it('runs every class against a real server process', async () => {
    reports = await runHostile({ seed: 20261124, scale: 1 });
    expect(reports.map((r) => r.name)).toEqual([
      'redaction through errors and aggregates', 'HTTP framing', 'budget-busting expressions', 'concurrency stalls', 'slow bodies', 'wide events',
    ]);
  }, 180_000);
  for (const name of ['redaction through errors and aggregates', 'HTTP framing', 'budget-busting expressions', 'concurrency stalls', 'slow bodies', 'wide events']) {
    it(`${name}: no failures`, () => {
      const r = reports.find((x) => x.name === name);
      expect(r, 'the run above did not reach this class').toBeDefined();
      expect(r!.failures).toEqual([]);
    });
  }
});
