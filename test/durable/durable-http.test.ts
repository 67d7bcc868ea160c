// Durable ingest over real HTTP: a batch is logged before it is stored, so a failing disk (the log's next
// file is /dev/full) answers 503 storage_unavailable and stores nothing of it while queries go on; once
// the disk takes writes again, ingest works; a restart over the same state brings back what was acknowledged.

import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { recoverStore } from '../../src/durable/durability.ts';
import { walFileName } from '../../src/durable/wal.ts';
import { nowMicros } from '../../src/core/time.ts';
import { bearer, rawRequest, startTestServer, TOKENS } from '../http/helpers.ts';

const auth = bearer(TOKENS.priv);

async function durableServer(stateDir: string) {
  const store = new Store(defaultStoreConfig({}));
  const service = await createQueryService({ store, stateDir, cache: { sweepMs: 0 } });
  const recovered = recoverStore(store, stateDir, { fsync: 'always', fsyncMs: 100 }, { discardCorrupt: false, nowUs: nowMicros, log: () => {} });
  service.attachWal(recovered.wal, recovered.report);
  const server = await startTestServer(service);
  const post = (events: unknown[]) => rawRequest(server.port, { method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(events) });
  const count = async (): Promise<number> => {
    const r = await rawRequest(server.port, { path: `/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent('select count(*) as n from edge_logs')}`, headers: auth });
    return (JSON.parse(r.body) as { result: { n: number }[] }).result[0]!.n;
  };
  const stop = async (): Promise<void> => { await server.close(); await recovered.wal.close(); service.close(); };
  return { post, count, stop, recovered, service, server };
}

const ev = (i: number) => ({ id: `d${i}`, project: 'p', event_message: `m${i}`, timestamp: new Date(Date.now() - 1000 * (i + 1)).toISOString() });

describe('durable ingest', () => {
  it('a failing disk answers 503 storage_unavailable and stores nothing; queries go on; writes resume; a restart keeps what was acknowledged', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'ringql-durable-'));
    const a = await durableServer(stateDir);
    expect((await a.post([ev(0), ev(1)])).status).toBe(200);
    await a.stop();

    // The next run's log file is /dev/full: its first write fails with ENOSPC.
    symlinkSync('/dev/full', join(stateDir, 'wal', walFileName(2)));
    const b = await durableServer(stateDir);
    expect(await b.count()).toBe(2);
    const failed = await b.post([ev(2), ev(3), ev(4)]);
    expect(failed.status).toBe(503);
    expect(JSON.parse(failed.body).error.code).toBe('storage_unavailable');
    expect(failed.headers['retry-after']).toBe('1');
    expect(await b.count()).toBe(2);
    // The log moves on to a new file: the retry is stored and acknowledged.
    expect((await b.post([ev(2), ev(3), ev(4)])).status).toBe(200);
    expect(await b.count()).toBe(5);
    const health = JSON.parse((await rawRequest(b.server.port, { path: '/health' })).body);
    expect(health.durability.wal.write_errors).toBe(1);
    expect(health.durability.recovery.events).toBe(2);
    await b.stop();

    const c = await durableServer(stateDir);
    expect(await c.count()).toBe(5);
    expect(c.recovered.report.events).toBe(5);
    await c.stop();
  });

  it('ids generated at ingest are the same after a restart', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'ringql-durable-'));
    const a = await durableServer(stateDir);
    expect((await a.post([{ project: 'p', event_message: 'no id, no timestamp' }])).status).toBe(200);
    const q = async (s: Awaited<ReturnType<typeof durableServer>>) =>
      (await rawRequest(s.server.port, { path: `/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent('select id, timestamp from edge_logs')}`, headers: auth })).body;
    const before = await q(a);
    await a.stop();
    const b = await durableServer(stateDir);
    expect(await q(b)).toBe(before);
    await b.stop();
  });
});
