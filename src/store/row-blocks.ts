// v2 row storage of a sealed segment: rows in blocks of ~64 KiB (raw), made uncompressed when the
// open segment seals and zstd-compressed soon after, off the request path (block-compressor.ts);
// compressed blocks decode on demand through the shared LRU of block-cache.ts. A merge or purge
// references its inputs' blocks instead of recompressing them, so each row is compressed once.

import type { BlockCodec } from './block-codec.ts';
import { decodedBlock } from './block-cache.ts';
import { uintArrayFor, type UintArray } from './narrow.ts';
import type { RowBytes, RowBytesBuilder, RowSource } from './row-bytes.ts';
import { enqueueCompression } from './block-compressor.ts';
import { arenaFor } from './frame-arena.ts';
import { allocBig } from './big-buffer.ts';

/** Most rows one block holds (slot numbers are 16-bit). */
const MAX_BLOCK_ROWS = 65535;
/** The extra-length table of every block none of whose rows has extra keys (never written to). */
const NO_EXTRA = new Uint8Array(0);

/** Bytes per entry of a row table whose largest value is max (the width uintArrayFor picks). */
function widthFor(max: number): number {
  return max < 256 ? 1 : max < 65536 ? 2 : 4;
}

/** Entry i of a little-endian table of w-byte entries starting at byte `at` of m. */
function readEntry(m: Uint8Array, at: number, w: number, i: number): number {
  const p = at + i * w;
  if (w === 2) return m[p]! | (m[p + 1]! << 8);
  if (w === 1) return m[p]!;
  return (m[p]! | (m[p + 1]! << 8) | (m[p + 2]! << 16)) + m[p + 3]! * 16777216;
}

function writeEntry(m: Uint8Array, at: number, w: number, i: number, v: number): void {
  const p = at + i * w;
  for (let b = 0; b < w; b++) m[p + b] = (v >>> (8 * b)) & 255;
}

/**
 * One block of rows: row k is bytes [start(k), end(k)) of the raw block, its JSON the first
 * end(k) - start(k) - extraOf(k) of them (the rest: its extra keys). Row starts are below the block
 * size (a block ends at the first row that reaches it), so they fit 16 bits in 64 KiB blocks; only the
 * block's length, which may pass that, is held apart. Held raw until compress() runs, then only
 * compressed: the frame and, after it, the row tables (starts, then extra lengths when any row has extra
 * keys) go into a shared chunk of its codec's arena (frame-arena.ts); the block keeps offsets into it, not
 * buffers or typed arrays of its own. Until then the tables are in a small array of their own.
 */
