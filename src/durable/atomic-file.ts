// Writing a file so that a crash leaves either the old file or the whole new one (SPEC §12): write a
// temporary file, fsync it, rename it over the target, then fsync the directory so the rename lasts.

import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Suffix of a file being written; recovery deletes leftovers with it (a crash mid-write). */
export const TMP_SUFFIX = '.tmp';

/** Writes `chunks` to `path` atomically and durably. On failure the temporary file is removed and the target is untouched. */
export async function writeFileAtomic(path: string, chunks: readonly Uint8Array[]): Promise<void> {
  const tmp = path + TMP_SUFFIX;
  const fh = await open(tmp, 'w');
  try {
    try {
      for (const c of chunks) {
        for (let at = 0; at < c.length;) {
          const { bytesWritten } = await fh.write(c, at, c.length - at);
          if (bytesWritten <= 0) throw new Error('the disk accepted no bytes');
          at += bytesWritten;
        }
      }
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
