// A source's rows: the open segment, sealed segments (compacted LSM-style, four at a time), the
// watermark below which rows are evicted, and capacity eviction (oldest segments first, hidden rows purged).

import type { StoreConfig } from './types.ts';
import { MAX_SLAB_BYTES } from './slab-limit.ts';
import { OpenSegment } from './open-segment.ts';
import type { Segment } from './segment.ts';
import { mergeAll, mergeSegments, openWithoutProjects, purgeOpen, sealOpen, withoutProjects } from './segment-build.ts';
import { BLOCK_LEVEL, BlockCodec, DICT_MIN_SAMPLE, dictBytesFor, sampleDictionary } from './block-codec.ts';
import { chooseTuning, trialBlocks } from './codec-trial.ts';
import { sealOrder } from './seal-order.ts';
import type { BlockRows } from './row-blocks.ts';
import { codecKey, type DecodedHead, type ImagePart } from './source-image.ts';
import { decodeSegment, encodeSegment, segmentHasBlocks } from './segment-image.ts';
import { scheduleTrim } from './allocator-trim.ts';
import { SealSlabs } from './seal-slabs.ts';
import { RowPool } from './row-pool.ts';

/** A compacted segment holds at most this many times segmentRows rows (and 1/16 of the capacity). */
const MAX_SEGMENT_FACTOR = 64;
/** ...and at most this many bytes of rows (within the slab limit of segment.ts). */
const SEGMENT_BYTES = Math.min(MAX_SLAB_BYTES, 64 * 1024 * 1024);
/** Segments merged at once by compaction (see compact). */
const MERGE_FAN_IN = 4;

export class SegmentSet {
  /** Sealed segments in creation order. */
  segments: Segment[] = [];
  open: OpenSegment;
  /** How sealed rows are compressed (null: v1, uncompressed); gains a sampled dictionary once (see seal). */
  codec: BlockCodec | null = null;
  codecHasDict = false;
  /** Rows with ts below this (µs) are evicted; -Infinity until anything is. */
  wm = -Infinity;
  /** Rows stored once and evicted since (by retention or capacity). */
  evictedRows = 0;
  private readonly maxSegmentRows: number;
  readonly maxSegmentBytes: number;
  /** Checkpoint names of sealed segments (segmentParts). */
  private readonly segKeys = new WeakMap<Segment, string>();
  private segKeyCount = 0;
  /** Sealed segments a running checkpoint has yet to write (held by its parts): compaction leaves them be. */
  private readonly held = new Map<Segment, number>();
  private readonly segKeyTag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  /** The slabs seals gather rows into, reused once their blocks are compressed. */
  readonly slabs = new SealSlabs();
  /** The row buffers big bodies are transformed into, back once the open segment referencing them is sealed. */
  readonly rowPool = new RowPool();

  constructor(private readonly config: StoreConfig, private readonly hotCount: number) {
    this.open = new OpenSegment(hotCount, undefined, this.rowPool, config.segmentRows);
    this.maxSegmentRows = Math.max(config.segmentRows, Math.min(config.segmentRows * MAX_SEGMENT_FACTOR, Math.floor(config.maxRows / 16)));
    // A merge briefly holds both inputs and its output: small slabs keep that transient (and what the
    // allocator may keep of freed slabs) small, while scans still see few segments.
    this.maxSegmentBytes = Math.max(1, Math.min(SEGMENT_BYTES, Math.floor(config.maxBytes / 16)));
  }

  /** Whether `rows` rows of `bytes` bytes fill an open segment (by rows, or by bytes: big events must not grow one slab without bound). */
  fills(rows: number, bytes: number): boolean {
    return rows >= this.config.segmentRows || bytes >= this.maxSegmentBytes;
  }

  seal(): void {
    const open = this.open;
    // The next open segment will likely fill its own slab like this one did: start it at that size (plus slack).
    this.open = new OpenSegment(this.hotCount, Math.min(open.ownBytes * 1.1, this.maxSegmentBytes), this.rowPool, this.config.segmentRows);
    this.sampleCodec(open);
    const seg = sealOpen(open, this.wm, this.codec, this.slabs);
    // Its rows are copied now: the batch buffers it referenced can take other bodies' rows.
    this.rowPool.released(open.referenced());
    if (seg !== null) {
      this.segments.push(seg);
      this.compact();
    }
    scheduleTrim();
  }