export class Block {
  /** Where the tables (and, once compressed, the frame) are: a chunk's bytes, or the tables' own array. */
  private mem: Uint8Array;
  /** Offset of the row-start table in mem (the extra lengths follow it). */
  private tab = 0;
  /** Offset and length of the compressed frame in mem (length -1 while raw). */
  private off = 0;
  private len = -1;
  /** The segment rows that hold this block most recently (their byte count follows compression). */
  owner: BlockRows | null = null;
  private constructor(
    public raw: Buffer | null,
    readonly codec: BlockCodec,
    readonly rowCount: number,
    /** The block's raw length. */
    readonly rawLen: number,
    /** Bytes per row start and per extra length (0: no row has extra keys, no table). */
    private readonly sw: number,
    private readonly xw: number,
  ) {
    this.mem = new Uint8Array(rowCount * (sw + xw));
  }
  /** Where row k starts in the raw block. */
  start(k: number): number { return readEntry(this.mem, this.tab, this.sw, k); }
  /** Bytes of row k after its JSON (0 when none). */
  extraOf(k: number): number { return this.xw === 0 ? 0 : readEntry(this.mem, this.tab + this.rowCount * this.sw, this.xw, k); }
  /** A block as row end offsets (ends[0] = 0, ends[k + 1] = row k's end) and JSON ends per row. */
  static fromEnds(raw: Buffer | null, codec: BlockCodec, ends: ArrayLike<number>, jsonEnds: ArrayLike<number>): Block {
    const k = ends.length - 1, rawLen = ends[k]!;
    let maxExtra = 0;
    for (let i = 0; i < k; i++) maxExtra = Math.max(maxExtra, ends[i + 1]! - jsonEnds[i]!);
    // Most blocks have no row with extra keys: then no table at all (1 byte a row saved).
    const sw = widthFor(k === 0 ? 0 : ends[k - 1]!), xw = maxExtra === 0 ? 0 : widthFor(maxExtra);
    const b = new Block(raw, codec, k, rawLen, sw, xw);
    for (let i = 0; i < k; i++) writeEntry(b.mem, 0, sw, i, ends[i]!);
    if (xw !== 0) for (let i = 0; i < k; i++) writeEntry(b.mem, k * sw, xw, i, ends[i + 1]! - jsonEnds[i]!);
    return b;
  }
  /** A block read back from a checkpoint: compressed bytes and the row tables as they were written. */
  static fromCompressed(comp: Uint8Array, codec: BlockCodec, ends: UintArray, jsonEnds: UintArray): Block {
    if (ends.length !== jsonEnds.length + 1 || ends[0] !== 0) throw new Error('checkpoint image: a block\'s row tables do not match');
    const b = Block.fromEnds(null, codec, ends, jsonEnds);
    b.place(comp);
    return b;
  }
  /** Row starts as a typed array of the table's width (a copy: tests and the byte breakdown). */
  get starts(): UintArray {
    const out = uintArrayFor(this.rowCount, this.sw === 1 ? 0 : this.sw === 2 ? 256 : 65536);
    for (let k = 0; k < this.rowCount; k++) out[k] = this.start(k);
    return out;
  }
  /** Extra lengths as a typed array (a copy; one shared empty array when no row has extra keys). */
  get extraLen(): UintArray {
    if (this.xw === 0) return NO_EXTRA;
    const out = uintArrayFor(this.rowCount, this.xw === 1 ? 0 : this.xw === 2 ? 256 : 65536);
    for (let k = 0; k < this.rowCount; k++) out[k] = this.extraOf(k);
    return out;
  }
  /** The compressed frame (a view into its chunk), or null while raw. */
  get comp(): Buffer | null { return this.len < 0 ? null : this.frame(); }
  /** Length of the compressed frame (0 while raw). */
  get compLen(): number { return Math.max(0, this.len); }
  /** The compressed frame, a view into its chunk (the block must be compressed). */
  frame(): Buffer { return Buffer.from(this.mem.buffer, this.mem.byteOffset + this.off, this.len); }
  /** Where row k ends in the raw block. */
  end(k: number): number { return k + 1 < this.rowCount ? this.start(k + 1) : this.rawLen; }
  /** Where row k's JSON ends in the raw block. */
  jsonEnd(k: number): number { return this.end(k) - this.extraOf(k); }
  /** The row tables as a checkpoint writes them: row ends from 0 to rawLen, and JSON ends (v1 width rule). */
  endsTables(): { ends: UintArray; jsonEnds: UintArray } {
    const k = this.rowCount;
    const ends = uintArrayFor(k + 1, this.rawLen), jsonEnds = uintArrayFor(k, this.rawLen);
    for (let i = 0; i < k; i++) { ends[i] = this.start(i); jsonEnds[i] = this.jsonEnd(i); }
    ends[k] = this.rawLen;
    return { ends, jsonEnds };
  }
  /** Row bytes as held now (compressed or raw), row tables and the object itself. */
  get residentBytes(): number { return (this.len >= 0 ? this.len : this.raw!.length) + this.rowCount * (this.sw + this.xw) + 96; }
  /** Compresses the raw bytes in place (every segment referencing the block sees the same rows). */
  compress(): void {
    if (this.raw !== null) this.adopt(this.codec.compress(this.raw));
  }
  /** Takes `comp`, this block's raw bytes compressed elsewhere by its codec's settings (a no-op once compressed). */
  adopt(comp: Uint8Array): void {
    if (this.raw === null) return;
    const before = this.residentBytes;
    this.place(comp);
    this.raw = null;
    if (this.owner !== null) this.owner.bytes += this.residentBytes - before;
  }
  /** Copies the frame, then the tables, into the codec's arena; the block keeps offsets into the chunk. */
  private place(comp: Uint8Array): void {
    const tb = this.mem.length - this.tab;
    const { chunk, at } = arenaFor(this.codec).place(this, comp.length + tb);
    const buf = chunk.buf;
    buf.set(comp, at);
    buf.set(this.mem.subarray(this.tab, this.tab + tb), at + comp.length);
    this.mem = buf;
    this.off = at;
    this.len = comp.length;
    this.tab = at + comp.length;
  }
  /** The raw bytes: held, or decompressed now without the shared cache. */
  rawNow(): Buffer {
    return this.raw ?? this.codec.decompress(this.frame());
  }
}

