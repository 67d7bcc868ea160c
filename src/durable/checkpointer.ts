// Checkpoints (SPEC §12): the store's state written as part files — each sealed segment once, the
// mutable rest (open rows, dictionaries, schema) as a fresh snapshot — then the manifest, and only then
// the write-ahead log files and part files the new manifest no longer needs are deleted.

import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from '../core/crc32.ts';
import { TMP_SUFFIX, writeFileAtomic } from './atomic-file.ts';
import { MANIFEST_FILE, readManifest, writeManifest, type Manifest, type ManifestPart } from './manifest.ts';
import { encodePartFileSliced } from './part-file.ts';
import { TimeSlicer } from '../core/time-slicer.ts';
import type { Wal } from './wal.ts';
import { IMAGE_FORMAT, type ImagePart } from '../store/source-image.ts';

/** One piece of a source's state, as the store offers it (source-image.ts says what each member means). */
export type CheckpointPart = ImagePart;

/** What the store offers a checkpoint: its sources' parts, taken in one synchronous call (null: cannot be checkpointed now). */
export interface Checkpointable {
  readonly name: string;
  checkpointParts(): CheckpointPart[] | null;
  /** The source's watermark now (µs; rows below it are evicted), recorded in the manifest when it is written. */
  watermark?(): number;
}

export interface CheckpointReport {
  id: number;
  walFrom: number;
  partsWritten: number;
  bytesWritten: number;
  filesDeleted: number;
  ms: number;
  /** Times the write phase yielded to the event loop (its slices). */
  pauses: number;
}

export const PART_SUFFIX = '.part';

interface PartToWrite { file: string; source: string; part: CheckpointPart }

export class Checkpointer {
  private last: Manifest | null;
  private running: Promise<CheckpointReport | null> | null = null;
  private lastReport: CheckpointReport | null = null;

  /** Bytes of the files the last manifest lists, and of the manifest. */
  private diskBytes = 0;

  /** Parts of the running checkpoint not written yet, and the bytes of the one being written. */
  private pending: PartToWrite[] = [];
  private writingBytes = 0;

  /**
   * Without `settle`, checkpoint() takes its snapshot in the call itself. With it, the snapshot waits
   * for `settle`: background work it would otherwise do synchronously (the store's block compression
   * backlog) gets done in its own slices first; the snapshot then describes that later moment.
   */
  constructor(private readonly dir: string, private readonly wal: Wal, private readonly log: (line: string) => void = () => {}, private readonly settle: (() => Promise<void>) | null = null) {
    mkdirSync(dir, { recursive: true });
    this.last = readManifest(dir);
    this.diskBytes = this.last ? this.measure(this.last) : 0;
  }

  private measure(m: Manifest): number {
    let n = 0;
    for (const f of [MANIFEST_FILE, ...m.sources.flatMap((s) => s.parts.map((p) => p.file))]) {
      try { n += statSync(join(this.dir, f)).size; } catch { /* counted when it exists */ }
    }
    return n;
  }

  /**
   * Takes a checkpoint (one at a time: a call while one runs returns that one); null when a source cannot
   * be checkpointed. With `why`, the checkpoint logs its outcome once, naming the reason of the call that
   * started it (calls that join a running one log nothing: the housekeeping asks every second).
   */
  checkpoint(sources: readonly Checkpointable[], why?: string): Promise<CheckpointReport | null> {
    this.running ??= this.logged(this.take(sources), why).finally(() => { this.running = null; });
    return this.running;
  }

