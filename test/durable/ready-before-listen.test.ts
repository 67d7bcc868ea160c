// Issue 19 item 5: a log shipper retries only 408/429/5xx, so ringql must never answer ingest with a
// 401 or 404 because it is still starting. It listens only once tokens, endpoints and the recovered log
// are in place: ingest hammered from the moment the process starts either finds no listener or is
// stored (200), and every acknowledged event is there afterwards.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect, it } from 'vitest';
import { freePort, startMainProcess } from '../helpers/main-process.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { recoverStore } from '../../src/durable/durability.ts';
import { nowMicros } from '../../src/core/time.ts';
import { rawRequest } from '../http/helpers.ts';

const TOKEN = 'ready-token';
const headers = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
const batch = (from: number, n: number): string =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `r${from + i}`, project: 'p', event_message: `GET /x ${from + i}`, timestamp: new Date(Date.now() - 1000 - i).toISOString() })));

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

it('answers ingest only when ready: while starting and recovering there is no listener, never a 401 or 404', async () => {
  const stateDir = mkdtempSync(join(tmpdir(), 'ringql-ready-'));
  const env = { RINGQL_ACCESS_TOKENS: TOKEN, RINGQL_STATE_DIR: stateDir };
  const port = await freePort();
  // A log worth recovering (5 000 events), written in this process as a previous run would have.
  const store = new Store(defaultStoreConfig({}));
  const service = await createQueryService({ store, stateDir, cache: { sweepMs: 0 } });
  const prior = recoverStore(store, stateDir, { fsync: 'interval', fsyncMs: 100 }, { discardCorrupt: false, nowUs: nowMicros, log: () => {} });
  service.attachWal(prior.wal, prior.report);
  for (let i = 0; i < 5; i++) await service.ingest('edge.logs.prod', JSON.parse(batch(i * 1000, 1000)) as unknown[]);
  await prior.wal.close();
  service.close();

  const statuses: number[] = [];
  let refused = 0, acked = 0, done = false;
  const hammer = (async () => {
    for (let i = 0; !done; i++) {
      try {
        const r = await rawRequest(port, { method: 'POST', path: '/api/logs?source_name=edge.logs.prod', headers, body: batch(100_000 + i * 10, 10) });
        statuses.push(r.status);
        if (r.status === 200) acked += 10;
        if (acked >= 50) done = true;
      } catch {
        refused++;
        await new Promise((r) => setTimeout(r, 5));
      }
    }
  })();
  const second = await startMainProcess(port, env);
  try {
    await hammer;
    expect(refused).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const q = await rawRequest(port, { path: `/api/endpoints/query/logs.all?project=p&sql=${encodeURIComponent('select count(*) as n from edge_logs')}`, headers });
    expect(JSON.parse(q.body)).toEqual({ result: [{ n: 5_000 + acked }] });
  } finally {
    done = true;
    await stop(second);
  }
}, 30_000);