  /**
   * The first seal with enough row bytes gives the source a dictionary sampled from its rows; earlier
   * blocks keep the plain codec they were made with (each block holds its codec).
   */
  private sampleCodec(open: OpenSegment): void {
    if (this.config.compress === false || this.codecHasDict) return;
    // Made at the first seal, so a source that never seals holds no zstd contexts.
    if (open.bytes < DICT_MIN_SAMPLE) { this.codec ??= new BlockCodec(null, this.config.blockBytes); return; }
    let raw = 0;
    for (let i = 0; i < open.n; i++) raw += open.jsonBytesOf(i) + open.extraBytesOf(i);
    const dict = sampleDictionary(open.n, (i) => open.jsonBytes(i), dictBytesFor(raw / open.n));
    const trial = (): Uint8Array[] => trialBlocks(sealOrder(open.ts.v, open.seq, open.pid, -Infinity).order, (i) => open.jsonBytes(i));
    this.codec = new BlockCodec(dict, this.config.blockBytes, BLOCK_LEVEL, chooseTuning(raw / open.n, trial));
    this.codecHasDict = true;
  }

  /**
   * Merges the MERGE_FAN_IN newest segments while the oldest of them is no bigger than the newest (a counter
   * in base MERGE_FAN_IN: each row is copied log4 rather than log2 times on its way to a full-size segment).
   * Where those would pass the size caps, as many of the newest as fit (at least two) are merged instead.
   */
  private compact(): void {
    const segs = this.segments;
    for (;;) {
      const len = segs.length;
      if (len < MERGE_FAN_IN) return;
      const newest = segs[len - 1]!;
      if (segs[len - MERGE_FAN_IN]!.n > newest.n) return;
      let k = 0, rows = 0, bytes = 0;
      while (k < MERGE_FAN_IN) {
        const s = segs[len - 1 - k]!;
        if (this.held.has(s) || rows + s.n > this.maxSegmentRows || bytes + s.bytes > this.maxSegmentBytes) break;
        rows += s.n;
        bytes += s.bytes;
        k++;
      }
      if (k < 2 || segs[len - k]!.n > newest.n) return;
      const m = mergeAll(segs.slice(len - k), this.wm, this.codec);
      segs.length -= k;
      if (m !== null) segs.push(m);
    }
  }

  /** Forgets every row of the projects `pids`; returns how many rows went. */
  dropProjects(pids: ReadonlySet<number>): number {
    const before = this.physicalRows();
    const out: Segment[] = [];
    for (const seg of this.segments) {
      const kept = [...pids].some((p) => seg.runs.has(p)) ? withoutProjects(seg, pids, this.codec) : seg;
      if (kept === null) continue;
      if (kept !== seg) kept.hidden = kept.countBelow(this.wm);
      out.push(kept);
    }
    this.segments = out;
    this.open = openWithoutProjects(this.open, pids);
    this.open.hide(this.wm);
    return before - this.physicalRows();
  }

  /** Raises the watermark: rows below it become invisible (counted as evicted); empty segments go. */
  raiseWatermark(w: number): void {
    if (!(w > this.wm)) return;
    this.wm = w;
    let drop = false;
    for (const seg of this.segments) {
      if (seg.minTs >= w) continue;
      const h = seg.countBelow(w);
      this.evictedRows += h - seg.hidden;
      seg.hidden = h;
      if (h === seg.n) drop = true;
    }
    if (drop) {
      this.segments = this.segments.filter((s) => s.hidden < s.n);
      scheduleTrim();
    }
    this.evictedRows += this.open.hide(w);
  }

  /** Rows physically held (visible or not yet purged). */
  physicalRows(): number {
    let n = this.open.n;
    for (const s of this.segments) n += s.n;
    return n;
  }

  physicalBytes(): number {
    let n = this.open.bytes;
    for (const s of this.segments) n += s.bytes;
    return n;
  }