export class BlockRows implements RowBytes {
  /** Resident bytes; drops as this segment's blocks get compressed. */
  bytes: number;
  readonly rawBytes: number;
  readonly compressed = true;
  /**
   * Row r is row slot of block blk, held as runs of rows that follow each other in one block (a seal
   * makes one run per block; a merge one per stretch of a project's rows from one input's block): run j
   * covers rows [runStart[j], runStart[j + 1]), of block runBlk[j] from slot runSlot[j]. One run per block
   * after a seal; after merges of 1,000 projects' small edge rows ~1 per 5 rows (1.5 bytes a row, where a
   * block and a slot number per row took ~3).
   */
  private readonly runStart: Uint32Array;
  private readonly runBlk: UintArray;
  private readonly runSlot: UintArray;
  /** The run the last lookup found (rows are mostly read in order). */
  private run = 0;

  /** `blk[r]`, `slot[r]`: row r's block (an index into blocks) and its row in that block. */
  constructor(readonly blocks: readonly Block[], blk: ArrayLike<number>, slot: ArrayLike<number>) {
    const runs = rowRuns(blk, slot);
    this.runStart = runs.start;
    this.runBlk = runs.blk;
    this.runSlot = runs.slot;
    let bytes = this.tableBytes, raw = 0;
    for (const b of blocks) { bytes += b.residentBytes; raw += b.rawLen; b.owner = this; }
    this.bytes = bytes;
    this.rawBytes = raw;
  }

  /** Bytes of the run tables (block and slot of every row). */
  get tableBytes(): number { return this.runStart.byteLength + this.runBlk.byteLength + this.runSlot.byteLength; }
  /** How many runs the rows form. */
  get runCount(): number { return this.runStart.length - 1; }

  /** The run holding row r (the last one found or a neighbour, else a binary search). */
  private runOf(r: number): number {
    const st = this.runStart;
    let j = this.run;
    if (r >= st[j]! && r < st[j + 1]!) return j;
    if (r >= st[j + 1]! && r < st[j + 2]!) return (this.run = j + 1);
    // Newest-first reads go backwards through a project's rows.
    if (j > 0 && r < st[j]! && r >= st[j - 1]!) return (this.run = j - 1);
    let lo = 0, hi = st.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (st[mid]! <= r) lo = mid;
      else hi = mid - 1;
    }
    return (this.run = lo);
  }

  /** Row r's slot in its block, as the last at(r) found. */
  private k = 0;
  /** Row r's block, its slot left in this.k. */
  private at(r: number): Block {
    const j = this.runOf(r);
    this.k = this.runSlot[j]! + r - this.runStart[j]!;
    return this.blocks[this.runBlk[j]!]!;
  }

  /** The block and slot of row r (for a builder referencing this row). */
  blockOf(r: number): Block { return this.blocks[this.runBlk[this.runOf(r)]!]!; }
  slotOf(r: number): number { const j = this.runOf(r); return this.runSlot[j]! + r - this.runStart[j]!; }

  json(r: number): string {
    const b = this.at(r), k = this.k;
    return decodedBlock(b).toString('utf8', b.start(k), b.jsonEnd(k));
  }
  extra(r: number): string | null {
    const b = this.at(r), k = this.k;
    const x = b.extraOf(k);
    if (x === 0) return null;
    const e = b.end(k);
    return decodedBlock(b).toString('utf8', e - x, e);
  }
  jsonBytes(r: number): Buffer {
    const b = this.at(r), k = this.k;
    return decodedBlock(b).subarray(b.start(k), b.jsonEnd(k));
  }
  jsonBytesOf(r: number): number {
    const b = this.at(r), k = this.k;
    return b.jsonEnd(k) - b.start(k);
  }
  extraBytesOf(r: number): number {
    const b = this.at(r), k = this.k;
    return b.extraOf(k);
  }
  copyRow(r: number, out: Buffer, at: number): number {
    const b = this.at(r), k = this.k;
    return decodedBlock(b).copy(out, at, b.start(k), b.end(k));
  }
}

