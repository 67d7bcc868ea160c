// Whether a source of small rows gets SMALL_ROW_TUNING's lazy match search: a trial at the seal that samples its
// dictionary compresses a stretch of its rows both ways and keeps the lazy search only where it saves bytes.

import { Compressor } from 'zstd-napi';
import { BLOCK_BYTES, BLOCK_LEVEL, SMALL_ROW_TUNING, tuningForRows, type BlockTuning } from './block-codec.ts';

/** Raw bytes of rows the trial compresses with each setting (two blocks). */
export const TRIAL_BYTES = 2 * BLOCK_BYTES;
/**
 * Least share of the trial's raw bytes the lazy search must save to be kept (it moves the resident ÷ NDJSON
 * ratio by about as much), for ~4-6x level 1's compression CPU. Trials without the dictionary: ~480 B random-id
 * gateway rows (bench/small-events.ts) save 1.9 % of their raw bytes (the blocks with the dictionary: 0.166x ->
 * 0.146x, 80.5 -> 70.9 B a row); templated rows whose values cycle (bench/ingest-corpus.ts's ~600 B edge events)
 * 0.05 % (0.031x either way), for 2.2 against 0.35 µs a row (bench/MEMORY.md, 2026-11-25 "Codec trial").
 */
export const TUNING_MIN_SAVING = 0.005;

/** Compressed bytes of `blocks` at BLOCK_LEVEL plus `tuning`. */
function compressedBytes(blocks: readonly Uint8Array[], tuning: BlockTuning | null): number {
  const c = new Compressor();
  c.setParameters({ compressionLevel: BLOCK_LEVEL, ...tuning });
  let n = 0;
  for (const b of blocks) n += c.compress(b).length;
  return n;
}

/**
 * Rows in `order` (the seal's (project, ts) order) from its middle on, joined into blocks of BLOCK_BYTES,
 * until TRIAL_BYTES (fewer when the rows run out).
 */
export function trialBlocks(order: ArrayLike<number>, row: (i: number) => Uint8Array): Uint8Array[] {
  const blocks: Uint8Array[] = [];
  let parts: Uint8Array[] = [], bytes = 0, total = 0;
  for (let k = Math.floor(order.length / 2); k < order.length && total < TRIAL_BYTES; k++) {
    const b = row(order[k]!);
    parts.push(b);
    bytes += b.length;
    total += b.length;
    if (bytes >= BLOCK_BYTES) { blocks.push(Buffer.concat(parts)); parts = []; bytes = 0; }
  }
  if (parts.length) blocks.push(Buffer.concat(parts));
  return blocks;
}

/**
 * The tuning a codec of rows averaging `meanRowBytes` takes: none for big rows (tuningForRows); for small ones
 * SMALL_ROW_TUNING when it holds the rows `trial()` gives (trialBlocks; made only for small rows) in
 * TUNING_MIN_SAVING of their raw bytes fewer than level 1 does. Without the dictionary: it is sampled from the
 * same seal, so a share of the trial's rows would be in it whole and hide what the search finds between rows.
 */
export function chooseTuning(meanRowBytes: number, trial: () => readonly Uint8Array[]): BlockTuning | null {
  const tuning = tuningForRows(meanRowBytes);
  if (tuning === null) return null;
  const blocks = trial();
  if (blocks.length === 0) return tuning;
  let raw = 0;
  for (const b of blocks) raw += b.length;
  const plain = compressedBytes(blocks, null), tuned = compressedBytes(blocks, tuning);
  return plain - tuned >= raw * TUNING_MIN_SAVING ? SMALL_ROW_TUNING : null;
}
