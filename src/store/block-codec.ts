// zstd for sealed row blocks: one codec per source, plain at first and, once a seal has enough rows
// to sample, with a raw-content dictionary made of sampled rows (zstd-napi 0.0.13 has no training).

import { Compressor, Decompressor } from 'zstd-napi';

/**
 * zstd level of sealed blocks: 1 (strategy "fast"). Over the bench corpora's sealed 64 KiB blocks with
 * their sampled dictionaries it compresses at ~1.9x level 3's rate (demo events: 2.2-2.5 against 4.2-4.5
 * CPU µs per event) and holds them in about as few bytes: demo rows 0.149x of their raw bytes against
 * 0.146x at 3 (bench/INGEST.md, round 9); sources of small rows take SMALL_ROW_TUNING instead. Higher levels
 * cost the transform thread, ingest's bottleneck (level 6 took demo events over HTTP at 36k/s against
 * 50k/s at 3, bench/MEMORY.md round 7), and decode no faster.
 */
export const BLOCK_LEVEL = 1;
/**
 * zstd settings for sources whose rows are small, in place of BLOCK_LEVEL: level 3 with a lazy match
 * search (3 probes, matches of 6+ bytes) instead of its double-fast one. Rows of ~480 B (small edge events) are
 * mostly short matches between random ids; the lazy search finds longer ones: 0.1425x of their bytes
 * against 0.165x (78.4 -> 67.7 B a row), for ~2x the compression CPU (~+2 us a row). Rows of ~2.3 KB
 * (demo events) would gain less (0.149x -> 0.136x) for ~+9 us a row, so they keep BLOCK_LEVEL
 * (bench/MEMORY.md, 2026-11-25 "Small events"). A small-row source keeps it only where a trial shows it saving
 * bytes (codec-trial.ts: templated rows hold as few at level 1 for a sixth of the CPU).
 */
export const SMALL_ROW_TUNING: BlockTuning = { compressionLevel: 3, strategy: 'lazy', searchLog: 3, minMatch: 6 };
/** Mean raw bytes of a source's rows below which its codec takes the 64 KiB dictionary (dictBytesFor). */
export const SMALL_ROW_BYTES = 1024;
/**
 * Mean raw bytes of a source's rows below which its codec may use SMALL_ROW_TUNING (codec-trial.ts decides).
 * ~480 B random-id gateway rows keep it (they hold the small-event memory row under its limit); the demo's
 * postgres.logs rows (~795 B) held 0.116x of their bytes with it against 0.128x at level 1, for 5.1-5.5 against
 * 1.2 CPU µs a row: 0.7 of the demo's 2.7 µs/event of compression (bench/INGEST.md, round 11).
 */
export const LAZY_ROW_BYTES = 640;

/** zstd parameters a codec sets after its level (zstd-napi's names; a compressionLevel here replaces it). */
export interface BlockTuning {
  compressionLevel?: number;
  strategy?: 'lazy';
  searchLog?: number;
  minMatch?: number;
}

/** The tuning for rows of `meanRowBytes` on average (null: the level alone). */
export function tuningForRows(meanRowBytes: number): BlockTuning | null {
  return meanRowBytes > 0 && meanRowBytes < LAZY_ROW_BYTES ? SMALL_ROW_TUNING : null;
}

/** Raw bytes of rows per block (a block ends at the first row that reaches this). */
export const BLOCK_BYTES = 64 * 1024;
/** Size of a sampled dictionary of small rows, and the raw bytes a seal needs before one is sampled from it. */
export const DICT_BYTES = 64 * 1024;
export const DICT_MIN_SAMPLE = 4 * DICT_BYTES;
/**
 * Size of a sampled dictionary of rows of SMALL_ROW_BYTES and more. 64 KiB holds only ~28 demo events (~2.3 KB);
 * 128 KiB sampled from the first quarter of a source's rows holds the rest of its blocks in 9 % fewer bytes
 * (0.1505x -> 0.1365x of raw) at the same level 1 CPU and decode time; 256 KiB adds 0.6 %. Small rows gain
 * nothing from it (0.1666x -> 0.1676x) (bench/block-codec-micro.ts, bench/MEMORY.md 2026-11-25 "Codec trial").
 */
export const BIG_ROW_DICT_BYTES = 128 * 1024;

/** The dictionary size for rows of `meanRowBytes` on average. */
export function dictBytesFor(meanRowBytes: number): number {
  return meanRowBytes >= SMALL_ROW_BYTES ? BIG_ROW_DICT_BYTES : DICT_BYTES;
}

export class BlockCodec {
  private readonly c = new Compressor();
  private readonly d = new Decompressor();
  /** Bytes the dictionary holds in each of the compressor and decompressor (0: plain). */
  readonly dictBytes: number;
  /** The dictionary itself (kept so a checkpoint can write it; null: plain). */
  readonly dict: Buffer | null;

  /**
   * `blockBytes`: raw bytes per block made with this codec (tests make it tiny to cross many blocks);
   * `tuning`: zstd parameters beside the level (the transform thread's compressor sets the same).
   */
  constructor(dict: Buffer | null, readonly blockBytes = BLOCK_BYTES, readonly level = BLOCK_LEVEL, readonly tuning: BlockTuning | null = null) {
    this.c.setParameters({ compressionLevel: level, ...tuning });
    if (dict !== null && dict.length > 0) {
      this.c.loadDictionary(dict);
      this.d.loadDictionary(dict);
    }
    this.dictBytes = dict === null ? 0 : dict.length;
    this.dict = dict !== null && dict.length > 0 ? dict : null;
  }

  /** The compressed frame in a buffer of exactly its size (its own allocation, not a pooled one). */
  compress(raw: Uint8Array): Buffer {
    const z = this.c.compress(raw);
    const out = Buffer.allocUnsafeSlow(z.length);
    z.copy(out);
    return out;
  }

  decompress(comp: Uint8Array): Buffer {
    return this.d.decompress(comp);
  }

  /** Resident bytes of the codec itself (the dictionary is loaded twice, plus zstd contexts, roughly). */
  get residentBytes(): number {
    return 2 * this.dictBytes + 64 * 1024;
  }
}

/**
 * A raw-content dictionary: rows taken evenly across `rowCount` rows until `size` bytes (DICT_BYTES unless
 * dictBytesFor says more), newest last (zstd favours the end of a raw dictionary). `row(i)` gives row i's bytes.
 */
export function sampleDictionary(rowCount: number, row: (i: number) => Uint8Array, size = DICT_BYTES): Buffer {
  const parts: Uint8Array[] = [];
  let bytes = 0, taken = 0;
  const step = Math.max(1, Math.floor(rowCount / (512 * (size / DICT_BYTES))));
  for (let i = 0; i < rowCount && bytes < size; i += step) {
    const b = row(i);
    parts.push(b);
    bytes += b.length;
    taken++;
  }
  const all = Buffer.concat(parts);
  return Buffer.from(all.subarray(0, Math.min(all.length, size)));
}
