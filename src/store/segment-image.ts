// A sealed segment as checkpoint chunks and back: its row columns as typed arrays and its rows as the
// compressed zstd blocks it holds (a block not compressed yet is compressed first), so a restart reads
// the segment back without parsing or recompressing a row.

import type { BlockCodec } from './block-codec.ts';
import { Block, BlockRows } from './row-blocks.ts';
import { narrowed, uintArrayFor, type UintArray } from './narrow.ts';
import { Segment, type Run } from './segment.ts';
import { TsColumn } from './ts-column.ts';
import { ChunkReader, arrayChunk, jsonChunk, readArray, readUint } from './image-io.ts';

interface SegmentHeader {
  n: number;
  seqBase: number;
  hotCount: number;
  runs: [pid: number, start: number, end: number][];
  /** Per block: the key of the codec that compressed it. */
  blocks: string[];
}

/** Whether the segment can be written (its rows are in blocks: a store with compression on). */
export function segmentHasBlocks(seg: Segment): boolean {
  return seg.rows instanceof BlockRows;
}

/** The segment's chunks; `codecKey` names each block's codec (the source writes the codecs apart). */
export function encodeSegment(seg: Segment, codecKey: (c: BlockCodec) => string): Buffer[] {
  const rows = seg.rows;
  if (!(rows instanceof BlockRows)) throw new Error('only segments with compressed blocks can be written to a checkpoint');
  const index = new Map<Block, number>();
  const blk = uintArrayFor(seg.n, Math.max(0, rows.blocks.length - 1));
  const slot = new Uint16Array(seg.n);
  rows.blocks.forEach((b, i) => index.set(b, i));
  for (let r = 0; r < seg.n; r++) {
    blk[r] = index.get(rows.blockOf(r))!;
    slot[r] = rows.slotOf(r);
  }
  for (const b of rows.blocks) b.compress();
  const header: SegmentHeader = {
    n: seg.n,
    seqBase: seg.seqBase,
    hotCount: seg.hot.length,
    runs: [...seg.runs].map(([pid, r]) => [pid, r.start, r.end]),
    blocks: rows.blocks.map((b) => codecKey(b.codec)),
  };
  const out = [jsonChunk(header), arrayChunk(seg.ts.toFloat64()), arrayChunk(seg.seq), arrayChunk(seg.pid), arrayChunk(seg.byTs), arrayChunk(seg.shape)];
  for (const h of seg.hot) out.push(arrayChunk(h));
  out.push(arrayChunk(blk), arrayChunk(slot));
  for (const b of rows.blocks) {
    const { ends, jsonEnds } = b.endsTables();
    out.push(b.comp!, arrayChunk(ends), arrayChunk(jsonEnds));
  }
  return out;
}

/** The segment `chunks` hold; `codecs` by key (from the source's head part). */
export function decodeSegment(chunks: readonly Buffer[], codecs: ReadonlyMap<string, BlockCodec>): Segment {
  const rd = new ChunkReader(chunks, 'a segment part');
  const h = rd.json<SegmentHeader>();
  const ts = readArray(rd.next());
  if (!(ts instanceof Float64Array) || ts.length !== h.n) throw new Error('checkpoint image: a segment\'s timestamps do not match its row count');
  // Sequence numbers as segment-build.ts holds them (32-bit, one array kind for the scan loops, the same
  // bytes counted before and after a restart), whatever width the image carries.
  const seq32 = readUint(rd.next());
  const seq = seq32 instanceof Uint32Array ? seq32 : Uint32Array.from(seq32);
  const pid = readUint(rd.next());
  const byTs = readArray(rd.next());
  if (!(byTs instanceof Uint32Array)) throw new Error('checkpoint image: a segment\'s ts order is not 32-bit');
  const shape = readUint(rd.next());
  const hot: UintArray[] = [];
  for (let i = 0; i < h.hotCount; i++) hot.push(readUint(rd.next()));
  const blk = readUint(rd.next());
  const slot = readArray(rd.next());
  if (!(slot instanceof Uint16Array)) throw new Error('checkpoint image: a segment\'s block slots are not 16-bit');
  const blocks = h.blocks.map((key) => {
    const codec = codecs.get(key);
    if (!codec) throw new Error(`checkpoint image: a block names codec ${key}, which the source's head part does not hold`);
    // A view into the part file's buffer, not a copy: the file is almost all block bytes anyway.
    const comp = rd.next();
    return Block.fromCompressed(comp, codec, readUint(rd.next()), readUint(rd.next()));
  });
  rd.done();
  for (const c of [seq, pid, shape, ...hot, blk, slot]) {
    if (c.length !== h.n) throw new Error('checkpoint image: a segment column does not match its row count');
  }
  const runs = new Map<number, Run>(h.runs.map(([p, start, end]) => [p, { start, end }]));
  return new Segment(TsColumn.of(ts), seq, h.seqBase, pid, new BlockRows(blocks, blk, narrowed(slot)), hot, byTs, runs, shape);
}
