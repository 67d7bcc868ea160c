// Gives the glibc heap's free pages back to the system a moment after the store frees big inputs (seals,
// merges, evictions): their small buffers (compressed blocks, index columns) leave holes only a trim returns.

import { INGEST_ADDON, MALLOC_SETTINGS } from './native-ingest.ts';

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

/**
 * Freed heap top glibc keeps while `ringql query`'s column load runs: its workers' outputs (~250 KB a body) are
 * freed and made again body after body, and with MALLOC_SETTINGS' 128 KiB each free gave the top back and the
 * next body faulted it in again (1 GB query: wall -5 %, 10 alternated pairs; bench/CLI.md round 14).
 */
export const LOAD_TRIM_THRESHOLD = 64 * 1024 * 1024;

/**
 * Runs `f` with freed heap kept up to LOAD_TRIM_THRESHOLD, then restores MALLOC_SETTINGS' threshold and asks for
 * a trim (scheduleTrim: a trim right away held the query's answer ~17 ms; the CLI has usually exited by then).
 */
export async function holdingFreedHeap<T>(f: () => Promise<T>): Promise<T> {
  if (INGEST_ADDON.mallocTune(0, LOAD_TRIM_THRESHOLD, 0) !== 0) throw new Error('internal: glibc refused a trim threshold');
  try {
    return await f();
  } finally {
    INGEST_ADDON.mallocTune(0, MALLOC_SETTINGS.trimThreshold, 0);
    scheduleTrim();
  }
}

/** Trims run so far, and whether one is scheduled (tests). */
export function trimStats(): { trims: number; scheduled: boolean } {
  return { trims, scheduled: timer !== null };
}
