// The partition streams (SPEC §13): one stream per partition on the mapped subjects `plogs.<p>.*.*`,
// replicated where there are servers for it, kept for the retention window, deduplicating retried
// publishes by Nats-Msg-Id.

import { RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { partitionSubjects, streamName } from './partition.ts';

export interface StreamOptions {
  partitions: number;
  replicas: number;
  retentionUs: number;
  /** Window in which a retried publish with the same Nats-Msg-Id is stored once (default 2 min). */
  duplicateWindowMs?: number;
}

/** Creates the partition streams that do not exist yet (retrying while the cluster elects leaders). */
export async function ensureStreams(jsm: JetStreamManager, o: StreamOptions, deadlineMs = 30_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (let p = 0; p < o.partitions; p++) {
    for (;;) {
      try {
        await jsm.streams.info(streamName(p));
        break;
      } catch {
        try {
          await jsm.streams.add({
            name: streamName(p),
            subjects: [partitionSubjects(p)],
            num_replicas: o.replicas,
            storage: StorageType.File,
            retention: RetentionPolicy.Limits,
            max_age: Math.max(1, Math.round(o.retentionUs * 1000)), // nanoseconds
            duplicate_window: (o.duplicateWindowMs ?? 120_000) * 1_000_000,
          });
          break;
        } catch (err) {
          if (Date.now() > until) throw new Error(`could not create stream ${streamName(p)}: ${err instanceof Error ? err.message : String(err)}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    }
  }
}
