// RINGQL_MAX_MEMORY bounds the server process, not only the store (issue 15): over a real server with a
// 64M cap, ingest well past it; /health's process part shows the RSS, the overhead taken off the budget
// and the store held to what is left, and the oldest rows are the ones evicted.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startMainProcess } from '../helpers/main-process.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'ringql-proc-cap-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

const MiB = 2 ** 20;
const BATCHES = 40, PER_BATCH = 1000;

interface Budget {
  max_bytes: number; used_bytes: number; evicted_for_budget: number;
  process: { rss_bytes: number; overhead_bytes: number; store_target_bytes: number; v8_heap_total_bytes: number };
}

describe('RINGQL_MAX_MEMORY over the whole process', () => {
  it('holds the store to the budget less the process overhead and evicts the oldest rows', async () => {
    const port = await freePort();
    const child = await startMainProcess(port, { RINGQL_ACCESS_TOKENS: 'tok', RINGQL_STATE_DIR: stateDir, RINGQL_FSYNC: 'interval', RINGQL_MAX_MEMORY: '64M' });
    try {
      const base = `http://127.0.0.1:${port}`;
      const auth = { Authorization: 'Bearer tok', 'Content-Type': 'application/json' };
      const health = async (): Promise<{ memory_budget: Budget; rows: Record<string, number> }> => (await (await fetch(`${base}/health`)).json()) as { memory_budget: Budget; rows: Record<string, number> };
      const idle = (await health()).memory_budget;
      expect(idle.max_bytes).toBe(64 * MiB);
      expect(idle.process.rss_bytes).toBeGreaterThan(0);
      const now = Date.now() * 1000, first = now - 1e9;
      let k = 0;
      for (let b = 0; b < BATCHES; b++) {
        // ~1 KB of random base64 per event: ~40 MB of rows that compress poorly, twice what the store may keep.
        const batch = Array.from({ length: PER_BATCH }, () => ({ id: `e${k}`, timestamp: first + k++ * 1000, project: 'p', event_message: randomBytes(768).toString('base64') }));
        const r = await fetch(`${base}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: auth, body: JSON.stringify({ batch }) });
        expect(r.status).toBe(200);
      }
      const h = await health(), m = h.memory_budget;
      // The server's own RSS (V8, code, threads) is most of a 64M budget: the store keeps its floor, a quarter.
      expect(m.process.overhead_bytes).toBeGreaterThan(16 * MiB);
      expect(m.process.store_target_bytes).toBe(Math.max(16 * MiB, 64 * MiB - m.process.overhead_bytes));
      // Enforcement runs after each ingest: one sealed segment (4096 rows of ~0.8 KB compressed) of slack.
      expect(m.used_bytes).toBeLessThanOrEqual(m.process.store_target_bytes + 4 * MiB);
      // Stated margin: the cap, plus what the idle server held, plus 128 MiB of allocator and GC slack.
      expect(m.process.rss_bytes).toBeLessThanOrEqual(m.max_bytes + idle.process.rss_bytes + 128 * MiB);
      expect(m.evicted_for_budget).toBeGreaterThan(0);
      expect(h.rows['edge.logs.prod']).toBe(BATCHES * PER_BATCH - m.evicted_for_budget);
      // The oldest are the ones gone: what is left is the newest run of timestamps, up to the last sent.
      const created = await fetch(`${base}/api/endpoints`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'cap.span', cache_duration_seconds: 0,
        query: 'select count(*) as n, unix_micros(min(timestamp)) as oldest, unix_micros(max(timestamp)) as newest from `edge.logs.prod`' }) });
      expect(created.status).toBeLessThan(300);
      const q = ((await (await fetch(`${base}/api/endpoints/query/cap.span`, { headers: auth })).json()) as { result: { n: number; oldest: number; newest: number }[] }).result[0]!;
      expect(Number(q.n)).toBe(h.rows['edge.logs.prod']);
      expect(Number(q.newest)).toBe(first + (k - 1) * 1000);
      expect(Number(q.oldest)).toBe(first + m.evicted_for_budget * 1000);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