  private hiddenRows(): number {
    let n = this.open.hidden;
    for (const s of this.segments) n += s.hidden;
    return n;
  }

  private overCapacity(maxRows: number, maxBytes: number): boolean {
    return this.physicalRows() > maxRows || this.physicalBytes() > maxBytes;
  }

  /** Rewrites segments holding hidden rows without them. */
  private purgeHidden(): void {
    const out: Segment[] = [];
    for (const s of this.segments) {
      if (s.hidden === 0) out.push(s);
      else {
        const m = mergeSegments(s, null, this.wm, this.codec);
        if (m !== null) out.push(m);
      }
    }
    this.segments = out;
    if (this.open.hidden > 0) this.open = purgeOpen(this.open, this.wm);
    scheduleTrim();
  }

  /**
   * While physical rows or bytes exceed the capacities: free hidden rows when they are a noticeable
   * share, else drop the sealed segment with the oldest maxTs and raise the watermark past it (the
   * last segment is cut inside instead, so a tiny capacity does not empty the source).
   */
  enforceCapacity(maxRows = this.config.maxRows, maxBytes = this.config.maxBytes): void {
    while (this.overCapacity(maxRows, maxBytes)) {
      const rows = this.physicalRows();
      const hidden = this.hiddenRows();
      if (hidden > 0 && hidden * 16 >= rows) { this.purgeHidden(); continue; }
      if (this.open.n > 0 && (this.segments.length === 0 || this.open.n > maxRows || this.open.bytes > maxBytes)) { this.seal(); continue; }
      if (this.segments.length === 0) { this.purgeHidden(); if (this.overCapacity(maxRows, maxBytes)) break; continue; }
      let oldest = 0;
      for (let i = 1; i < this.segments.length; i++) if (this.segments[i]!.maxTs < this.segments[oldest]!.maxTs) oldest = i;
      const seg = this.segments[oldest]!;
      if (this.segments.length > 1) {
        this.segments.splice(oldest, 1);
        this.evictedRows += seg.n - seg.hidden;
        this.raiseWatermark(seg.maxTs + 1);
      } else {
        this.cutInside(seg, rows - maxRows, this.physicalBytes() - maxBytes);
        this.purgeHidden();
      }
    }
  }

  /** Raises the watermark inside seg until at least the given excess of rows and bytes is hidden. */
  private cutInside(seg: Segment, excessRows: number, excessBytes: number): void {
    let k = seg.hidden;
    let rows = seg.hidden, bytes = 0;
    // A row's share of the resident bytes: its raw size scaled by the segment's compression.
    const scale = seg.bytes / Math.max(1, seg.rows.rawBytes);
    const rowSize = (r: number): number => (seg.jsonBytesOf(r) + seg.extraBytesOf(r)) * scale;
    for (let i = 0; i < seg.hidden; i++) bytes += rowSize(seg.byTs[i]!);
    while (k < seg.n && (rows < excessRows || bytes < excessBytes)) {
      rows++;
      bytes += rowSize(seg.byTs[k++]!);
    }
    if (k === seg.hidden) return;
    this.raiseWatermark(seg.ts.at(seg.byTs[k - 1]!) + 1);
  }

  /** Oldest visible timestamp of the sealed rows (the open segment counts as newest); Infinity when none. */
  oldestSealedTs(): number {
    let m = Infinity;
    for (const s of this.segments) if (s.hidden < s.n) m = Math.min(m, s.ts.at(s.byTs[s.hidden]!));
    return m === Infinity && this.open.n > this.open.hidden ? Number.MAX_VALUE : m;
  }

  /** Visible rows (ts >= watermark). */
  get rowCount(): number {
    let n = this.open.n - this.open.hidden;
    for (const s of this.segments) n += s.n - s.hidden;
    return n;
  }

  /** Oldest visible timestamp, or null when empty. */
  get minTs(): number | null {
    let m = Infinity;
    for (const s of this.segments) if (s.hidden < s.n) m = Math.min(m, s.ts.at(s.byTs[s.hidden]!));
    const o = this.open;
    for (let i = 0; i < o.n; i++) if (o.ts.v[i]! >= this.wm && o.ts.v[i]! < m) m = o.ts.v[i]!;
    return m === Infinity ? null : m;
  }

