// One source's rows in memory: validated all-or-nothing ingest (objects or raw bodies), schema pruning,
// checkpoints and scans. Its rows and eviction: segment-set.ts; hot dictionaries: hot-dictionaries.ts.
// Over 300 lines for now: both ingest paths, pruning and restore update the same private counters.

import { readsPinned } from './read-pins.ts';
import { RingqlError } from '../core/errors.ts';
import type { IngestResult, ScanBatch, ScanSpec, SchemaField, SourceDef, StoreConfig } from './types.ts';
import { normalizeEvent, type NormalizedEvent, type NormalizeOptions } from './event.ts';
import { SchemaTree } from './schema-tree.ts';
import { DEFAULT_LIMITS } from '../core/limits.ts';
import { SAMPLE_EVENTS } from './sample-events.ts';
import { copyObject } from './record-json.ts';
import type { HotDict } from './hot-dict.ts';
import { SegmentSet } from './segment-set.ts';
import { HotDictionaries } from './hot-dictionaries.ts';
import { ProjectIds } from './project-ids.ts';
import type { Segment } from './segment.ts';
import { scanSnapshot, type ScanSnapshot } from './scan.ts';
import { countSnapshot } from './scan-count.ts';
import { runsOfSnapshot, type RowRun } from './scan-runs.ts';
import { decodeHead, encodeHead, type ImagePart } from './source-image.ts';
import { randomBytes } from 'node:crypto';
import { batchShapes, batchStrings, hotValueOf, runTransform, transformRequest, type TransformRequest } from './byte-batch.ts';
import { POOL_MIN_BYTES } from './row-pool.ts';
import { metaStride, type NativeBatch } from './native-ingest.ts';
import { ShapeCache } from './schema-replay.ts';
import { mergeFigures, pidFigures, type Figures } from './project-figures.ts';

/** How ingestBytes stores a body. */
export interface ByteIngestOptions {
  /** Timestamp of events without one (default nowUs; a replayed log record gives the original time). */
  fillUs?: number;
  /** 16 random bytes the ids of events without one derive from (default: fresh). */
  idSeed?: Buffer;
  /** Sees the event count once the body is known valid; may throw to refuse the batch. */
  checkCount?: (n: number) => void;
  /** As ingest()'s beforeCommit. */
  beforeCommit?: BeforeCommit;
  /**
   * The batch's rows fill a buffer made elsewhere (the transform thread's, its whole ArrayBuffer): held by
   * the source's row pool while the open segment references it, then handed to this (to go back there).
   */
  rowsHome?: (buf: Buffer) => void;
}

/**
 * Runs once a batch is known valid, before anything is stored; throwing stores nothing. It sees the newest
 * timestamp and the batch indexes of the events below the retention watermark, which will not be stored.
 */
export type BeforeCommit = (maxTs: number, belowWatermark: readonly number[]) => void;

