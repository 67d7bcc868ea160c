// One source's rows in memory: validated all-or-nothing ingest, an open segment sealed into sorted
// segments (compacted LSM-style), a watermark for retention and capacity eviction, and scans.

import { readsPinned } from './read-pins.ts';
import { RingqlError } from '../core/errors.ts';
import type { IngestResult, ScanBatch, ScanSpec, SchemaField, SourceDef, StoreConfig } from './types.ts';
import { normalizeEvent, type NormalizedEvent, type NormalizeOptions } from './event.ts';
import { SchemaTree } from './schema-tree.ts';
import { DEFAULT_LIMITS } from '../core/limits.ts';
import { SAMPLE_EVENTS } from './sample-events.ts';
import { copyObject } from './record-json.ts';
import { INEXACT, INEXACT_ID, hotKeyOf, type HotValue } from './hot-paths.ts';
import { MAX_SLAB_BYTES } from './slab-limit.ts';
import { OpenSegment } from './open-segment.ts';
import { Segment } from './segment.ts';
import { mergeSegments, openWithoutProjects, purgeOpen, sealOpen, withoutProjects } from './segment-build.ts';
import { scanSnapshot } from './scan.ts';
import { codecKey, decodeHead, encodeHead, type ImagePart } from './source-image.ts';
import { decodeSegment, encodeSegment, segmentHasBlocks } from './segment-image.ts';
import type { BlockRows } from './row-blocks.ts';
import { BlockCodec, DICT_MIN_SAMPLE, sampleDictionary } from './block-codec.ts';
import { randomBytes } from 'node:crypto';
import { batchShapes, batchStrings, hotValueOf, transformBody } from './byte-batch.ts';
import { metaStride, type NativeBatch } from './native-ingest.ts';
import { ShapeCache } from './schema-replay.ts';

/** How ingestBytes stores a body. */
export interface ByteIngestOptions {
  /** Timestamp of events without one (default nowUs; a replayed log record gives the original time). */
  fillUs?: number;
  /** 16 random bytes the ids of events without one derive from (default: fresh). */
  idSeed?: Buffer;
  /** Sees the event count once the body is known valid; may throw to refuse the batch. */
  checkCount?: (n: number) => void;
  /** As ingest()'s beforeCommit. */
  beforeCommit?: (maxTs: number) => void;
}

const MAX_ERRORS = 100;
/** A compacted segment holds at most this many times segmentRows rows (and 1/16 of the capacity). */
const MAX_SEGMENT_FACTOR = 64;
/** ...and at most this many bytes of rows (within the slab limit of segment.ts). */
const SEGMENT_BYTES = Math.min(MAX_SLAB_BYTES, 64 * 1024 * 1024);

/** Rough heap bytes of one hot dictionary entry (a one-byte string, its array slot and its map entry). */
function hotValueBytes(v: HotValue): number {
  return 40 + (typeof v === 'string' ? v.length : 0);
}

export interface SourceStoreStats {
  rows: number;
  physicalRows: number;
  bytes: number;
  segments: number;
  openRows: number;
  evicted: number;
  dropped: number;
  watermark: number;
  lastSeq: number;
  projects: number;
  /** Field paths the schema holds (fixed, seeded and seen), and a rough estimate of their heap bytes. */
  schemaFields: number;
  schemaBytes: number;
  /** Bytes counted against the process memory budget (see residentBytes). */
  resident: number;
}

