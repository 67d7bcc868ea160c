// Durability at start (SPEC §12): recovery — replay the write-ahead log into the store before the
// server listens, with progress — then the log for new batches.

import { join } from 'node:path';
import type { DurabilityConfig } from '../core/config.ts';
import { RingqlError } from '../core/errors.ts';
import type { Store } from '../store/store.ts';
import { compressionCaughtUp } from '../store/block-compressor.ts';
import { decodeBatch, decodeRawBatch, type RawBatch } from './batch-record.ts';
import { RECORD_BATCH, RECORD_RAW_BATCH } from './record-frame.ts';
import { Wal } from './wal.ts';
import { recoverWal, type RecoveryReport } from './wal-recovery.ts';
import { Checkpointer, type Checkpointable } from './checkpointer.ts';
import { loadCheckpoint } from './checkpoint-load.ts';

export type { DurabilityConfig } from '../core/config.ts';

export interface Recovered {
  wal: Wal;
  report: RecoveryReport;
  /** Writes checkpoints of the store into `<stateDir>/checkpoint` (main.ts decides when). */
  checkpointer: Checkpointer;
  /** What the last checkpoint gave back: events in its parts, bytes read, time taken. */
  fromCheckpoint: { id: number; events: number; bytes: number; ms: number } | null;
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
  const ckDir = join(stateDir, 'checkpoint');
  const fromCheckpoint = restoreCheckpoint(store, ckDir, opts);
  let refused = 0;
  let lastReport = performance.now();
  let events = 0, bytes = 0;
  const t0 = performance.now();
  const report = recoverWal({ dir, discardCorrupt: opts.discardCorrupt, log: opts.log, fromSeq: fromCheckpoint?.walFrom ?? 0 }, (type, payload) => {
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
  const checkpointer = new Checkpointer(ckDir, wal, opts.log, () => compressionCaughtUp());
  // What a running checkpoint holds besides the store counts against RINGQL_MAX_MEMORY while it is held.
  store.countCheckpoint(() => checkpointer.heldBytes());
  return { wal, report, refused, checkpointer, fromCheckpoint: fromCheckpoint && { id: fromCheckpoint.id, events: fromCheckpoint.events, bytes: fromCheckpoint.bytes, ms: fromCheckpoint.ms } };
}

/**
 * Loads the last checkpoint's parts into the store's (empty) sources; a source whose head part was set
 * aside (--discard-corrupt) starts empty, as its sealed parts mean nothing without its dictionaries.
 */
function restoreCheckpoint(store: Store, dir: string, opts: { discardCorrupt: boolean; log: (line: string) => void }): { id: number; walFrom: number; events: number; bytes: number; ms: number } | null {
  const t0 = performance.now();
  const ck = loadCheckpoint(dir, opts);
  if (ck === null) return null;
  let events = 0;
  for (const [name, parts] of ck.sources) {
    const source = store.source(name);
    if (!source) throw new Error(`The checkpoint in ${dir} holds a source named ${name}, which this build does not have`);
    if (parts[0]?.key !== 'head') {
      opts.log(`ringql: WARNING: ${name}: its checkpoint head was set aside, so its checkpointed events are not loaded`);
      continue;
    }
    source.restoreImage(parts);
    // Rows the store evicted while that checkpoint wrote its parts stay evicted.
    const wm = ck.manifest.sources.find((s) => s.name === name)?.watermarkUs;
    if (wm !== undefined) source.raiseWatermark(wm);
    events += parts.reduce((n, p) => n + p.events, 0);
  }
  const ms = performance.now() - t0;
  opts.log(`ringql: checkpoint ${ck.manifest.id}: ${events} events in ${[...ck.sources.values()].reduce((n, p) => n + p.length, 0)} parts, ` +
    `${(ck.bytes / 2 ** 20).toFixed(1)} MB in ${(ms / 1000).toFixed(2)} s (${(ck.bytes / 2 ** 20 / Math.max(ms / 1000, 1e-3)).toFixed(1)} MB/s)`);
  return { id: ck.manifest.id, walFrom: ck.manifest.walFrom, events, bytes: ck.bytes, ms };
}

/** The store's sources as the Checkpointer takes them. */
export function checkpointSources(store: Store): Checkpointable[] {
  return store.sources().map((s) => ({ name: s.def.name, checkpointParts: () => s.checkpointParts(), watermark: () => s.watermarkUs() }));
}
