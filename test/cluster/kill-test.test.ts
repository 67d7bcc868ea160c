// The short pass of the cluster kill test (the long one is `npm run test:cluster`): under ingest and
// queries, kill -9 a node, then a nats-server, then restart both; nothing acknowledged is lost or doubled,
// every query is answered (503 only with Retry-After, shortly after a disruption), all nodes agree.

import { describe, expect, it } from 'vitest';
import { runKillTest } from './kill-harness.ts';

describe('cluster kill test (short pass)', () => {
  it('loses and doubles nothing acknowledged across a node kill, a nats-server kill and their restarts', async () => {
    const r = await runKillTest({
      phaseSeconds: 6, projects: 12, partitions: 8, publishers: 1, queriers: 2, queryPauseMs: 30,
      loop: { projectsPerBatch: 4, eventsPerProject: 10, pauseMs: 30 }, settleMs: 20_000, log: () => {},
    });
    expect(r.ledger.violations, `node and server logs: ${r.dir}`).toEqual([]);
    // The loops ran throughout: events were acknowledged and queries answered before and after the kills.
    expect(r.ledger.figures.ackedEvents).toBeGreaterThan(0);
    expect(r.ledger.figures.ok).toBeGreaterThan(10);
    expect(r.ledger.figures.forwardedChecks).toBe(12);
  }, 120_000);
});
