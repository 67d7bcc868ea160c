// Durability at start (SPEC §12): its settings from the environment, and recovery — replay the
// write-ahead log into the store before the server listens, with progress — then the log for new batches.

import { join } from 'node:path';
import { durabilityConfig, type DurabilityConfig } from '../core/config.ts';
import { RingqlError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import { decodeBatch } from './batch-record.ts';
import { RECORD_BATCH } from './record-frame.ts';
import { Wal } from './wal.ts';
import { recoverWal, type RecoveryReport } from './wal-recovery.ts';

export type { DurabilityConfig } from '../core/config.ts';

/** The durability section of the configuration: RINGQL_FSYNC and RINGQL_FSYNC_MS. */
export function durabilityFromEnv(env: Record<string, string | undefined>): DurabilityConfig {
  return durabilityConfig(env);
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
export function recoverStore(store: Store, stateDir: string, cfg: DurabilityConfig, opts: { discardCorrupt: boolean; nowUs: () => number; log: (line: string) => void }): Recovered {
  const dir = join(stateDir, 'wal');
  let refused = 0;
  let lastReport = performance.now();
  let events = 0, bytes = 0;
  const t0 = performance.now();
  const report = recoverWal({ dir, discardCorrupt: opts.discardCorrupt, log: opts.log }, (type, payload) => {
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