/**
 * Runs of rows that follow each other in one block: row i continues row i - 1's run when it is the next
 * slot of the same block. `start` ends with the row count (start[j + 1] ends run j).
 */
export function rowRuns(blk: ArrayLike<number>, slot: ArrayLike<number>): { start: Uint32Array; blk: UintArray; slot: UintArray } {
  const n = blk.length;
  let runs = 0, maxBlk = 0, maxSlot = 0;
  for (let i = 0; i < n; i++) {
    if (i === 0 || blk[i] !== blk[i - 1] || slot[i] !== slot[i - 1]! + 1) {
      runs++;
      if (blk[i]! > maxBlk) maxBlk = blk[i]!;
      if (slot[i]! > maxSlot) maxSlot = slot[i]!;
    }
  }
  const start = new Uint32Array(runs + 1), rb = uintArrayFor(runs, maxBlk), rs = uintArrayFor(runs, maxSlot);
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (i === 0 || blk[i] !== blk[i - 1] || slot[i] !== slot[i - 1]! + 1) { start[j] = i; rb[j] = blk[i]!; rs[j] = slot[i]!; j++; }
  }
  start[runs] = n;
  return { start, blk: rb, slot: rs };
}

/** Builds BlockRows: rows of sealed segments are referenced where they are, others copied and compressed. */
/**
 * Builds BlockRows: rows of full sealed blocks are referenced where they are; the others are copied
 * into one slab sized in the first pass, cut into blocks and queued for compression. One slab per
 * build, freed once all its blocks are compressed, rather than a buffer per block: per-block raw
 * buffers freed between long-lived compressed ones fragmented the allocator's heap.
 */
export class BlockRowsBuilder implements RowBytesBuilder {
  private readonly blocks: Block[] = [];
  private readonly index = new Map<Block, number>();
  private readonly blk: Uint32Array;
  private readonly slot: Uint16Array;
  private i = 0;
  /** Rows and bytes kept per source block, and bytes of rows from elsewhere (first pass). */
  private readonly kept = new Map<Block, number>();
  private readonly keptBytes = new Map<Block, number>();
  private copyBytes = 0;
  // The slab rows are copied into; the block being filled starts at `base`, `at` bytes in.
  private slab: Buffer | null = null;
  private base = 0;
  private at = 0;
  private ends: number[] = [0];
  private jsonEnds: number[] = [];
  private pending: number[] = [];
  /** Rows of gatherSrc added but not copied yet: they go end to end from slab byte gatherAt, in one call per block. */
  private gatherSrc: RowSource | null = null;
  private gatherList: Uint32Array | null = null;
  private gatherCount = 0;
  private gatherAt = 0;

  constructor(n: number, private readonly codec: BlockCodec) {
    this.blk = new Uint32Array(n);
    this.slot = new Uint16Array(n);
  }

  count(srcRows: RowBytes | null, r: number, src?: RowSource): void {
    if (!(srcRows instanceof BlockRows)) {
      if (src !== undefined) this.copyBytes += src.jsonBytesOf(r) + src.extraBytesOf(r);
      return;
    }
    // Rows come in runs from one block (a merge interleaves its inputs by project): counted per run, not per row in the maps.
    const b = srcRows.blockOf(r), k = srcRows.slotOf(r);
    if (b !== this.runBlock) { this.endRun(); this.runBlock = b; }
    this.runRows++;
    this.runBytes += b.end(k) - b.start(k);
  }

  /** The block whose rows count() is counting, and its rows and bytes so far (not yet in kept / keptBytes). */
  private runBlock: Block | null = null;
  private runRows = 0;
  private runBytes = 0;

  private endRun(): void {
    const b = this.runBlock;
    if (b === null) return;
    this.kept.set(b, (this.kept.get(b) ?? 0) + this.runRows);
    this.keptBytes.set(b, (this.keptBytes.get(b) ?? 0) + this.runBytes);
    this.runBlock = null;
    this.runRows = this.runBytes = 0;
  }

  /** The last block add() saw: whether it is kept whole, and its index in `blocks` (-1 not yet). */
  private addBlock: Block | null = null;
  private addWhole = false;
  private addIndex = -1;

  /**
   * Referenced as it is: a block of at least half the block size keeping at least half its rows (so a
   * purge after a cut by time repacks mostly evicted blocks and frees their bytes).
   */
  private keepsWhole(b: Block): boolean {
    return b.rawLen >= this.codec.blockBytes / 2 && 2 * (this.kept.get(b) ?? b.rowCount + 1) >= b.rowCount;
  }