export class SourceStore {
  readonly def: SourceDef;
  /** Called after every stored batch (the Store enforces the process memory budget there). */
  afterIngest: (() => void) | null = null;
  /** Keys of the hot columns (paths joined with '.'), in constructor order. */
  readonly hotKeys: readonly string[];
  private readonly config: StoreConfig;
  private readonly hotPaths: readonly string[][];
  private readonly hotIndex: Map<string, number>;
  private readonly hotIds: Map<HotValue, number>[];  // entries replaced by compactHotDicts
  private readonly hotValues: HotValue[][];
  private readonly projectIds = new Map<string, number>();
  private readonly projectNames: (string | null)[] = [null];
  private readonly schemaTree: SchemaTree;
  private readonly maxSegmentRows: number;
  private readonly maxSegmentBytes: number;
  /** Sealed segments in creation order. */
  private segments: Segment[] = [];
  private open: OpenSegment;
  /** How sealed rows are compressed (null: v1, uncompressed); gains a sampled dictionary once (see seal). */
  private codec: BlockCodec | null = null;
  private codecHasDict = false;
  private wm = -Infinity;
  private seq = 0;
  private evictedRows = 0;
  private droppedRows = 0;
  /** Rough bytes of the hot dictionaries (values and their map entries). */
  private hotDictBytes = 0;
  /** Rows physically held at the last schema prune, and appended since (see pruneSchema). */
  private heldAtPrune = 0;
  private appendedSincePrune = 0;
  /** An event with forgettable paths was dropped (older than the watermark) since the last prune. */
  private shapesDropped = false;
  /** Checkpoint names of sealed segments (checkpointParts), and the compactions of hot ids so far. */
  private readonly segKeys = new WeakMap<Segment, string>();
  private segKeyCount = 0;
  private readonly segKeyTag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  private hotEpoch = 0;

  constructor(def: SourceDef, config: StoreConfig, hotPaths: string[][] = []) {
    this.def = def;
    this.config = config;
    this.hotPaths = hotPaths.map((p) => [...p]);
    this.hotKeys = this.hotPaths.map(hotKeyOf);
    this.hotIndex = new Map(this.hotKeys.map((k, i) => [k, i]));
    // Fixed ids: 0 is NULL, INEXACT_ID the INEXACT marker, so readers test exactness with an integer compare.
    this.hotIds = this.hotPaths.map(() => new Map<HotValue, number>([[null, 0], [INEXACT, INEXACT_ID]]));
    this.hotValues = this.hotPaths.map(() => [null, INEXACT]);
    this.open = new OpenSegment(this.hotPaths.length);
    this.maxSegmentRows = Math.max(config.segmentRows, Math.min(config.segmentRows * MAX_SEGMENT_FACTOR, Math.floor(config.maxRows / 16)));
    // A merge briefly holds both inputs and its output: small slabs keep that transient (and what the
    // allocator may keep of freed slabs) small, while scans still see few segments.
    this.maxSegmentBytes = Math.max(1, Math.min(SEGMENT_BYTES, Math.floor(config.maxBytes / 16)));
    this.schemaTree = new SchemaTree(def.projectPath.length === 1 && def.projectPath[0] === 'project', config.maxFieldsPerSource ?? DEFAULT_LIMITS.maxFieldsPerSource);
    const sample = SAMPLE_EVENTS[def.name];
    this.schemaTree.beginSeed();
    if (sample) {
      const lim = { maxEventDepth: 1000, maxStringBytes: Number.MAX_SAFE_INTEGER };
      const s = this.schemaTree;
      for (const k of Object.keys(sample)) {
        if (k === 'metadata') copyObject(sample[k] as Record<string, unknown>, 2, s.metadataNode, s, lim);
        else if (k !== 'id' && k !== 'timestamp' && k !== 'event_message') s.noteTopLevel(k, s.child(s.root, k, sample[k]));
      }
    }
    // SAMPLE-EVENTS paths are always there: never forgotten, not counted against the bound.
    this.schemaTree.freezeSeed();
  }

  // ---- ingest ------------------------------------------------------------------------------