  private async logged(taking: Promise<CheckpointReport | null>, why: string | undefined): Promise<CheckpointReport | null> {
    if (why === undefined) return taking;
    try {
      const r = await taking;
      if (r) this.log(`ringql: checkpoint ${r.id} (${why}): ${r.partsWritten} parts, ${(r.bytesWritten / 2 ** 20).toFixed(1)} MB written, ${r.filesDeleted} files removed, ${Math.round(r.ms)} ms`);
      return r;
    } catch (err) {
      this.log(`ringql: checkpoint failed (${why}); the log keeps everything: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
  }

  stats(): { last_checkpoint_id: number | null; last_checkpoint_us: number | null; part_files: number; disk_bytes: number; last_checkpoint_ms: number | null } {
    const parts = this.last?.sources.reduce((n, s) => n + s.parts.length, 0) ?? 0;
    return { last_checkpoint_id: this.last?.id ?? null, last_checkpoint_us: this.last?.createdUs ?? null, part_files: parts, disk_bytes: this.diskBytes, last_checkpoint_ms: this.lastReport?.ms ?? null };
  }

  private async take(sources: readonly Checkpointable[]): Promise<CheckpointReport | null> {
    const t0 = performance.now();
    if (this.settle) await this.settle();
    // The snapshot: synchronous, so the WAL position and the parts describe the same moment. A part's
    // bytes are taken later, when it is written: the part keeps what it needs of that moment (a sealed
    // segment's id columns, which compaction replaces rather than rewrites).
    const taken: { name: string; parts: CheckpointPart[] }[] = [];
    for (const s of sources) {
      const parts = s.checkpointParts();
      if (parts === null) return null;
      taken.push({ name: s.name, parts });
    }
    const walFrom = this.wal.rollForCheckpoint();
    const id = (this.last?.id ?? 0) + 1;
    const kept = new Set(this.last?.sources.flatMap((s) => s.parts.map((p) => p.file)) ?? []);
    const toWrite: PartToWrite[] = [];
    const manifest: Manifest = { id, walFrom, createdUs: Date.now() * 1000, sources: [] };
    for (const s of taken) {
      const parts: ManifestPart[] = [];
      for (const p of s.parts) {
        const file = partFileName(s.name, p.key, p.immutable ? null : id);
        parts.push({ key: p.key, file, events: p.events });
        if (p.immutable && kept.has(file)) continue;
        p.hold?.();
        toWrite.push({ file, source: s.name, part: p });
      }
      manifest.sources.push({ name: s.name, parts });
    }
    taken.length = 0; // the queue alone keeps the parts from here, so each goes once written or evicted
    const { written, bytes: bytesWritten, pauses } = await this.writeParts(newestFirst(toWrite.splice(0)), manifest);
    // Eviction went on while the parts were written: the watermark of now hides what it took at a restore.
    for (const [i, s] of manifest.sources.entries()) {
      const wm = sources[i]!.watermark?.() ?? -Infinity;
      if (Number.isFinite(wm)) s.watermarkUs = wm;
    }
    await writeManifest(this.dir, manifest);
    this.last = manifest;
    this.diskBytes = this.measure(manifest);
    const filesDeleted = this.wal.dropBefore(walFrom) + this.deleteUnlisted(manifest);
    const report = { id, walFrom, partsWritten: written, bytesWritten, filesDeleted, ms: performance.now() - t0, pauses };
    this.lastReport = report;
    return report;
  }

  /**
   * Bytes the running checkpoint holds outside the store: the part being framed and written, and parts
   * waiting their turn whose data the store let go of since the snapshot (Store.countCheckpoint counts them).
   * A part evicted since is not counted: it is dropped unwritten at the next step, and counting it made the
   * budget evict more for bytes already on their way out (each eviction adding to the count, down to nothing).
   */
  heldBytes(): number {
    let n = this.writingBytes;
    for (const w of this.pending) if (!w.part.evicted?.()) n += w.part.detachedBytes?.() ?? 0;
    return n;
  }

  /**
   * Writes the parts one at a time, taking each part's bytes just before writing it and letting them go
   * right after; a part evicted meanwhile is left out of the manifest (its events are no longer held, and
   * the log is cut only once the manifest is durable). Framing (CRC over every byte) runs in slices.
   */
  private async writeParts(queue: PartToWrite[], manifest: Manifest): Promise<{ written: number; bytes: number; pauses: number }> {
    const slicer = new TimeSlicer();
    const leftOut = new Set<string>();
    let written = 0, bytes = 0;
    this.pending = queue;
    try {
      for (;;) {
        this.dropEvicted(leftOut);
        const w = this.pending.shift();
        if (w === undefined) break;
        const chunks = w.part.chunks();
        const total = chunks.reduce((n, c) => n + c.length, 0);
        this.writingBytes = Math.max(0, (w.part.detachedBytes?.() ?? 0) + total - (w.part.sharedBytes?.() ?? 0));
        const framed = await encodePartFileSliced({ key: w.part.key, source: w.source, events: w.part.events, format: IMAGE_FORMAT }, chunks, slicer);
        bytes += framed.reduce((n, b) => n + b.length, 0);
        await writeFileAtomic(join(this.dir, w.file), framed);
        w.part.release?.();
        this.writingBytes = 0;
        written++;
      }
    } finally {
      for (const w of this.pending) w.part.release?.();
      this.pending = [];
      this.writingBytes = 0;
    }
    for (const s of manifest.sources) s.parts = s.parts.filter((p) => !leftOut.has(p.file));
    return { written, bytes, pauses: slicer.pauses };
  }

  /** Takes the parts evicted since the snapshot off the queue (so nothing keeps their data alive), noting their files. */
  private dropEvicted(leftOut: Set<string>): void {
    const keep: PartToWrite[] = [];
    for (const w of this.pending) {
      if (w.part.evicted?.()) { leftOut.add(w.file); w.part.release?.(); }
      else keep.push(w);
    }
    this.pending = keep;
  }

  /** Deletes part files (and leftover temporary files) the manifest does not list. */
  private deleteUnlisted(m: Manifest): number {
    const listed = new Set(m.sources.flatMap((s) => s.parts.map((p) => p.file)));
    let n = 0;
    for (const f of readdirSync(this.dir)) {
      if (!(f.endsWith(PART_SUFFIX) || f.endsWith(PART_SUFFIX + TMP_SUFFIX)) || listed.has(f)) continue;
      try {
        unlinkSync(join(this.dir, f));
        n++;
      } catch (err) {
        this.log(`ringql: could not remove ${join(this.dir, f)}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return n;
  }
}

/**
 * The write order: each source's mutable parts (its head) first, then its immutable parts newest first.
 * The store merges its newest segments and evicts its oldest, so the parts it would merge are let go
 * soonest, and the oldest have the most time to be evicted (then they are not written at all).
 */
function newestFirst(queue: PartToWrite[]): PartToWrite[] {
  const bySource = new Map<string, { mutable: PartToWrite[]; immutable: PartToWrite[] }>();
  for (const w of queue) {
    let g = bySource.get(w.source);
    if (!g) bySource.set(w.source, (g = { mutable: [], immutable: [] }));
    (w.part.immutable ? g.immutable : g.mutable).push(w);
  }
  return [...bySource.values()].flatMap((g) => [...g.mutable, ...g.immutable.reverse()]);
}

/**
 * `<source>--<key>[--<checkpoint>].part`. Characters outside [A-Za-z0-9._-] are replaced, and a name
 * that needed it gets a checksum of the original, so two names never meet in one file.
 */
export function partFileName(source: string, key: string, checkpointId: number | null): string {
  const safe = (s: string): string => {
    const t = s.replace(/[^A-Za-z0-9._-]|--/g, '_');
    return t === s ? s : `${t}~${crc32(Buffer.from(s, 'utf8')).toString(16)}`;
  };
  return `${safe(source)}--${safe(key)}${checkpointId === null ? '' : `--${checkpointId}`}${PART_SUFFIX}`;
}
