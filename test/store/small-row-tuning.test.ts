// Sources of small rows (~480 B small edge events) compress their sealed blocks with a lazy zstd match
// search on top of level 3 (block-codec.ts SMALL_ROW_TUNING); sources of bigger rows keep the level alone.
// The tuning is chosen from the rows of the seal that samples the dictionary and survives a head image.

import { describe, expect, it } from 'vitest';
import { BLOCK_LEVEL, BlockCodec, LAZY_ROW_BYTES, SMALL_ROW_TUNING, tuningForRows } from '../../src/store/block-codec.ts';
import { Store, defaultStoreConfig } from '../../src/store/store.ts';
import { compressPendingNow } from '../../src/store/block-compressor.ts';
import { OpenSegment } from '../../src/store/open-segment.ts';
import { decodeHead, encodeHead, type HeadState } from '../../src/store/source-image.ts';
import type { SegmentSet } from '../../src/store/segment-set.ts';
import type { SchemaImage } from '../../src/store/schema-image.ts';
import { gatewayEvents as events } from './gateway-events.ts';


const rowsOf = (evs: readonly Record<string, unknown>[]): Buffer => Buffer.from(evs.map((e) => JSON.stringify(e)).join(''));
const codecOf = (store: Store): BlockCodec | null => (store.source('edge.logs.prod') as unknown as { rows: SegmentSet }).rows.codec;

describe('small-row zstd tuning', () => {
  it('applies to rows averaging under LAZY_ROW_BYTES only', () => {
    expect(LAZY_ROW_BYTES).toBe(640);
    expect(tuningForRows(480)).toBe(SMALL_ROW_TUNING);
    expect(tuningForRows(639.5)).toBe(SMALL_ROW_TUNING);
    // ~800 B rows (the demo's postgres.logs) save too little for ~4x level 1's CPU.
    expect(tuningForRows(640)).toBeNull();
    expect(tuningForRows(800)).toBeNull();
    expect(tuningForRows(1024)).toBeNull();
    expect(tuningForRows(2300)).toBeNull();
    expect(tuningForRows(0)).toBeNull();
  });

  it('holds ~64 KiB of small edge rows in fewer bytes than level 3 alone, and decodes them exactly', () => {
    const raw = rowsOf(events(150, 0)), dict = rowsOf(events(140, 0, 99)).subarray(0, 64 * 1024);
    const plain = new BlockCodec(dict), tuned = new BlockCodec(dict, undefined, BLOCK_LEVEL, SMALL_ROW_TUNING);
    const zp = plain.compress(raw), zt = tuned.compress(raw);
    // Measured on bench small events: 0.165x -> 0.1425x of their bytes (a seventh less); here at least a tenth.
    expect(zt.length).toBeLessThan(0.9 * zp.length);
    expect(tuned.decompress(zt).equals(raw)).toBe(true);
    // Frames decode with any codec of the same dictionary: the tuning is a compressor setting only.
    expect(plain.decompress(zt).equals(raw)).toBe(true);
  });

  it('is chosen at the seal that samples the dictionary: small rows get it, ~800 B and ~2 KB rows do not', () => {
    for (const [pad, want] of [[0, SMALL_ROW_TUNING], [320, null], [1800, null]] as const) {
      const store = new Store({ ...defaultStoreConfig({}), compress: true });
      const src = store.source('edge.logs.prod')!;
      const evs = events(4600, pad);
      for (let i = 0; i < evs.length; i += 500) src.ingest(evs.slice(i, i + 500), 1794974400000000 + 4600 * 604800);
      compressPendingNow();
      const codec = codecOf(store)!;
      expect(codec.dict).not.toBeNull();
      expect(codec.tuning).toBe(want);
      expect(src.rowCount).toBe(4600);
    }
  });

  it('survives a head image (new blocks after a restart compress as before)', () => {
    const codec = new BlockCodec(rowsOf(events(100, 0)).subarray(0, 32 * 1024), 8192, BLOCK_LEVEL, SMALL_ROW_TUNING);
    const plain = new BlockCodec(null, 8192);
    const state: HeadState = {
      hotKeys: [], wm: -Infinity, seq: 0, evictedRows: 0, droppedRows: 0, hotEpoch: 0, projectNames: [],
      hotValues: [], schema: { fields: [] } as unknown as SchemaImage, codecs: [codec, plain], current: codec, codecHasDict: true,
    };
    const back = decodeHead(encodeHead(state, new OpenSegment(0, 64)));
    expect(back.current!.tuning).toEqual(SMALL_ROW_TUNING);
    const restoredPlain = [...back.codecs.values()].find((c) => c.dict === null)!;
    expect(restoredPlain.tuning).toBeNull();
    const raw = rowsOf(events(60, 0, 3));
    expect(back.current!.compress(raw).equals(codec.compress(raw))).toBe(true);
  });
});
