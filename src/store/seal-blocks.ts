// The row bytes of a seal, made at once: the open segment's rows gathered in seal order into one pooled
// slab (seal-slabs.ts) with one native copy, cut into the same ~64 KiB blocks BlockRowsBuilder makes.

import type { OpenSegment } from './open-segment.ts';
import { Block, BlockRows } from './row-blocks.ts';
import type { BlockCodec } from './block-codec.ts';
import { enqueueCompression } from './block-compressor.ts';
import type { SealSlabs } from './seal-slabs.ts';

/** Most rows one block holds (slot numbers are 16-bit; as row-blocks.ts). */
const MAX_BLOCK_ROWS = 65535;

/**
 * Rows order[0, n) of `open` as compressed-to-be blocks: a block ends at the first row that brings it to
 * codec.blockBytes or MAX_BLOCK_ROWS rows, as BlockRowsBuilder cuts them. The blocks are queued for
 * compression and the slab is lent to `slabs` until they all are compressed.
 */
export function sealBlocks(open: OpenSegment, order: Uint32Array, codec: BlockCodec, slabs: SealSlabs): BlockRows {
  const n = order.length;
  // Where each row starts in the slab (pos[n]: the total), and where its JSON ends.
  const pos = new Float64Array(n + 1), jsonEnd = new Float64Array(n);
  // Block j holds rows [cut[j], cut[j + 1]).
  const cut: number[] = [0];
  let at = 0, blockStart = 0;
  for (let i = 0; i < n; i++) {
    const r = order[i]!;
    pos[i] = at;
    jsonEnd[i] = at + open.jsonBytesOf(r);
    at = jsonEnd[i]! + open.extraBytesOf(r);
    if (at - pos[blockStart]! >= codec.blockBytes || i + 1 - blockStart >= MAX_BLOCK_ROWS) { cut.push(i + 1); blockStart = i + 1; }
  }
  pos[n] = at;
  if (cut[cut.length - 1] !== n) cut.push(n);
  const slab = slabs.take(at);
  open.gatherRows(order, n, slab, 0);
  const blocks: Block[] = [];
  const blk = new Uint32Array(n), slot = new Uint16Array(n);
  for (let j = 0; j + 1 < cut.length; j++) {
    const lo = cut[j]!, hi = cut[j + 1]!, base = pos[lo]!;
    const ends = new Float64Array(hi - lo + 1), jsonEnds = new Float64Array(hi - lo);
    for (let i = lo; i < hi; i++) {
      ends[i - lo + 1] = pos[i + 1]! - base;
      jsonEnds[i - lo] = jsonEnd[i]! - base;
      blk[i] = j;
      slot[i] = i - lo;
    }
    const block = Block.fromEnds(slab.subarray(base, pos[hi]!), codec, ends, jsonEnds);
    blocks.push(block);
    enqueueCompression(block);
  }
  slabs.lend(slab, blocks);
  return new BlockRows(blocks, blk, slot);
}
