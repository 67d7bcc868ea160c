// Fresh buffers for big row byte runs (seal slabs, merge slabs, read buffers): uninitialised, and advised
// into transparent huge pages when whole 2 MiB pages fit, so their first writes fault 2 MiB at a time.

import { INGEST_ADDON } from './native-ingest.ts';

/**
 * Below this a buffer gets no advice: at least one whole 2 MiB page must fit whatever its alignment, and
 * a smaller buffer comes from the allocator's heap (MALLOC_SETTINGS), whose pages are reused already.
 */
export const HUGE_ADVICE_MIN_BYTES = 4 * 1024 * 1024;

/**
 * Buffer.allocUnsafeSlow(bytes), advised into huge pages when it is big: a first touch of a 4 KiB page
 * costs ~10 µs on the VMs these benches ran on, a huge page 0.3-1 µs per 4 KiB it holds once the host backs
 * that memory (bench/INGEST.md, round 15). Only what is written becomes resident, in 2 MiB steps, and it is
 * freed (unmapped) as before.
 */
export function allocBig(bytes: number): Buffer<ArrayBuffer> {
  const buf = Buffer.allocUnsafeSlow(bytes);
  if (bytes >= HUGE_ADVICE_MIN_BYTES) INGEST_ADDON.adviseHugePages(buf);
  return buf;
}