  /**
   * Validates every event, then stores those at or above the watermark (after retention at nowUs).
   * Throws RingqlError('invalid_events') and stores nothing when any event is invalid. `beforeCommit`
   * runs once the batch is known valid and before anything is stored; when it throws, nothing is.
   */
  ingest(events: unknown[], nowUs: number, beforeCommit?: (maxTs: number) => void): IngestResult {
    this.raiseWatermark(nowUs - this.config.retentionUs);
    const opts: NormalizeOptions = {
      maxEventDepth: this.config.maxEventDepth,
      maxStringBytes: this.config.maxStringBytes,
      nowUs,
      schema: this.schemaTree,
      hotPaths: this.hotPaths,
    };
    let n = this.normalizeAll(events, opts);
    // At the field bound, paths of rows removed since the last prune may still count: prune now, retry once.
    if (n.invalid > 0 && this.schemaTree.limitHit && this.pruneSchema(true)) n = this.normalizeAll(events, opts);
    const { ok, errors, invalid } = n;
    if (invalid > 0) {
      throw new RingqlError('invalid_events', `${invalid} of ${events.length} events are invalid; nothing was stored`, { errors });
    }
    if (beforeCommit) {
      // The write-ahead log takes the batch here: valid, not yet stored. If it cannot, nothing is stored.
      let maxTs = -Infinity;
      for (const e of ok) if (e.ts > maxTs) maxTs = e.ts;
      try {
        beforeCommit(maxTs);
      } catch (err) {
        this.schemaTree.rollback();
        throw err;
      }
    }
    this.schemaTree.commit();

    let stored = 0, dropped = 0;
    const hot = new Array<number>(this.hotPaths.length);
    for (let i = 0; i < ok.length; i++) {
      const e = ok[i]!;
      if (e.ts < this.wm) { dropped++; if (e.shape !== 0) this.shapesDropped = true; continue; }
      for (let h = 0; h < hot.length; h++) hot[h] = this.hotId(h, e.hot[h]!);
      this.open.append(e.ts, ++this.seq, this.projectId(e.project), e.json, e.extra, hot, e.shape);
      this.appendedSincePrune++;
      stored++;
      // By rows, or by bytes (a few thousand big events must not grow one slab without bound).
      if (this.open.n >= this.config.segmentRows || this.open.bytes >= this.maxSegmentBytes) this.seal();
    }
    this.droppedRows += dropped;
    this.enforceCapacity();
    this.compactHotDicts();
    this.pruneSchema();
    this.afterIngest?.();
    return { stored, dropped };
  }

  /**
   * ingest() of a raw body (after gzip; `ndjson`: one event per line) through the native addon, with no
   * JS object per event. Returns a reason instead when the addon leaves the body to the reference path
   * (invalid or unusual input): the caller then parses it and calls ingest(), which gives the exact errors.
   */
  ingestBytes(body: Buffer, ndjson: boolean, nowUs: number, opts: ByteIngestOptions = {}): IngestResult | string {
    const seed = opts.idSeed ?? randomBytes(16);
    const b = transformBody(body, ndjson, this.def, this.hotPaths, this.config, opts.fillUs ?? nowUs, seed);
    // A declined body changes nothing here (the reference path raises the watermark itself).
    if (typeof b === 'string') return b;
    opts.checkCount?.(b.n);
    this.raiseWatermark(nowUs - this.config.retentionUs);
    const stride = metaStride(this.hotPaths.length);
    this.schemaTree.begin();
    const shapes = batchShapes(b, this.hotPaths.length, this.schemaTree, this.shapeCache);
    if (shapes === null) return 'an event that passes the field bound';
    const meta = b.meta;
    if (opts.beforeCommit) {
      let maxTs = -Infinity;
      for (let i = 0; i < b.n; i++) if (meta[i * stride]! > maxTs) maxTs = meta[i * stride]!;
      try {
        opts.beforeCommit(maxTs);
      } catch (err) {
        this.schemaTree.rollback();
        throw err;
      }
    }
    this.schemaTree.commit();
    return this.appendBatch(b, shapes);
  }

  private readonly shapeCache = new ShapeCache();