  /** The slab with room for len more bytes (sized by the first pass; a fresh one if it was skipped). */
  private slabFor(len: number): Buffer {
    this.endRun();
    if (this.slab === null) {
      let total = this.copyBytes;
      for (const [b, bytes] of this.keptBytes) if (!this.keepsWhole(b)) total += bytes;
      this.slab = allocBig(Math.max(total, len));
    } else if (this.base + this.at + len > this.slab.length) {
      this.copyDeferred();
      const rest = allocBig(Math.max(this.at + len, this.codec.blockBytes * 2));
      this.slab.copy(rest, 0, this.base, this.base + this.at);
      this.slab = rest;
      this.base = 0;
    }
    return this.slab;
  }

  add(src: RowSource, srcRows: RowBytes | null, r: number): void {
    const i = this.i++;
    const b = srcRows instanceof BlockRows ? srcRows.blockOf(r) : null;
    if (b !== null && b !== this.addBlock) {
      this.endRun();
      this.addBlock = b;
      this.addWhole = this.keepsWhole(b);
      this.addIndex = -1;
    }
    // Full blocks are referenced; rows of small or mostly evicted ones are packed into new blocks.
    if (b !== null && this.addWhole) {
      if (this.addIndex < 0) {
        let bi = this.index.get(b);
        if (bi === undefined) { bi = this.blocks.length; this.blocks.push(b); this.index.set(b, bi); }
        this.addIndex = bi;
      }
      this.blk[i] = this.addIndex;
      this.slot[i] = (srcRows as BlockRows).slotOf(r);
      return;
    }
    const jl = src.jsonBytesOf(r), len = jl + src.extraBytesOf(r);
    const slab = this.slabFor(len);
    const to = this.base + this.at;
    if (b !== null) {
      // Repacking a block: decode it here, not through the shared cache (no query wants it).
      const k = (srcRows as BlockRows).slotOf(r);
      this.decodedOnce(b).copy(slab, to, b.start(k), b.end(k));
    } else if (src.gatherRows !== undefined) this.defer(src, r, to);
    else src.copyRow(r, slab, to);
    this.jsonEnds.push(this.at + jl);
    this.at += len;
    this.ends.push(this.at);
    this.slot[i] = this.pending.length;
    this.pending.push(i);
    if (this.at >= this.codec.blockBytes || this.pending.length >= MAX_BLOCK_ROWS) this.flush();
  }

  private lastSrc: Block | null = null;
  private lastRaw: Buffer | null = null;
  private decodedOnce(b: Block): Buffer {
    if (b !== this.lastSrc) { this.lastSrc = b; this.lastRaw = b.rawNow(); }
    return this.lastRaw!;
  }

  /** Row r of src goes to slab byte `to`, copied with the rest of its block's rows (copyDeferred). */
  private defer(src: RowSource, r: number, to: number): void {
    if (this.gatherSrc !== src) { this.copyDeferred(); this.gatherSrc = src; }
    if (this.gatherCount === 0) this.gatherAt = to;
    this.gatherList ??= new Uint32Array(Math.min(this.blk.length, MAX_BLOCK_ROWS));
    this.gatherList[this.gatherCount++] = r;
  }

  private copyDeferred(): void {
    if (this.gatherCount === 0) return;
    this.gatherSrc!.gatherRows!(this.gatherList!, this.gatherCount, this.slab!, this.gatherAt);
    this.gatherCount = 0;
  }

  private flush(): void {
    this.copyDeferred();
    if (this.pending.length === 0) return;
    const raw = this.slab!.subarray(this.base, this.base + this.at);
    const bi = this.blocks.length;
    const block = Block.fromEnds(raw, this.codec, this.ends, this.jsonEnds);
    this.blocks.push(block);
    enqueueCompression(block);
    for (const i of this.pending) this.blk[i] = bi;
    this.base += this.at;
    this.at = 0;
    this.ends = [0];
    this.jsonEnds = [];
    this.pending = [];
  }

  finish(): RowBytes {
    this.flush();
    // Slots narrow to 8 bits when no block holds more than 256 rows (rows of 256+ bytes in 64 KiB blocks).
    return new BlockRows(this.blocks, this.blk, this.slot);
  }
}
