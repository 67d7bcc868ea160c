// Gives the glibc heap's free pages back to the system a moment after the store frees big inputs (seals,
// merges, evictions): their small buffers (compressed blocks, index columns) leave holes only a trim returns.

import { INGEST_ADDON } from './native-ingest.ts';

/** Delay between a seal, merge or eviction and the trim it asks for (freed ArrayBuffers go at the next GC meanwhile). */
export const TRIM_DELAY_MS = 1000;

let timer: ReturnType<typeof setTimeout> | null = null;
let trims = 0;

/** Asks for one malloc_trim(0) TRIM_DELAY_MS from now; asks made meanwhile share it (at most one a second). */
export function scheduleTrim(): void {
  if (timer !== null) return;
  timer = setTimeout(trimNow, TRIM_DELAY_MS);
  timer.unref();
}

/** malloc_trim(0) now (a pending scheduled trim is this one); true when pages went back to the system. */
export function trimNow(): boolean {
  if (timer !== null) { clearTimeout(timer); timer = null; }
  trims++;
  return INGEST_ADDON.mallocTrim();
}

/** Trims run so far, and whether one is scheduled (tests). */
export function trimStats(): { trims: number; scheduled: boolean } {
  return { trims, scheduled: timer !== null };
}
