// A real store through a real checkpoint and back: generated events of every source (enough to seal,
// sample a zstd dictionary, merge and evict), written as part files, loaded into a fresh store, and the
// write-ahead log's tail replayed — the saved endpoints and sandbox queries then answer byte for byte
// as the original store does, and a second checkpoint writes only what changed.

import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { createQueryService } from '../../src/endpoints/service.ts';
import { generateEvents } from '../../src/gen/generate.ts';
import { serializeEvent } from '../../src/gen/serialize.ts';
import { Wal } from '../../src/durable/wal.ts';
import { checkpointSources, recoverStore } from '../../src/durable/durability.ts';
import type { RunRequest } from '../../src/endpoints/service-types.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z') * 1000;

function events(n: number, seed: number): Map<string, unknown[]> {
  const by = new Map<string, unknown[]>();
  for (const { source, event } of generateEvents({ events: n, projects: 3, days: 2, seed, endUs: NOW })) {
    let list = by.get(source);
    if (!list) by.set(source, (list = []));
    list.push(JSON.parse(serializeEvent(source, event)) as unknown);
  }
  return by;
}

const config = () => ({ ...defaultStoreConfig({}), segmentRows: 512, retentionUs: 36 * 3600e6 });

async function answers(store: Store): Promise<string[]> {
  const service = await createQueryService({ store, stateDir: null, nowMicros: () => NOW, cache: { sweepMs: 0 } });
  const out: string[] = [];
  const run = async (endpoint: string, params: Record<string, string>): Promise<void> => {
    const req: RunRequest = { endpoint, params: new Map(Object.entries(params)), redactHeader: false };
    out.push((await service.run(req)).body.toString('utf8'));
  };
  for (const project of ['default', 'proj-1', 'proj-2']) {
    await run('logs.all', { project });
    await run('logs.all', { project, sql: 'select count(*) as n, min(timestamp) as a, max(timestamp) as b from edge_logs' });
    await run('logs.all', { project, sql: "select id, event_message from postgres_logs order by timestamp desc, id limit 50" });
    for (const interval of ['minutely', 'hourly', 'daily']) await run('usage.api-counts', { project, interval });
  }
  for (const s of store.sources()) out.push(`${s.def.name} ${s.rowCount} ${JSON.stringify(s.schema())}`);
  service.close();
  return out;
}

describe('checkpoint of a real store', () => {
  it('restores every answer byte for byte, with the log tail replayed on top', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ringql-ckstore-'));
    const a = new Store(config());
    const wal = Wal.open({ dir: join(dir, 'wal'), fsync: 'interval', fsyncMs: 50 }, []);
    const { Checkpointer } = await import('../../src/durable/checkpointer.ts');
    const ck = new Checkpointer(join(dir, 'checkpoint'), wal);
    const { encodeBatch } = await import('../../src/durable/batch-record.ts');
    const { RECORD_BATCH } = await import('../../src/durable/record-frame.ts');
    const logged = (name: string, batch: unknown[]): void => {
      a.source(name)!.ingest(batch, NOW, (maxTs) => wal.appendSync(RECORD_BATCH, encodeBatch(name, batch), maxTs));
    };
    for (const [name, list] of events(12_000, 7)) for (let i = 0; i < list.length; i += 500) logged(name, list.slice(i, i + 500));
    const first = await ck.checkpoint(checkpointSources(a));
    expect(first).not.toBeNull();
    // After the checkpoint: more events (only in the log), and eviction of the oldest day.
    for (const [name, list] of events(3_000, 8)) for (let i = 0; i < list.length; i += 500) logged(name, list.slice(i, i + 500));
    a.evict(NOW);
    await wal.close();

    const b = new Store(config());
    const lines: string[] = [];
    const rec = recoverStore(b, dir, { fsync: 'interval', fsyncMs: 50 }, { discardCorrupt: false, nowUs: () => NOW, log: (l) => lines.push(l) });
    expect(rec.fromCheckpoint?.events).toBeGreaterThan(0);
    expect(rec.report.events).toBe(3_000); // only the tail after the checkpoint is replayed
    expect(lines.join('\n')).toMatch(/checkpoint 1: \d+ events in \d+ parts/);
    b.evict(NOW);
    expect(await answers(b)).toEqual(await answers(a));

    // A second checkpoint of the restored store writes its heads and the new segments, not the old ones.
    const before = readdirSync(join(dir, 'checkpoint')).filter((f) => f.endsWith('.part'));
    const second = await rec.checkpointer.checkpoint(checkpointSources(b));
    expect(second!.partsWritten).toBeLessThan(before.length + b.sources().length);
    await rec.wal.close();
    const disk = readdirSync(join(dir, 'checkpoint')).reduce((n, f) => n + statSync(join(dir, 'checkpoint', f)).size, 0);
    expect(disk).toBeGreaterThan(0);
  }, 60_000);
});