  /** Stores the rows of a transformed body (the commit half of ingestBytes; mirrors ingest()'s loop). */
  private appendBatch(b: NativeBatch, shapes: Uint32Array): IngestResult {
    const stride = metaStride(this.hotPaths.length), meta = b.meta, n = b.n;
    const strs = batchStrings(b);
    // Dictionary and project ids of this batch's strings, found once each.
    const strIds = this.hotPaths.map(() => new Int32Array(strs.length).fill(-1));
    const pids = new Int32Array(strs.length).fill(-1);
    let stored = 0, dropped = 0;
    const hot = new Array<number>(this.hotPaths.length);
    let i = 0;
    while (i < n) {
      if (meta[i * stride]! < this.wm) { dropped++; if (shapes[i] !== 0) this.shapesDropped = true; i++; continue; }
      // A run of stored rows up to the one that fills the open segment: its bytes are copied in one piece.
      const open = this.open;
      let j = i, rows = open.n, bytes = open.bytes, full = false;
      while (j < n && meta[j * stride]! >= this.wm) {
        rows++;
        bytes += meta[j * stride + 3]! - meta[j * stride + 1]!;
        j++;
        if (rows >= this.config.segmentRows || bytes >= this.maxSegmentBytes) { full = true; break; }
      }
      const base = open.copyRows(b.rows, meta[i * stride + 1]!, meta[(j - 1) * stride + 3]!) - meta[i * stride + 1]!;
      const count = j - i;
      for (; i < j; i++) {
        const m = i * stride;
        for (let h = 0; h < hot.length; h++) {
          const kind = meta[m + 6 + 2 * h]!, v = meta[m + 7 + 2 * h]!;
          if (kind === 2) {
            let id = strIds[h]![v]!;
            if (id < 0) id = strIds[h]![v] = this.hotId(h, strs[v]!);
            hot[h] = id;
          } else hot[h] = this.hotId(h, hotValueOf(kind, v, strs));
        }
        const p = meta[m + 4]!;
        let pid = 0;
        if (p >= 0) { pid = pids[p]!; if (pid < 0) pid = pids[p] = this.projectId(strs[p]!); }
        open.pushRow(meta[m]!, ++this.seq, pid, base + meta[m + 1]!, base + meta[m + 2]!, hot, shapes[i]!);
      }
      this.appendedSincePrune += count;
      stored += count;
      if (full) this.seal();
    }
    this.droppedRows += dropped;
    this.enforceCapacity();
    this.compactHotDicts();
    this.pruneSchema();
    // As after ingest(): the Store holds the process to its memory budget here.
    this.afterIngest?.();
    return { stored, dropped };
  }

  /** Normalises every event, growing the schema; rolled back when any is invalid (else the caller commits). */
  private normalizeAll(events: unknown[], opts: NormalizeOptions): { ok: NormalizedEvent[]; errors: { index: number; message: string }[]; invalid: number } {
    const ok = new Array<NormalizedEvent>(events.length);
    const errors: { index: number; message: string }[] = [];
    let invalid = 0;
    this.schemaTree.begin();
    try {
      for (let i = 0; i < events.length; i++) {
        const r = normalizeEvent(events[i], this.def, opts);
        if (typeof r === 'string') {
          invalid++;
          if (errors.length < MAX_ERRORS) errors.push({ index: i, message: r });
        } else ok[i] = r;
      }
    } catch (e) {
      this.schemaTree.rollback();
      throw e;
    }
    if (invalid > 0) this.schemaTree.rollback();
    return { ok, errors, invalid };
  }