const MAX_ERRORS = 100;

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
  private readonly hot: HotDictionaries;
  private readonly projects = new ProjectIds();
  private readonly schemaTree: SchemaTree;
  /** The rows: open and sealed segments, the watermark and eviction. */
  private readonly rows: SegmentSet;
  private seq = 0;
  private droppedRows = 0;
  /** Rows physically held at the last schema prune, and appended since (see pruneSchema). */
  private heldAtPrune = 0;
  private appendedSincePrune = 0;
  /** An event with forgettable paths was dropped (older than the watermark) since the last prune. */
  private shapesDropped = false;
  /** groupStats' figures per project id of sealed segments with no hidden rows. */
  private readonly segFigures = new WeakMap<Segment, Map<number, Figures>>();

  constructor(def: SourceDef, config: StoreConfig, hotPaths: string[][] = []) {
    this.def = def;
    this.config = config;
    this.hot = new HotDictionaries(hotPaths);
    this.hotPaths = this.hot.paths;
    this.hotKeys = this.hot.keys;
    this.rows = new SegmentSet(config, this.hotPaths.length);
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
  ingest(events: unknown[], nowUs: number, beforeCommit?: BeforeCommit): IngestResult {
    this.rows.raiseWatermark(nowUs - this.config.retentionUs);
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
      const below: number[] = [];
      for (let i = 0; i < ok.length; i++) {
        const ts = ok[i]!.ts;
        if (ts > maxTs) maxTs = ts;
        if (ts < this.rows.wm) below.push(i);
      }
      try {
        beforeCommit(maxTs, below);
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
      if (e.ts < this.rows.wm) { dropped++; if (e.shape !== 0) this.shapesDropped = true; continue; }
      for (let h = 0; h < hot.length; h++) hot[h] = this.hot.id(h, e.hot[h]!);
      this.rows.open.append(e.ts, ++this.seq, this.projects.id(e.project), e.json, e.extra, hot, e.shape);
      this.appendedSincePrune++;
      stored++;
      // By rows, or by bytes (a few thousand big events must not grow one slab without bound).
      if (this.rows.fills(this.rows.open.n, this.rows.open.bytes)) this.rows.seal();
    }
    return this.afterAppend(stored, dropped);
  }

  /**
   * What follows every stored batch (either ingest path): counters, capacity, hot dictionaries, schema
   * pruning, then the Store's hook that holds the process to its memory budget.
   */
  private afterAppend(stored: number, dropped: number): IngestResult {
    this.droppedRows += dropped;
    this.rows.enforceCapacity();
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
    const req = this.transformRequest(body, ndjson, opts.fillUs ?? nowUs, seed);
    // A big body's rows go into one of the source's row buffers (the open segment holds it while it references them).
    const pool = this.rows.rowPool;
    if (body.length >= POOL_MIN_BYTES) req.rowsInto = pool.take(body.length);
    try {
      return this.ingestTransformed(runTransform(req), nowUs, opts);
    } finally {
      if (req.rowsInto) pool.drop(req.rowsInto);
    }
  }

  /** What the addon needs to transform `body` for this source (on this thread or the transform thread). */
  transformRequest(body: Buffer, ndjson: boolean, fillUs: number, idSeed: Buffer): TransformRequest {
    return transformRequest(body, ndjson, this.def, this.hotPaths, this.config, fillUs, idSeed);
  }

  /**
   * The store half of ingestBytes: `b` is the transform of a body made from this.transformRequest (here
   * or on the transform thread). Returns the addon's reason unchanged when it declined the body.
   */
  ingestTransformed(b: NativeBatch | string, nowUs: number, opts: ByteIngestOptions = {}): IngestResult | string {
    // A declined body changes nothing here (the reference path raises the watermark itself).
    if (typeof b === 'string') return b;
    // Rows written into a buffer made elsewhere (rowsHome): the pool holds it while they are stored.
    const pool = this.rows.rowPool;
    const adopted = opts.rowsHome !== undefined && pool.adopt(b.rows, opts.rowsHome);
    try {
      return this.storeTransformed(b, nowUs, opts);
    } finally {
      if (adopted) pool.drop(b.rows);
    }
  }

  private storeTransformed(b: NativeBatch, nowUs: number, opts: ByteIngestOptions): IngestResult | string {
    opts.checkCount?.(b.n);
    this.rows.raiseWatermark(nowUs - this.config.retentionUs);
    const stride = metaStride(this.hotPaths.length);
    this.schemaTree.begin();
    const shapes = batchShapes(b, this.hotPaths.length, this.schemaTree, this.shapeCache);
    if (shapes === null) return 'an event that passes the field bound';
    const meta = b.meta;
    if (opts.beforeCommit) {
      let maxTs = -Infinity;
      const below: number[] = [];
      for (let i = 0; i < b.n; i++) {
        const ts = meta[i * stride]!;
        if (ts > maxTs) maxTs = ts;
        if (ts < this.rows.wm) below.push(i);
      }
      try {
        opts.beforeCommit(maxTs, below);
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
      if (meta[i * stride]! < this.rows.wm) { dropped++; if (shapes[i] !== 0) this.shapesDropped = true; i++; continue; }
      // A run of stored rows up to the one that fills the open segment: its bytes are placed in one piece.
      const open = this.rows.open;
      let j = i, rows = open.n, bytes = open.bytes, full = false;
      while (j < n && meta[j * stride]! >= this.rows.wm) {
        rows++;
        bytes += meta[j * stride + 3]! - meta[j * stride + 1]!;
        j++;
        if (this.rows.fills(rows, bytes)) { full = true; break; }
      }
      const base = open.takeRows(b.rows, meta[i * stride + 1]!, meta[(j - 1) * stride + 3]!) - meta[i * stride + 1]!;
      const count = j - i;
      for (; i < j; i++) {
        const m = i * stride;
        for (let h = 0; h < hot.length; h++) {
          const kind = meta[m + 6 + 2 * h]!, v = meta[m + 7 + 2 * h]!;
          if (kind === 2) {
            let id = strIds[h]![v]!;
            if (id < 0) id = strIds[h]![v] = this.hot.id(h, strs[v]!);
            hot[h] = id;
          } else hot[h] = this.hot.id(h, hotValueOf(kind, v, strs));
        }
        const p = meta[m + 4]!;
        let pid = 0;
        if (p >= 0) { pid = pids[p]!; if (pid < 0) pid = pids[p] = this.projects.id(strs[p]!); }
        open.pushRow(meta[m]!, ++this.seq, pid, base + meta[m + 1]!, base + meta[m + 2]!, hot, shapes[i]!);
      }
      this.appendedSincePrune += count;
      stored += count;
      if (full) this.rows.seal();
    }
    return this.afterAppend(stored, dropped);
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
    for (const seg of this.rows.segments) {
      const { shape, byTs } = seg;
      for (let i = seg.hidden; i < seg.n; i++) { const sh = shape[byTs[i]!]!; if (sh !== 0) live.add(sh); }
    }
    const { shape } = this.rows.open, ts = this.rows.open.ts.v;
    for (let i = 0; i < shape.length; i++) if (shape[i] !== 0 && ts[i]! >= this.rows.wm) live.add(shape[i]!);
    return this.schemaTree.forgetUnused((id) => live.has(id)) > 0;
  }

  /**
   * Forgets every row of the projects `drop` says (cluster mode: their partition moved to another node,
   * and a later return rebuilds it from its stream). Returns how many rows went.
   */
  dropProjects(drop: (project: string) => boolean): number {
    const pids = new Set<number>();
    this.projects.names.forEach((p, i) => { if (p !== null && drop(p)) pids.add(i); });
    if (pids.size === 0) return 0;
    return this.rows.dropProjects(pids);
  }

  // ---- checkpoints ---------------------------------------------------------------------------

  /**
   * This source's state as checkpoint parts, taken now: the head (mutable: counters, dictionaries,
   * schema, codecs, open rows) and one immutable part per sealed segment. Null when the segments are
   * not compressed blocks (a store with compression off is not checkpointed; its log is replayed).
   */
  checkpointParts(): ImagePart[] | null {
    const codecs = this.rows.codecsIfBlocks();
    if (codecs === null) return null;
    const head = encodeHead({
      hotKeys: this.hotKeys, wm: this.rows.wm, seq: this.seq, evictedRows: this.rows.evictedRows, droppedRows: this.droppedRows,
      hotEpoch: this.hot.epoch, projectNames: this.projects.names, hotValues: this.hot.all(), schema: this.schemaTree.toImage(),
      codecs, current: this.rows.codec, codecHasDict: this.rows.codecHasDict,
    }, this.rows.open);
    const parts: ImagePart[] = [{ key: 'head', immutable: false, events: this.rows.open.n, chunks: () => head }];
    return parts.concat(this.rows.segmentParts(this.hot.epoch));
  }

  /** Replaces this (empty) source's state with a checkpoint's parts (head first, then segments, as written). */
  restoreImage(parts: readonly { key: string; chunks: Buffer[] }[]): void {
    if (this.seq !== 0 || this.rows.segments.length) throw new Error(`${this.def.name}: a checkpoint is restored into an empty source only`);
    const [headPart, ...segParts] = parts;
    if (!headPart || headPart.key !== 'head') throw new Error(`${this.def.name}: the checkpoint has no head part first`);
    const head = decodeHead(headPart.chunks);
    if (head.hotKeys.join('\u0000') !== this.hotKeys.join('\u0000')) {
      throw new Error(`${this.def.name}: the checkpoint was made with hot columns ${head.hotKeys.join(', ') || '(none)'}, this build keeps ${this.hotKeys.join(', ') || '(none)'}`);
    }
    this.hot.restore(head.hotValues, head.hotEpoch);
    this.projects.restore(head.projectNames);
    this.schemaTree.loadImage(head.schema);
    this.seq = head.seq;
    this.droppedRows = head.droppedRows;
    this.rows.restore(head, segParts);
    this.heldAtPrune = this.rowCount;
  }

  // ---- eviction ----------------------------------------------------------------------------

  /** The watermark (µs): rows below it are evicted. */
  watermarkUs(): number {
    return this.rows.wm;
  }

  /** Hides (evicts) the rows below `us`, as retention would (a restored checkpoint's later watermark). */
  raiseWatermark(us: number): void {
    this.rows.raiseWatermark(us);
  }

  /** Retention at nowUs, then capacity. */
  evict(nowUs: number): void {
    this.rows.raiseWatermark(nowUs - this.config.retentionUs);
    this.rows.enforceCapacity();
    this.compactHotDicts();
    this.pruneSchema();
  }

  /** Rebuilds hot dictionaries eviction left mostly unused (HotDictionaries.compact). */
  private compactHotDicts(): void {
    // A paused sliced query reads ids against the dictionaries it started with: remap only when none runs.
    if (readsPinned()) return;
    this.hot.compact(this.rows.physicalRows(), [...this.rows.segments, this.rows.open]);
  }

  // ---- the process memory budget (Store.enforceMemory) --------------------------------------

  /** Everything this source holds: segments, the open buffers, dictionaries, schema and codec. */
  residentBytes(): number {
    let n = this.rows.open.residentBytes + this.rows.slabs.spareBytes + this.rows.rowPool.spareBytes + this.hot.bytes + this.projects.names.length * 64 + this.schemaTree.approxBytes;
    for (const s of this.rows.segments) n += s.bytes;
    if (this.rows.codec !== null) n += this.rows.codec.residentBytes;
    return n;
  }

  /** Rows physically held (visible or not yet purged). */
  heldRows(): number {
    return this.rows.physicalRows();
  }

  /** Oldest visible timestamp of the sealed rows (the open segment counts as newest); Infinity when none. */
  oldestSealedTs(): number {
    return this.rows.oldestSealedTs();
  }

  /**
   * Evicts the oldest data for the memory budget: at most `bytes` of stored rows, and at least one
   * segment's worth or all that is left (exact and oldest first, as capacity eviction is).
   */
  shed(bytes: number): void {
    const phys = this.rows.physicalBytes();
    let oldest: Segment | null = null;
    for (const s of this.rows.segments) if (oldest === null || s.maxTs < oldest.maxTs) oldest = s;
    const step = Math.max(1, Math.min(bytes, oldest === null ? phys : oldest.bytes));
    // Over budget: the spare seal slab and row buffers go first (they hold no rows).
    this.rows.slabs.dropSpares();
    this.rows.rowPool.dropSpares();
    this.rows.enforceCapacity(this.config.maxRows, Math.max(0, phys - step));
    this.compactHotDicts();
    this.pruneSchema();
  }

  // ---- reads -------------------------------------------------------------------------------

  /**
   * Rows matching spec, in batches: a snapshot of the rows stored when scan() is called (rows appended to
   * the open segment later are not read, even when the batches are pulled across event-loop turns).
   */
  scan(spec: ScanSpec): Iterable<ScanBatch> {
    return scanSnapshot(this.snapshot(spec), spec);
  }

  /** How many rows scan(spec) would return, counted from the segments' indexes (rows are not read). */
  countRows(spec: ScanSpec): number {
    return countSnapshot(this.snapshot(spec), spec);
  }

  /** What scan(spec) returns, in any order, as runs of row indices into each segment's own columns. */
  scanRuns(spec: ScanSpec): Iterable<RowRun> {
    return runsOfSnapshot(this.snapshot(spec), spec);
  }

  private snapshot(spec: ScanSpec): ScanSnapshot {
    let pid: number | undefined;
    if (spec.project === undefined) pid = undefined;
    else if (spec.project === null) pid = 0;
    else pid = this.projects.find(spec.project) ?? -1;
    return { segments: this.rows.segments.slice(), open: this.rows.open, watermark: this.rows.wm, maxSeq: this.seq, projectNames: this.projects.names, pid, hotIndex: this.hot.index };
  }

  /** Visible rows (ts >= watermark). */
  get rowCount(): number {
    return this.rows.rowCount;
  }

  /** Oldest visible timestamp, or null when empty. */
  get minTs(): number | null {
    return this.rows.minTs;
  }

  /** Newest visible timestamp, or null when empty. */
  get maxTs(): number | null {
    return this.rows.maxTs;
  }

  /**
   * Visible rows with their oldest and newest timestamp per group of projects (cluster mode's partitions;
   * the project is null for rows without one). A sealed segment's figures are kept while none of its rows
   * is hidden (segments never change otherwise), so only the open rows and the oldest segments are read again.
   */
  groupStats(groupOf: (project: string | null) => number): Map<number, Figures> {
    const gid = this.projects.names.map((p) => groupOf(p));
    const group = (pid: number): number => gid[pid]!;
    const out = new Map<number, Figures>();
    for (const seg of this.rows.segments) {
      if (seg.hidden >= seg.n) continue;
      let f = seg.hidden === 0 ? this.segFigures.get(seg) : undefined;
      if (!f) {
        f = pidFigures(seg.ts, seg.pid, seg.n, this.rows.wm);
        if (seg.hidden === 0) this.segFigures.set(seg, f);
      }
      mergeFigures(out, f, group);
    }
    mergeFigures(out, pidFigures(this.rows.open.ts, this.rows.open.pid, this.rows.open.n, this.rows.wm), group);
    return out;
  }

  /** Rows stored once and evicted since (by retention or capacity). */
  get evicted(): number {
    return this.rows.evictedRows;
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
    return this.rows.wm;
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
  hotDict(key: string): HotDict {
    return this.hot.dict(key, this.def.name);
  }

  stats(): SourceStoreStats {
    return {
      rows: this.rowCount,
      physicalRows: this.rows.physicalRows(),
      bytes: this.rows.physicalBytes(),
      segments: this.rows.segments.length,
      openRows: this.rows.open.n,
      evicted: this.rows.evictedRows,
      dropped: this.droppedRows,
      watermark: this.rows.wm,
      lastSeq: this.seq,
      projects: this.projects.names.length - 1,
      schemaFields: this.schemaTree.size,
      schemaBytes: this.schemaTree.approxBytes,
      resident: this.residentBytes(),
    };
  }
}
