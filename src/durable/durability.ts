// Durability at start (SPEC §12): its settings from the environment, and recovery — replay the
// write-ahead log into the store before the server listens, with progress — then the log for new batches.

import { join } from 'node:path';
import { RingqlError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import { decodeBatch, decodeRawBatch, type RawBatch } from './batch-record.ts';
import { RECORD_BATCH, RECORD_RAW_BATCH } from './record-frame.ts';
import { Wal, type FsyncMode } from './wal.ts';
import { recoverWal, type RecoveryReport } from './wal-recovery.ts';

export interface DurabilityConfig {
  fsync: FsyncMode;
  fsyncMs: number;
}

export function durabilityFromEnv(env: Record<string, string | undefined>): DurabilityConfig {
  const mode = (env.RINGQL_FSYNC ?? '').trim().toLowerCase() || 'interval';
  if (mode !== 'always' && mode !== 'interval') throw new Error(`RINGQL_FSYNC="${env.RINGQL_FSYNC}" is not valid: expected always or interval`);
  const raw = (env.RINGQL_FSYNC_MS ?? '').trim();
  const ms = raw === '' ? 100 : Number(raw);
  if (!Number.isInteger(ms) || ms < 1 || ms > 60_000) throw new Error(`RINGQL_FSYNC_MS="${env.RINGQL_FSYNC_MS}" is not valid: expected an integer from 1 to 60000`);
  return { fsync: mode, fsyncMs: ms };
}

export interface Recovered {
  wal: Wal;
  report: RecoveryReport;
  /** Batches the store refused at replay (the data or a limit changed since they were acknowledged). */
  refused: number;
}

/**
 * Replays `<stateDir>/wal` into `store` (events older than retention are dropped as at ingest), then opens
 * the log for new batches. Throws CorruptWalError (with what to do) on damage other than a torn tail.
 */
/** Stores a raw batch record again as it was stored at ingest (same bytes, fill-in time and id seed). */
function replayRaw(store: Store, b: RawBatch, nowUs: number, refuse: (why: string) => void): { events: number; maxTs: number } {
  const source = store.source(b.source);
  let maxTs = -Infinity;
  if (!source) { refuse(`no source ${b.source}`); return { events: 0, maxTs }; }
  try {
    const r = source.ingestBytes(b.body, b.ndjson, nowUs, { fillUs: b.fillUs, idSeed: b.idSeed, beforeCommit: (m) => { maxTs = m; } });
    if (typeof r === 'string') { refuse(r); return { events: 0, maxTs }; }
    return { events: r.stored + r.dropped, maxTs };
  } catch (err) {
    if (!(err instanceof RingqlError)) throw err;
    refuse(err.message);
    return { events: 0, maxTs };
  }
}

export function recoverStore(store: Store, stateDir: string, cfg: DurabilityConfig, opts: { discardCorrupt: boolean; nowUs: () => number; log: (line: string) => void }): Recovered {
  const dir = join(stateDir, 'wal');
  let refused = 0;
  let lastReport = performance.now();
  let events = 0, bytes = 0;
  const t0 = performance.now();
  const report = recoverWal({ dir, discardCorrupt: opts.discardCorrupt, log: opts.log }, (type, payload) => {
    if (type === RECORD_RAW_BATCH) {
      bytes += payload.length;
      const r = replayRaw(store, decodeRawBatch(payload), opts.nowUs(), (why) => {
        refused++;
        if (refused <= 5) opts.log(`ringql: WARNING: a logged raw batch was refused at replay: ${why}`);
      });
      events += r.events;
      return r;
    }
    if (type !== RECORD_BATCH) return { events: 0, maxTs: -Infinity };
    const b = decodeBatch(payload);
    bytes += payload.length;
    const source = store.source(b.source);
    let maxTs = -Infinity;
    try {
      if (!source) throw new RingqlError('source_not_found', `no source ${b.source}`);
      source.ingest(b.events, opts.nowUs(), (m) => { maxTs = m; });
    } catch (err) {
      if (!(err instanceof RingqlError)) throw err;
      refused++;
      if (refused <= 5) opts.log(`ringql: WARNING: a logged batch of ${b.events.length} events for ${b.source} was refused at replay: ${err.message}`);
    }
    events += b.events.length;
    if (performance.now() - lastReport > 2000) {
      lastReport = performance.now();
      const s = (lastReport - t0) / 1000;
      opts.log(`ringql: recovery: ${events} events so far (${(bytes / 2 ** 20 / s).toFixed(1)} MB/s)`);
    }
    return { events: b.events.length, maxTs };
  });
  if (refused > 5) opts.log(`ringql: WARNING: ${refused} logged batches in all were refused at replay`);
  const wal = Wal.open({ dir, fsync: cfg.fsync, fsyncMs: cfg.fsyncMs, log: opts.log }, report.files);
  return { wal, report, refused };
}