  /**
   * Forgets schema paths no held row uses any more: counts the shapes of the visible rows (those
   * evicted but not yet purged do not count) and prunes the rest. Amortised: it runs once the rows
   * evicted since the last run reach 1/8 of those held, so its O(rows) cost is O(1) per evicted row.
   */
  private pruneSchema(force = false): boolean {
    const held = this.rowCount;
    const removed = this.heldAtPrune + this.appendedSincePrune - held;
    const due = force ? removed > 0 || this.shapesDropped : removed > 0 && (removed * 8 >= held || held === 0);
    if (!due) return false;
    this.heldAtPrune = held;
    this.appendedSincePrune = 0;
    this.shapesDropped = false;
    if (this.schemaTree.shapeCount === 0) return false;
    const live = new Set<number>();
    for (const seg of this.segments) {
      const { shape, byTs } = seg;
      for (let i = seg.hidden; i < seg.n; i++) { const sh = shape[byTs[i]!]!; if (sh !== 0) live.add(sh); }
    }
    const { shape, ts } = this.open;
    for (let i = 0; i < shape.length; i++) if (shape[i] !== 0 && ts[i]! >= this.wm) live.add(shape[i]!);
    return this.schemaTree.forgetUnused((id) => live.has(id)) > 0;
  }

  private projectId(p: string | null): number {
    if (p === null) return 0;
    let id = this.projectIds.get(p);
    if (id === undefined) {
      id = this.projectNames.length;
      this.projectNames.push(p);
      this.projectIds.set(p, id);
    }
    return id;
  }

  private hotId(h: number, v: HotValue): number {
    const ids = this.hotIds[h]!;
    let id = ids.get(v);
    if (id === undefined) {
      const values = this.hotValues[h]!;
      id = values.length;
      values.push(v);
      ids.set(v, id);
      this.hotDictBytes += hotValueBytes(v);
    }
    return id;
  }

  // ---- segments ----------------------------------------------------------------------------

  private seal(): void {
    const open = this.open;
    // The next open segment will likely fill like this one did: start it at that size (plus slack).
    this.open = new OpenSegment(this.hotPaths.length, Math.min(open.bytes * 1.1, this.maxSegmentBytes));
    this.sampleCodec(open);
    const seg = sealOpen(open, this.wm, this.codec);
    if (seg !== null) {
      this.segments.push(seg);
      this.compact();
    }
  }

  /**
   * The first seal with enough row bytes gives the source a dictionary sampled from its rows; earlier
   * blocks keep the plain codec they were made with (each block holds its codec).
   */
  private sampleCodec(open: OpenSegment): void {
    if (this.config.compress === false || this.codecHasDict) return;
    // Made at the first seal, so a source that never seals holds no zstd contexts.
    if (open.bytes < DICT_MIN_SAMPLE) { this.codec ??= new BlockCodec(null, this.config.blockBytes); return; }
    this.codec = new BlockCodec(sampleDictionary(open.n, (i) => open.jsonBytes(i)), this.config.blockBytes);
    this.codecHasDict = true;
  }

  /** Merges the two newest segments while the older is no bigger than the newer (a binary counter). */
  private compact(): void {
    const segs = this.segments;
    while (segs.length >= 2) {
      const a = segs[segs.length - 2]!, b = segs[segs.length - 1]!;
      if (a.n > b.n) break;
      if (a.n + b.n > this.maxSegmentRows || a.bytes + b.bytes > this.maxSegmentBytes) break;
      const m = mergeSegments(a, b, this.wm, this.codec);
      segs.length -= 2;
      if (m !== null) segs.push(m);
    }
  }

