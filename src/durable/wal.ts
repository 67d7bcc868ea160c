// The write-ahead log (SPEC §12): framed, checksummed records appended to numbered segment files,
// written synchronously inside the ingest (so a batch is logged before it is stored, with no await in
// between); RINGQL_FSYNC=always makes the acknowledgement wait for an fsync that concurrent batches
// share (group commit), `interval` syncs at most every RINGQL_FSYNC_MS. A failed write is cut back off.

import { closeSync, fdatasync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, statSync, unlinkSync, writeSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import { RingqlError } from '../core/errors.ts';
import { HEADER_BYTES, frameHeader, frameHeaderOf } from './record-frame.ts';

export type FsyncMode = 'always' | 'interval';

export interface WalOptions {
  dir: string;
  fsync: FsyncMode;
  fsyncMs: number;
  /** A segment file is closed and a new one started past this size (default 64 MiB). */
  segmentBytes?: number;
  log?: (line: string) => void;
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
  private fd: number | null = null;
  private current: WalFile;
  private offset = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private lastSyncMs = 0;
  private writeErrors = 0;
  private syncs = 0;
  /** Bytes written since the last fsync, and the fsync in flight (group commit: one fsync serves every write before it). */
  private unsynced = false;
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  private waiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** The last write failed: the next one starts a new segment file (space may have returned). */
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
  static open(opts: WalOptions, previous: WalFile[]): Wal {
    mkdirSync(opts.dir, { recursive: true });
    const wal = new Wal(opts, previous);
    wal.fd = openSync(wal.current.path, 'a');
    if (opts.fsync === 'interval') {
      wal.timer = setInterval(() => { if (wal.unsynced) wal.syncNow().catch(() => {}); }, opts.fsyncMs);
      wal.timer.unref();
    }
    return wal;
  }

  /**
   * Appends one record synchronously (the page cache holds it: a crash of the process loses nothing).
   * `maxTs` is the newest event time in it (µs), for the retention checkpoint. Throws 503
   * storage_unavailable when the write fails; nothing of the record stays in the file then. `crc`: the
   * payload's CRC-32 when the caller has it already (the transform thread computes a raw body's).
   */
  appendSync(type: number, payload: Buffer | readonly Buffer[], maxTs: number, crc?: number): void {
    if (this.closed) throw unavailable('the server is shutting down');
    // Header and payload parts go out in one gathered write: a raw body is never copied into a record buffer.
    const body = Array.isArray(payload) ? (payload as readonly Buffer[]) : [payload as Buffer];
    const len = body.reduce((n, p) => n + p.length, 0);
    const parts = [crc === undefined ? frameHeader(type, body) : frameHeaderOf(type, len, crc), ...body];
    const total = HEADER_BYTES + len;
    try {
      if (this.current.bytes >= this.segmentBytes || this.broken || this.fd === null) this.roll();
      const fd = this.fd!;
      const at = this.offset;
      try {
        const first = writevSync(fd, parts);
        if (first < total) {
          // A short gathered write (rare: a full disk or a signal): finish the rest byte-exactly.
          const rest = Buffer.concat(parts).subarray(first);
          for (let written = 0; written < rest.length;) {
            const n = writeSync(fd, rest, written, rest.length - written);
            if (n <= 0) throw new Error('the disk accepted no bytes');
            written += n;
          }
        }
      } catch (err) {
        // Cut a partial write back off, so the next record starts where a reader expects one.
        try { ftruncateSync(fd, at); } catch { /* the file is abandoned below */ }
        this.broken = true;
        throw err;
      }
      this.offset = at + total;
      this.current.bytes = this.offset;
      if (maxTs > this.current.maxTs) this.current.maxTs = maxTs;
      this.unsynced = true;
    } catch (err) {
      this.writeErrors++;
      throw unavailable(err instanceof Error ? err.message : String(err));
    }
  }

  /**
   * Resolves once everything appended so far is on disk (fsync=always; concurrent callers share one
   * fsync), at once with fsync=interval. Rejects with storage_unavailable when the fsync fails.
   */
  durable(): Promise<void> {
    if (this.opts.fsync === 'interval' || !this.unsynced) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.syncing) this.syncAgain = true;
      else void this.syncNow().catch(() => {});
    });
  }

  /** One fsync for every write made before it started; waiters that came during it get the next one. */
  private async syncNow(): Promise<void> {
    if (this.syncing) return this.syncing;
    const waiters = this.waiters;
    this.waiters = [];
    this.unsynced = false;
    const fd = this.fd;
    this.syncing = (async () => {
      try {
        if (fd !== null) await new Promise<void>((res, rej) => fdatasync(fd, (e) => (e ? rej(e) : res())));
        this.lastSyncMs = Date.now();
        this.syncs++;
        for (const w of waiters) w.resolve();
      } catch (err) {
        this.unsynced = true;
        this.writeErrors++;
        this.opts.log?.(`ringql: WAL fsync failed: ${err instanceof Error ? err.message : String(err)}`);
        const e = unavailable(err instanceof Error ? err.message : String(err));
        for (const w of waiters) w.reject(e);
      } finally {
        this.syncing = null;
      }
    })();
    await this.syncing;
    if (this.syncAgain || this.waiters.length) {
      this.syncAgain = false;
      if (this.waiters.length) await this.syncNow();
    }
  }

  /** Closes the current file and starts the next; while the new file cannot be opened the log stays broken. */
  private roll(): void {
    if (this.fd !== null) {
      if (!this.broken) {
        try { fdatasyncSync(this.fd); } catch { /* counted by the write that follows, if the disk is gone */ }
      }
      try { closeSync(this.fd); } catch { /* already unusable */ }
      this.fd = null;
      this.done.push(this.current);
      const seq = this.current.seq + 1;
      this.current = { seq, path: join(this.opts.dir, walFileName(seq)), bytes: 0, maxTs: -Infinity };
      this.offset = 0;
    }
    this.broken = true;
    this.fd = openSync(this.current.path, 'a');
    this.broken = false;
  }

  /**
   * Starts a new file for a checkpoint and returns its number: every record before it is in the
   * checkpoint being taken, so once that is durable the older files can go (dropBefore).
   */
  rollForCheckpoint(): number {
    if (this.closed) throw unavailable('the server is shutting down');
    if (this.current.bytes > 0) this.roll();
    return this.current.seq;
  }

  /** Deletes closed files numbered below `seq` (their records are in a durable checkpoint). */
  dropBefore(seq: number): number {
    let removed = 0;
    while (this.done.length && this.done[0]!.seq < seq) {
      const f = this.done[0]!;
      try {
        unlinkSync(f.path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          this.opts.log?.(`ringql: could not remove WAL file ${f.path}: ${err instanceof Error ? err.message : String(err)}`);
          break;
        }
      }
      this.done.shift();
      removed++;
    }
    return removed;
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

  /** Syncs and closes; appends after this are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    while (this.syncing) await this.syncing.catch(() => {});
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.fd !== null) {
      try { fdatasyncSync(this.fd); this.lastSyncMs = Date.now(); } catch { /* reported by the writes that failed */ }
      closeSync(this.fd);
      this.fd = null;
    }
  }

  stats(): { files: number; bytes: number; fsync: FsyncMode; last_sync_ms: number | null; write_errors: number; fsyncs: number } {
    const bytes = this.done.reduce((n, f) => n + f.bytes, 0) + this.current.bytes;
    return { files: this.done.length + 1, bytes, fsync: this.opts.fsync, last_sync_ms: this.lastSyncMs || null, write_errors: this.writeErrors, fsyncs: this.syncs };
  }
}

function unavailable(why: string): RingqlError {
  return new RingqlError('storage_unavailable', `The batch could not be written to the write-ahead log (${why}); nothing of it was stored. Retry shortly`, { retry_after: 1 });
}
