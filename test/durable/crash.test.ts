// A short pass of the crash test in `npm test` (the long one: `npm run crash -- --cycles 20`): a real
// ringql process killed with SIGKILL under concurrent ingest loses no acknowledged batch and never keeps half of one.

import { describe, expect, it } from 'vitest';
import { crashTest } from './crash-core.ts';

describe('crash and restart', () => {
  for (const fsync of ['interval', 'always'] as const) {
    it(`RINGQL_FSYNC=${fsync}: every acknowledged batch survives kill -9, exactly once and whole`, async () => {
      const r = await crashTest({ cycles: 3, clients: 3, batchSize: 20, fsync });
      expect(r.acknowledged).toBeGreaterThan(10);
      expect(r.failures).toEqual([]);
    }, 120_000);
  }
});
