// Bodies of 256 KiB and more, whose row buffer the addon faults in with one madvise before writing: JSON
// and NDJSON, sizes on and around page boundaries, the last row ending on the body's last byte; the
// stored rows must be the reference path's.

import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../src/core/time.ts';
import { smallEdgeEvent } from '../../bench/ingest-corpus.ts';
import { ingestBoth, snapshot, twinStores } from './byte-ingest-diff.ts';

const NOW = parseTimestamp('2025-01-15T12:00:00Z')!;

/** `events` edge events of ~600 B, then padding in the last event's message so the body is exactly `bytes` long. */
function body(events: number, bytes: number, ndjson: boolean): Buffer {
  const lines = Array.from({ length: events }, (_, i) => smallEdgeEvent(i, NOW));
  const join = (l: string[]): string => (ndjson ? l.join('\n') : `{"batch":[${l.join(',')}]}`);
  const short = bytes - Buffer.byteLength(join(lines)) - `,"pad":""`.length;
  if (short < 0) throw new Error(`${events} events do not fit in ${bytes} bytes`);
  lines[events - 1] = lines[events - 1]!.replace(/}$/, `,"pad":"${'x'.repeat(short)}"}`);
  const b = Buffer.from(join(lines));
  expect(b.length).toBe(bytes);
  return b;
}

describe('bodies past 256 KiB (row buffer faulted in at once)', () => {
  it('store exactly what the reference path stores, JSON and NDJSON, around page and size boundaries', () => {
    for (const ndjson of [false, true]) {
      const t = twinStores('edge.logs.prod');
      const sizes = [256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 300 * 1024 + 4095, 512 * 1024 + 7];
      for (const size of sizes) {
        const r = ingestBoth(t, body(Math.floor(size / 640), size, ndjson), ndjson ? 'application/x-ndjson' : 'application/json', NOW);
        expect(r.fast).toEqual(r.ref);
      }
      expect(t.took).toBe(sizes.length);
      expect(snapshot(t.fast)).toEqual(snapshot(t.ref));
    }
  });
});
