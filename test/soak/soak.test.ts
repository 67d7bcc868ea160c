// The short soak that runs in CI (the long one: `npm run soak -- --seconds N`).

import { describe, expect, it } from 'vitest';
import { soak } from './soak-core.ts';
import { verdicts } from './verdicts.ts';

describe('soak (short)', () => {
  it('keeps serving under load and faults, loses no acknowledged event, and shuts down cleanly', async () => {
    const report = await soak(Number(process.env.RINGQL_SOAK_SECONDS ?? 6));
    expect(verdicts(report).filter((v) => !v.ok).map((v) => v.what)).toEqual([]);
    expect(report.statuses['ingest 200']).toBeGreaterThan(0);
    expect(report.statuses['query 200']).toBeGreaterThan(0);
    expect(report.statuses['malformed 400']).toBeGreaterThan(0);
  }, 120_000);
});
