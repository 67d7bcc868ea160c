// The write-ahead log (SPEC §12): framed, checksummed records appended to numbered segment files.
// Concurrent appends share one write (group commit); RINGQL_FSYNC=always syncs before acknowledging,
// `interval` at most every RINGQL_FSYNC_MS. A failed write is cut back off the file and rejected.

import { mkdirSync, readdirSync, unlinkSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { RingqlError } from '../core/errors.ts';
import { frame } from './record-frame.ts';

export type FsyncMode = 'always' | 'interval';

export interface WalOptions {
  dir: string;
  fsync: FsyncMode;
  fsyncMs: number;
  /** A segment file is closed and a new one started past this size (default 64 MiB). */
  segmentBytes?: number;
  log?: (line: string) => void;
}

interface Pending {
  buf: Buffer;
  maxTs: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** One segment file: its number, and the newest event time it holds (for the retention checkpoint). */
export interface WalFile {
  seq: number;
  path: string;
  bytes: number;
  maxTs: number;
}

export const WAL_SUFFIX = '.wal';

export function walFileName(seq: number): string {
  return String(seq).padStart(16, '0') + WAL_SUFFIX;
}

/** The segment files of a WAL directory, oldest first. */
export function listWalFiles(dir: string): WalFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: WalFile[] = [];
  for (const n of names) {
    if (!/^\d{16}\.wal$/.test(n)) continue;
    // Only regular files are log segments (a device or directory with such a name is not read).
    const st = statSync(join(dir, n));
    if (st.isFile()) out.push({ seq: Number(n.slice(0, 16)), path: join(dir, n), bytes: st.size, maxTs: Infinity });
  }
  return out.sort((a, b) => a.seq - b.seq);
}

export class Wal {
  private fh: FileHandle | null = null;
  private current: WalFile;
  private offset = 0;
  private queue: Pending[] = [];
  private writing = false;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private lastSyncMs = 0;
  private writeErrors = 0;
  private groups = 0;
  /** The last write failed: the next one starts a new segment file (space may have returned elsewhere). */
  private broken = false;
  private readonly segmentBytes: number;
  private readonly done: WalFile[];

  private constructor(private readonly opts: WalOptions, previous: WalFile[]) {
    this.segmentBytes = opts.segmentBytes ?? 64 * 1024 * 1024;
    this.done = previous;
    const seq = (previous.at(-1)?.seq ?? 0) + 1;
    this.current = { seq, path: join(opts.dir, walFileName(seq)), bytes: 0, maxTs: -Infinity };
  }

  /**
   * Opens the log for appending in a new segment file after `previous` (the files recovery read, with
   * their newest event times), so a torn tail of an old file is never written after.
   */
  static async open(opts: WalOptions, previous: WalFile[]): Promise<Wal> {
    mkdirSync(opts.dir, { recursive: true });
    const wal = new Wal(opts, previous);
    wal.fh = await open(wal.current.path, 'a');
    if (opts.fsync === 'interval') {
      wal.timer = setInterval(() => void wal.syncIfDirty(), opts.fsyncMs);
      wal.timer.unref();
    }
    return wal;
  }

  /**
   * Appends one record; resolves once it is written (and synced, with fsync=always). `maxTs` is the newest
   * event time in it (µs), for the retention checkpoint. Rejects with 503 storage_unavailable when the
   * write fails; nothing of the record stays in the file then.
   */
  append(type: number, payload: Buffer, maxTs: number): Promise<void> {
    if (this.closed) return Promise.reject(unavailable('the server is shutting down'));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ buf: frame(type, payload), maxTs, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  /** Writes everything queued in one go (group commit), then the next group, until the queue is empty. */
  private async flush(): Promise<void> {
    this.writing = true;
    try {
      while (this.queue.length) {
        const group = this.queue;
        this.queue = [];
        try {
          await this.writeGroup(group);
          for (const p of group) p.resolve();
        } catch (err) {
          this.writeErrors++;
          const e = unavailable(err instanceof Error ? err.message : String(err));
          for (const p of group) p.reject(e);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async writeGroup(group: Pending[]): Promise<void> {
    if (this.current.bytes >= this.segmentBytes || this.broken || !this.fh) await this.roll();
    const fh = this.fh!;
    const bufs = group.map((p) => p.buf);
    const total = bufs.reduce((n, b) => n + b.length, 0);
    const at = this.offset;
    try {
      let written = 0;
      while (written < total) {
        const r = await fh.writev(written === 0 ? bufs : remaining(bufs, written));
        if (r.bytesWritten === 0) throw new Error('the disk accepted no bytes');
        written += r.bytesWritten;
      }
      if (this.opts.fsync === 'always') await this.sync();
      else this.dirty = true;
    } catch (err) {
      // Cut a partial write back off, so the next record starts where a reader expects one.
      await fh.truncate(at).catch(() => {});
      this.broken = true;
      throw err;
    }
    this.groups++;
    this.offset = at + total;
    this.current.bytes = this.offset;
    for (const p of group) if (p.maxTs > this.current.maxTs) this.current.maxTs = p.maxTs;
  }

  /** Closes the current file and starts the next; while the new file cannot be opened the log stays broken. */
  private async roll(): Promise<void> {
    if (this.fh) {
      if (!this.broken) await this.sync();
      await this.fh.close().catch(() => {});
      this.fh = null;
      this.done.push(this.current);
      const seq = this.current.seq + 1;
      this.current = { seq, path: join(this.opts.dir, walFileName(seq)), bytes: 0, maxTs: -Infinity };
      this.offset = 0;
    }
    this.broken = true;
    this.fh = await open(this.current.path, 'a');
    this.broken = false;
  }

  private async sync(): Promise<void> {
    await this.fh!.datasync();
    this.dirty = false;
    this.lastSyncMs = Date.now();
  }

  private async syncIfDirty(): Promise<void> {
    if (!this.dirty || this.closed) return;
    this.dirty = false;
    try {
      await this.fh!.datasync();
      this.lastSyncMs = Date.now();
    } catch (err) {
      this.dirty = true;
      this.opts.log?.(`ringql: WAL fsync failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /**
   * Checkpoint by retention: deletes closed segment files whose every event is older than `cutoffUs`
   * (those events are evicted from memory already, so replaying them would only drop them again).
   */
  dropOlderThan(cutoffUs: number): number {
    let removed = 0;
    while (this.done.length && this.done[0]!.maxTs < cutoffUs) {
      const f = this.done.shift()!;
      try {
        unlinkSync(f.path);
        removed++;
      } catch (err) {
        this.opts.log?.(`ringql: could not remove WAL file ${f.path}: ${err instanceof Error ? err.message : String(err)}`);
        this.done.unshift(f);
        break;
      }
    }
    return removed;
  }

  /** Waits for queued writes, syncs and closes; appends after this are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    while (this.writing || this.queue.length) await new Promise((r) => setTimeout(r, 5));
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.fh) {
      await this.sync().catch(() => {});
      await this.fh.close();
      this.fh = null;
    }
  }

  stats(): { files: number; bytes: number; fsync: FsyncMode; last_sync_ms: number | null; write_errors: number; write_groups: number } {
    const bytes = this.done.reduce((n, f) => n + f.bytes, 0) + this.current.bytes;
    return { files: this.done.length + 1, bytes, fsync: this.opts.fsync, last_sync_ms: this.lastSyncMs || null, write_errors: this.writeErrors, write_groups: this.groups };
  }
}

function unavailable(why: string): RingqlError {
  return new RingqlError('storage_unavailable', `The batch could not be written to the write-ahead log (${why}); nothing of it was stored. Retry shortly`, { retry_after: 1 });
}

/** The part of `bufs` after the first `skip` bytes (a short writev continues where it stopped). */
function remaining(bufs: Buffer[], skip: number): Buffer[] {
  const out: Buffer[] = [];
  for (const b of bufs) {
    if (skip >= b.length) { skip -= b.length; continue; }
    out.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return out;
}
