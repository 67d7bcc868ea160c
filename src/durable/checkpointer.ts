// Checkpoints (SPEC §12): the store's state written as part files — each sealed segment once, the
// mutable rest (open rows, dictionaries, schema) as a fresh snapshot — then the manifest, and only then
// the write-ahead log files and part files the new manifest no longer needs are deleted.

import { mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { TMP_SUFFIX, writeFileAtomic } from './atomic-file.ts';
import { MANIFEST_FILE, readManifest, writeManifest, type Manifest, type ManifestPart } from './manifest.ts';
import { encodePartFileSliced } from './part-file.ts';
import { TimeSlicer } from '../core/time-slicer.ts';
import type { Wal } from './wal.ts';

/** One piece of a source's state. Immutable parts (a sealed segment) are written once and kept while listed. */
export interface CheckpointPart {
  /** Unique within the source, stable while the part lives; file-name safe characters are kept, others replaced. */
  key: string;
  immutable: boolean;
  events: number;
  /** The part's bytes; called during the snapshot, only for parts the checkpoint writes. */
  chunks(): Buffer[];
}

/** What the store offers a checkpoint: its sources' parts, taken in one synchronous call (null: cannot be checkpointed now). */
export interface Checkpointable {
  readonly name: string;
  checkpointParts(): CheckpointPart[] | null;
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

export class Checkpointer {
  private last: Manifest | null;
  private running: Promise<CheckpointReport | null> | null = null;
  private lastReport: CheckpointReport | null = null;

  /** Bytes of the files the last manifest lists, and of the manifest. */
  private diskBytes = 0;

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

  /** Takes a checkpoint (one at a time: a call while one runs returns that one); null when a source cannot be checkpointed. */
  checkpoint(sources: readonly Checkpointable[]): Promise<CheckpointReport | null> {
    this.running ??= this.take(sources).finally(() => { this.running = null; });
    return this.running;
  }

  stats(): { last_checkpoint_id: number | null; last_checkpoint_us: number | null; part_files: number; disk_bytes: number; last_checkpoint_ms: number | null } {
    const parts = this.last?.sources.reduce((n, s) => n + s.parts.length, 0) ?? 0;
    return { last_checkpoint_id: this.last?.id ?? null, last_checkpoint_us: this.last?.createdUs ?? null, part_files: parts, disk_bytes: this.diskBytes, last_checkpoint_ms: this.lastReport?.ms ?? null };
  }

  private async take(sources: readonly Checkpointable[]): Promise<CheckpointReport | null> {
    const t0 = performance.now();
    if (this.settle) await this.settle();
    // The snapshot: synchronous, so the WAL position and the parts describe the same moment. Every part
    // to write is encoded now too (a sealed part's columns may change later, e.g. by id compaction).
    const taken: { name: string; parts: CheckpointPart[] }[] = [];
    for (const s of sources) {
      const parts = s.checkpointParts();
      if (parts === null) return null;
      taken.push({ name: s.name, parts });
    }
    const walFrom = this.wal.rollForCheckpoint();
    const id = (this.last?.id ?? 0) + 1;
    const kept = new Set(this.last?.sources.flatMap((s) => s.parts.map((p) => p.file)) ?? []);
    const toWrite: { file: string; source: string; part: CheckpointPart; chunks: Buffer[] }[] = [];
    const manifest: Manifest = { id, walFrom, createdUs: Date.now() * 1000, sources: [] };
    for (const s of taken) {
      const parts: ManifestPart[] = [];
      for (const p of s.parts) {
        const file = partFileName(s.name, p.key, p.immutable ? null : id);
        parts.push({ key: p.key, file, events: p.events });
        if (p.immutable && kept.has(file)) continue;
        toWrite.push({ file, source: s.name, part: p, chunks: p.chunks() });
      }
      manifest.sources.push({ name: s.name, parts });
    }
    let bytesWritten = 0;
    // Framing (CRC over every byte) runs in slices between requests: the snapshot above is all that must be synchronous.
    const slicer = new TimeSlicer();
    for (const w of toWrite) {
      const bytes = await encodePartFileSliced({ key: w.part.key, source: w.source, events: w.part.events }, w.chunks, slicer);
      bytesWritten += bytes.reduce((n, b) => n + b.length, 0);
      await writeFileAtomic(join(this.dir, w.file), bytes);
    }
    await writeManifest(this.dir, manifest);
    this.last = manifest;
    this.diskBytes = this.measure(manifest);
    const filesDeleted = this.wal.dropBefore(walFrom) + this.deleteUnlisted(manifest);
    const report = { id, walFrom, partsWritten: toWrite.length, bytesWritten, filesDeleted, ms: performance.now() - t0, pauses: slicer.pauses };
    this.lastReport = report;
    return report;
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
 * `<source>--<key>[--<checkpoint>].part`. Characters outside [A-Za-z0-9._-] are replaced, and a name
 * that needed it gets a checksum of the original, so two names never meet in one file.
 */
export function partFileName(source: string, key: string, checkpointId: number | null): string {
  const safe = (s: string): string => {
    const t = s.replace(/[^A-Za-z0-9._-]|--/g, '_');
    return t === s ? s : `${t}~${crc32(s).toString(16)}`;
  };
  return `${safe(source)}--${safe(key)}${checkpointId === null ? '' : `--${checkpointId}`}${PART_SUFFIX}`;
}