  /**
   * Forgets every row of the projects `drop` says (cluster mode: their partition moved to another node,
   * and a later return rebuilds it from its stream). Returns how many rows went.
   */
  dropProjects(drop: (project: string) => boolean): number {
    const pids = new Set<number>();
    this.projectNames.forEach((p, i) => { if (p !== null && drop(p)) pids.add(i); });
    if (pids.size === 0) return 0;
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

  // ---- checkpoints ---------------------------------------------------------------------------

  /**
   * This source's state as checkpoint parts, taken now: the head (mutable: counters, dictionaries,
   * schema, codecs, open rows) and one immutable part per sealed segment. Null when the segments are
   * not compressed blocks (a store with compression off is not checkpointed; its log is replayed).
   */
  checkpointParts(): ImagePart[] | null {
    if (this.segments.some((seg) => !segmentHasBlocks(seg))) return null;
    const codecs = new Set<BlockCodec>();
    if (this.codec) codecs.add(this.codec);
    for (const seg of this.segments) for (const b of (seg.rows as BlockRows).blocks) codecs.add(b.codec);
    const head = encodeHead({
      hotKeys: this.hotKeys, wm: this.wm, seq: this.seq, evictedRows: this.evictedRows, droppedRows: this.droppedRows,
      hotEpoch: this.hotEpoch, projectNames: this.projectNames, hotValues: this.hotValues, schema: this.schemaTree.toImage(),
      codecs: [...codecs], current: this.codec, codecHasDict: this.codecHasDict,
    }, this.open);
    const parts: ImagePart[] = [{ key: 'head', immutable: false, events: this.open.n, chunks: () => head }];
    for (const seg of this.segments) {
      let base = this.segKeys.get(seg);
      if (base === undefined) this.segKeys.set(seg, (base = `${this.segKeyTag}.${++this.segKeyCount}`));
      parts.push({ key: `${base}.e${this.hotEpoch}`, immutable: true, events: seg.n - seg.hidden, chunks: () => encodeSegment(seg, codecKey) });
    }
    return parts;
  }

  /** Replaces this (empty) source's state with a checkpoint's parts (head first, then segments, as written). */
  restoreImage(parts: readonly { key: string; chunks: Buffer[] }[]): void {
    if (this.seq !== 0 || this.segments.length) throw new Error(`${this.def.name}: a checkpoint is restored into an empty source only`);
    const [headPart, ...segParts] = parts;
    if (!headPart || headPart.key !== 'head') throw new Error(`${this.def.name}: the checkpoint has no head part first`);
    const head = decodeHead(headPart.chunks);
    if (head.hotKeys.join('\u0000') !== this.hotKeys.join('\u0000')) {
      throw new Error(`${this.def.name}: the checkpoint was made with hot columns ${head.hotKeys.join(', ') || '(none)'}, this build keeps ${this.hotKeys.join(', ') || '(none)'}`);
    }
    for (let h = 0; h < this.hotValues.length; h++) {
      const values = [...head.hotValues[h]!];
      this.hotValues[h] = values;
      this.hotIds[h] = new Map(values.map((v, i) => [v, i]));
    }
    this.hotDictBytes = this.hotValues.reduce((t, vs) => t + vs.reduce<number>((u, v) => u + hotValueBytes(v), 0), 0);
    this.projectNames.length = 0;
    this.projectIds.clear();
    head.projectNames.forEach((p, i) => { this.projectNames.push(p); if (p !== null) this.projectIds.set(p, i); });
    this.schemaTree.loadImage(head.schema);
    this.codec = head.current;
    this.codecHasDict = head.codecHasDict;
    this.wm = head.wm;
    this.seq = head.seq;
    this.evictedRows = head.evictedRows;
    this.droppedRows = head.droppedRows;
    this.hotEpoch = head.hotEpoch;
    for (const p of segParts) {
      const seg = decodeSegment(p.chunks, head.codecs);
      seg.hidden = seg.countBelow(this.wm);
      if (seg.hidden === seg.n) continue;
      this.segKeys.set(seg, p.key.replace(/\.e\d+$/, ''));
      this.segments.push(seg);
    }
    this.open = new OpenSegment(this.hotPaths.length);
    head.refill(this.open);
    this.open.hide(this.wm);
    this.heldAtPrune = this.rowCount;
  }

  // ---- eviction ----------------------------------------------------------------------------

  /** Retention at nowUs, then capacity. */
  evict(nowUs: number): void {
    this.raiseWatermark(nowUs - this.config.retentionUs);
    this.enforceCapacity();
    this.compactHotDicts();
    this.pruneSchema();
  }

  /**
   * Hot dictionaries only grow on ingest; once evicted rows leave most of a dictionary unused (more than
   * twice the live rows), it is rebuilt from the ids still referenced and every row's ids remapped,
   * so memory follows retention and capacity. (Readers take dictionaries afresh per query.)
   */
  private compactHotDicts(): void {
    // A paused sliced query reads ids against the dictionaries it started with: remap only when none runs.
    if (readsPinned()) return;
    const live = this.physicalRows();
    for (let h = 0; h < this.hotValues.length; h++) {
      const values = this.hotValues[h]!;
      if (values.length <= 4096 || values.length <= 2 * live + 1024) continue;
      const remap = new Int32Array(values.length).fill(-1);
      remap[0] = 0;
      remap[INEXACT_ID] = INEXACT_ID;
      const next: HotValue[] = [null, INEXACT];
      const ids = new Map<HotValue, number>([[null, 0], [INEXACT, INEXACT_ID]]);
      const map = (old: number): number => {
        let n = remap[old]!;
        if (n < 0) { n = next.length; next.push(values[old]!); ids.set(values[old]!, n); remap[old] = n; }
        return n;
      };
      for (const seg of this.segments) {
        const col = seg.hot[h]!;
        for (let i = 0; i < col.length; i++) col[i] = map(col[i]!);
      }
      const open = this.open.hot[h]!;
      for (let i = 0; i < open.length; i++) open[i] = map(open[i]!);
      this.hotValues[h] = next;
      this.hotIds[h] = ids;
      this.hotEpoch++;
      this.hotDictBytes = this.hotValues.reduce((t, vs) => t + vs.reduce<number>((u, v) => u + hotValueBytes(v), 0), 0);
    }
  }

  /** Raises the watermark: rows below it become invisible (counted as evicted); empty segments go. */
  private raiseWatermark(w: number): void {
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
    if (drop) this.segments = this.segments.filter((s) => s.hidden < s.n);
    this.evictedRows += this.open.hide(w);
  }

  private physicalRows(): number {
    let n = this.open.n;
    for (const s of this.segments) n += s.n;
    return n;
  }

  private physicalBytes(): number {
    let n = this.open.bytes;
    for (const s of this.segments) n += s.bytes;
    return n;
  }

  private hiddenRows(): number {
    let n = this.open.hidden;
    for (const s of this.segments) n += s.hidden;
    return n;
  }

  private overCapacity(maxRows = this.config.maxRows, maxBytes = this.config.maxBytes): boolean {
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
  }

  /**
   * While physical rows or bytes exceed the capacities: free hidden rows when they are a noticeable
   * share, else drop the sealed segment with the oldest maxTs and raise the watermark past it (the
   * last segment is cut inside instead, so a tiny capacity does not empty the source).
   */
  private enforceCapacity(maxRows = this.config.maxRows, maxBytes = this.config.maxBytes): void {
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
    this.raiseWatermark(seg.ts[seg.byTs[k - 1]!]! + 1);
  }

  // ---- the process memory budget (Store.enforceMemory) --------------------------------------

  /** Everything this source holds: segments, the open buffers, dictionaries, schema and codec. */
  residentBytes(): number {
    let n = this.open.residentBytes + this.hotDictBytes + this.projectNames.length * 64 + this.schemaTree.approxBytes;
    for (const s of this.segments) n += s.bytes;
    if (this.codec !== null) n += this.codec.residentBytes;
    return n;
  }

  /** Rows physically held (visible or not yet purged). */
  heldRows(): number {
    return this.physicalRows();
  }

  /** Oldest visible timestamp of the sealed rows (the open segment counts as newest); Infinity when none. */
  oldestSealedTs(): number {
    let m = Infinity;
    for (const s of this.segments) if (s.hidden < s.n) m = Math.min(m, s.ts[s.byTs[s.hidden]!]!);
    return m === Infinity && this.open.n > this.open.hidden ? Number.MAX_VALUE : m;
  }

  /**
   * Evicts the oldest data for the memory budget: at most `bytes` of stored rows, and at least one
   * segment's worth or all that is left (exact and oldest first, as capacity eviction is).
   */
  shed(bytes: number): void {
    const phys = this.physicalBytes();
    let oldest: Segment | null = null;
    for (const s of this.segments) if (oldest === null || s.maxTs < oldest.maxTs) oldest = s;
    const step = Math.max(1, Math.min(bytes, oldest === null ? phys : oldest.bytes));
    this.enforceCapacity(this.config.maxRows, Math.max(0, phys - step));
    this.compactHotDicts();
    this.pruneSchema();
  }

  // ---- reads -------------------------------------------------------------------------------

  /**
   * Rows matching spec, in batches: a snapshot of the rows stored when scan() is called (rows appended to
   * the open segment later are not read, even when the batches are pulled across event-loop turns).
   */
  scan(spec: ScanSpec): Iterable<ScanBatch> {
    let pid: number | undefined;
    if (spec.project === undefined) pid = undefined;
    else if (spec.project === null) pid = 0;
    else pid = this.projectIds.get(spec.project) ?? -1;
    return scanSnapshot(
      { segments: this.segments.slice(), open: this.open, watermark: this.wm, maxSeq: this.seq, projectNames: this.projectNames, pid, hotIndex: this.hotIndex },
      spec,
    );
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
    for (const s of this.segments) if (s.hidden < s.n) m = Math.min(m, s.ts[s.byTs[s.hidden]!]!);
    const o = this.open;
    for (let i = 0; i < o.n; i++) if (o.ts[i]! >= this.wm && o.ts[i]! < m) m = o.ts[i]!;
    return m === Infinity ? null : m;
  }

  /** Newest visible timestamp, or null when empty. */
  get maxTs(): number | null {
    let m = -Infinity;
    for (const s of this.segments) if (s.hidden < s.n && s.maxTs > m) m = s.maxTs;
    const o = this.open;
    for (let i = 0; i < o.n; i++) if (o.ts[i]! >= this.wm && o.ts[i]! > m) m = o.ts[i]!;
    return m === -Infinity ? null : m;
  }

  /** Rows stored once and evicted since (by retention or capacity). */
  get evicted(): number {
    return this.evictedRows;
  }

  /** Events not stored because they were older than the retention window or the watermark. */
  get dropped(): number {
    return this.droppedRows;
  }

  /** Sequence number of the newest stored event (0 before any). */
  lastSeq(): number {
    return this.seq;
  }

  /** Rows with ts below this (µs) are evicted; -Infinity until anything is. */
  watermark(): number {
    return this.wm;
  }

  /** Fields seen so far (seeded with the sample event's), first-seen type wins. Do not mutate. */
  schema(): SchemaField[] {
    return this.schemaTree.list();
  }

  /** Changes whenever the schema's fields or top-level columns do (cheap: no list is built). */
  schemaVersion(): number {
    return this.schemaTree.version;
  }

  /** The top-level field named exactly `name`, in constant time (undefined: none typed yet). */
  topLevelField(name: string): SchemaField | undefined {
    return this.schemaTree.topField(name);
  }

  /** id, timestamp, event_message, metadata, `project` where it is top level, and every top-level key seen. */
  topLevelColumns(): Set<string> {
    return this.schemaTree.topLevel;
  }

  /** Values of a hot column by dictionary id (id 0 = null). */
  hotDict(key: string): readonly HotValue[] {
    const i = this.hotIndex.get(key);
    if (i === undefined) throw new Error(`unknown hot key "${key}" of ${this.def.name}`);
    return this.hotValues[i]!;
  }

  stats(): SourceStoreStats {
    return {
      rows: this.rowCount,
      physicalRows: this.physicalRows(),
      bytes: this.physicalBytes(),
      segments: this.segments.length,
      openRows: this.open.n,
      evicted: this.evictedRows,
      dropped: this.droppedRows,
      watermark: this.wm,
      lastSeq: this.seq,
      projects: this.projectNames.length - 1,
      schemaFields: this.schemaTree.size,
      schemaBytes: this.schemaTree.approxBytes,
      resident: this.residentBytes(),
    };
  }
}
