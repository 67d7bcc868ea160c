// The checkpoint at the process level: a server stopped with SIGTERM writes a checkpoint and cuts its
// log; the next start loads the checkpoint (saying so, with MB/s), replays nothing, and answers the same.

import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, startMainProcess } from '../helpers/main-process.ts';

const auth = { Authorization: 'Bearer tok' };

describe('checkpoint across a restart', () => {
  it('SIGTERM checkpoints; the next start restores from it and answers the same rows', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'ringql-ckrestart-'));
    const env = { RINGQL_ACCESS_TOKENS: 'tok', RINGQL_STATE_DIR: stateDir };
    let port = await freePort();
    let child = await startMainProcess(port, env);
    const now = Date.now();
    const batch = Array.from({ length: 3000 }, (_, i) => ({ id: `ck-${i}`, timestamp: new Date(now - 60_000 + i).toISOString(), project: 'p1', event_message: `GET /rest/v1/t${i % 50}`, metadata: { request: { method: 'GET', path: `/rest/v1/t${i % 50}` } } }));
    for (let i = 0; i < batch.length; i += 500) {
      const r = await fetch(`http://127.0.0.1:${port}/api/logs?source_name=edge.logs.prod`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ batch: batch.slice(i, i + 500) }) });
      expect(r.status, await r.clone().text()).toBe(200);
    }
    const q = (p: number): Promise<string> => fetch(`http://127.0.0.1:${p}/api/endpoints/query/logs.all?project=p1&sql=${encodeURIComponent('select count(*) as n, count(distinct id) as d, min(timestamp) as a, max(timestamp) as b from edge_logs')}`, { headers: auth }).then((r) => r.text());
    const before = await q(port);
    expect(before).toContain('"n":3000');
    let err = '';
    child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(err).toMatch(/checkpoint 1 \(shutdown\)/);
    expect(readdirSync(join(stateDir, 'checkpoint'))).toContain('MANIFEST');

    port = await freePort();
    let out = '';
    child = await startMainProcess(port, env);
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
    try {
      expect(await q(port)).toBe(before);
      const health = await (await fetch(`http://127.0.0.1:${port}/health`)).json() as { durability: { checkpoint: { restored: { events: number } | null; disk_bytes: number; part_files: number }; recovery: { events: number } } };
      expect(health.durability.checkpoint.restored?.events).toBe(3000);
      expect(health.durability.checkpoint.part_files).toBeGreaterThan(0);
      expect(health.durability.checkpoint.disk_bytes).toBeGreaterThan(1000);
      expect(health.durability.recovery.events).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    void out;
  }, 90_000);
});
