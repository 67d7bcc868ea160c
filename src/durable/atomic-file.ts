// Writing a file so that a crash leaves either the old file or the whole new one (SPEC §12): write a
// temporary file, fsync it, rename it over the target, then fsync the directory so the rename lasts.

import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Suffix of a file being written; recovery deletes leftovers with it (a crash mid-write). */
export const TMP_SUFFIX = '.tmp';

/** Writes `chunks` to `path` atomically and durably. On failure the temporary file is removed and the target is untouched. */
export async function writeFileAtomic(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const tmp = path + TMP_SUFFIX;
  const fh = await open(tmp, 'w');
  try {
    try {
      await writeAllGathered(fh, chunks);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fsyncDirAsync(dirname(path));
}

/** Buffers per gathered write (Linux's IOV_MAX). */
export const WRITE_GROUP = 1024;

/**
 * Writes `chunks` in order, up to WRITE_GROUP of them per gathered write: a part file of a big segment is
 * thousands of small chunks, and one thread-pool write each cost more than the bytes. A short write goes on
 * from the first byte not written.
 */
async function writeAllGathered(fh: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  let group: Uint8Array[] = [];
  for (let i = 0; i < chunks.length || group.length > 0;) {
    while (group.length < WRITE_GROUP && i < chunks.length) {
      const c = chunks[i++]!;
      if (c.length > 0) group.push(c);
    }
    if (group.length === 0) break;
    const want = group.reduce((n, c) => n + c.length, 0);
    const { bytesWritten } = await fh.writev(group);
    if (bytesWritten <= 0) throw new Error('the disk accepted no bytes');
    group = bytesWritten === want ? [] : unwritten(group, bytesWritten);
  }
}

/** What of `group` is left after its first `n` bytes went out. */
function unwritten(group: readonly Uint8Array[], n: number): Uint8Array[] {
  let k = 0;
  while (n >= group[k]!.length) n -= group[k++]!.length;
  return [group[k]!.subarray(n), ...group.slice(k + 1)];
}

/** fsyncDir on the thread pool: the same guarantee once it resolves, without blocking the event loop. */
async function fsyncDirAsync(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Makes a directory's entries (a rename, a new or deleted file) durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
