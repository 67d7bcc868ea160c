// A source of small rows keeps the lazy match search (SMALL_ROW_TUNING) only where a trial at its dictionary's
// seal shows it saving bytes (codec-trial.ts): random-id gateway rows keep it, templated rows take level 1 alone.

import { describe, expect, it } from 'vitest';
import { SMALL_ROW_TUNING } from '../../src/store/block-codec.ts';
import { TRIAL_BYTES, chooseTuning, trialBlocks } from '../../src/store/codec-trial.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import type { SegmentSet } from '../../src/store/segment-set.ts';
import { gatewayEvents } from './gateway-events.ts';

const T0 = 1794974400000000;


/** Templated rows whose every value cycles through a few (bench/ingest-corpus.ts's ~600 B edge events). */
function templatedRows(n: number): Record<string, unknown>[] {
  const paths = ['/rest/v1/orders', '/auth/v1/token', '/storage/v1/object/public/avatars/a.png', '/functions/v1/hello', '/rest/v1/rpc/search'];
  const methods = ['GET', 'POST', 'PATCH', 'DELETE'];
  return Array.from({ length: n }, (_, i) => {
    const path = paths[i % paths.length]!;
    return {
      id: `0b7e3f1a-5c2d-4e8f-9a1b-${String(i).padStart(12, '0')}`, timestamp: T0 + i * 604800, project: `proj${i % 5}`,
      event_message: `${methods[i % 4]} | ${200 + (i % 5)} | 203.0.113.${i % 250} | cf-ray-${(i * 7919).toString(16)} | https://abcdefghij.example.co${path}`,
      metadata: {
        request: { method: methods[i % 4], path, url: `https://abcdefghij.example.co${path}?limit=${i % 100}`, host: 'abcdefghij.example.co', headers: { user_agent: 'supabase-js/2.39.0' } },
        response: { status_code: 200 + (i % 5), origin_time: 12 + (i % 300), headers: { content_type: 'application/json', cf_cache_status: 'DYNAMIC' } },
      },
    };
  });
}

const bytesOf = (rows: readonly Record<string, unknown>[]): Buffer[] => rows.map((e) => Buffer.from(JSON.stringify(e)));
/** Row bytes sorted by project then arrival, as a seal orders them (the trial's input). */
function sorted(rows: readonly Record<string, unknown>[]): { order: number[]; row: (i: number) => Uint8Array } {
  const b = bytesOf(rows);
  const order = rows.map((_, i) => i).sort((x, y) => String(rows[x]!.project).localeCompare(String(rows[y]!.project)) || x - y);
  return { order, row: (i) => b[i]! };
}

describe('codec trial: the lazy search only where it pays', () => {
  it('takes two blocks of rows from the middle of the seal order', () => {
    const { order, row } = sorted(gatewayEvents(1200));
    const blocks = trialBlocks(order, row);
    expect(blocks.length).toBe(2);
    const total = blocks.reduce((s, b) => s + b.length, 0);
    expect(total).toBeGreaterThanOrEqual(TRIAL_BYTES);
    // The first block starts with the row at the middle of the order.
    expect(Buffer.from(blocks[0]!).subarray(0, row(order[600]!).length).equals(row(order[600]!))).toBe(true);
  });

  it('keeps SMALL_ROW_TUNING for random-id rows and drops it for templated ones', () => {
    const random = sorted(gatewayEvents(1200)), templated = sorted(templatedRows(1200));
    // Random ids: the lazy search finds the longer matches between them (bench small events: 0.166x -> 0.146x).
    expect(chooseTuning(480, () => trialBlocks(random.order, random.row))).toBe(SMALL_ROW_TUNING);
    // Templated rows: level 1 already finds their long repeats (bench: 18.6 B a row either way).
    expect(chooseTuning(560, () => trialBlocks(templated.order, templated.row))).toBeNull();
  });

  it('runs no trial for rows of 1 KiB and more', () => {
    expect(chooseTuning(2300, () => { throw new Error('no trial for big rows'); })).toBeNull();
  });

  it('is what a store picks at the seal that samples the dictionary', () => {
    for (const [make, want] of [[gatewayEvents, SMALL_ROW_TUNING], [templatedRows, null]] as const) {
      const store = new Store({ ...defaultStoreConfig({}), compress: true });
      const src = store.source('edge.logs.prod')!;
      const evs = make(4600);
      for (let i = 0; i < evs.length; i += 500) src.ingest(evs.slice(i, i + 500), T0 + 4600 * 604800);
      compressPendingNow();
      const codec = (store.source('edge.logs.prod') as unknown as { rows: SegmentSet }).rows.codec!;
      expect(codec.dict).not.toBeNull();
      expect(codec.tuning).toBe(want);
      expect(src.rowCount).toBe(4600);
    }
  });
});