  /** Newest visible timestamp, or null when empty. */
  get maxTs(): number | null {
    let m = -Infinity;
    for (const s of this.segments) if (s.hidden < s.n && s.maxTs > m) m = s.maxTs;
    const o = this.open;
    for (let i = 0; i < o.n; i++) if (o.ts.v[i]! >= this.wm && o.ts.v[i]! > m) m = o.ts.v[i]!;
    return m === -Infinity ? null : m;
  }

  // ---- checkpoints ---------------------------------------------------------------------------

  /** Every codec the sealed blocks and the next seal use; null when a segment is not compressed blocks (v1). */
  codecsIfBlocks(): BlockCodec[] | null {
    if (this.segments.some((seg) => !segmentHasBlocks(seg))) return null;
    const codecs = new Set<BlockCodec>();
    if (this.codec) codecs.add(this.codec);
    for (const seg of this.segments) for (const b of (seg.rows as BlockRows).blocks) codecs.add(b.codec);
    return [...codecs];
  }

  /** One immutable checkpoint part per sealed segment, named once per segment and by the hot-id epoch. */
  segmentParts(hotEpoch: number): ImagePart[] {
    const parts: ImagePart[] = [];
    for (const seg of this.segments) {
      let base = this.segKeys.get(seg);
      if (base === undefined) this.segKeys.set(seg, (base = `${this.segKeyTag}.${++this.segKeyCount}`));
      parts.push(this.segmentPart(seg, `${base}.e${hotEpoch}`));
    }
    return parts;
  }

  /**
   * A sealed segment as a checkpoint part whose bytes are encoded when the checkpoint writes it. Hot-id
   * compaction replaces a sealed segment's id columns (never rewrites them), so the columns of this moment
   * are kept here and encoded in place of the segment's own. Once the segment has left the set, its rows
   * are evicted when all lie under the watermark (else a merge or purge took them: the part is still
   * needed). While the checkpoint holds the part, compaction does not merge the segment away.
   */
  private segmentPart(seg: Segment, key: string): ImagePart {
    const hot = [...seg.hot];
    const asOfNow = Object.create(seg, { hot: { value: hot } }) as Segment;
    const gone = (): boolean => !this.segments.includes(seg);
    let holding = false;
    return {
      key, immutable: true, events: seg.n - seg.hidden,
      chunks: () => encodeSegment(asOfNow, codecKey),
      evicted: () => gone() && seg.maxTs < this.wm,
      detachedBytes: () => (gone() ? seg.bytes : 0),
      sharedBytes: () => (segmentHasBlocks(seg) ? (seg.rows as BlockRows).blocks.reduce((n, b) => n + b.compLen, 0) : 0),
      hold: () => { if (!holding) { holding = true; this.held.set(seg, (this.held.get(seg) ?? 0) + 1); } },
      release: () => {
        if (!holding) return;
        holding = false;
        const n = (this.held.get(seg) ?? 1) - 1;
        if (n > 0) this.held.set(seg, n);
        else this.held.delete(seg);
      },
    };
  }

  /** Takes a checkpoint's codecs, watermark, eviction count, segments and open rows (into an empty set). */
  restore(head: DecodedHead, segParts: readonly { key: string; chunks: Buffer[] }[]): void {
    this.codec = head.current;
    this.codecHasDict = head.codecHasDict;
    this.wm = head.wm;
    this.evictedRows = head.evictedRows;
    for (const p of segParts) {
      const seg = decodeSegment(p.chunks, head.codecs);
      seg.hidden = seg.countBelow(this.wm);
      if (seg.hidden === seg.n) continue;
      this.segKeys.set(seg, p.key.replace(/\.e\d+$/, ''));
      this.segments.push(seg);
    }
    this.open = new OpenSegment(this.hotCount, undefined, this.rowPool, this.config.segmentRows);
    head.refill(this.open);
    this.open.hide(this.wm);
  }
}
