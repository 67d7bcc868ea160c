// Reusable shared memory for large ingest bodies (issue 16): a body is read into a SharedArrayBuffer slot
// that the transform thread reads in place, and the slot is given back once the ingest has settled, so
// bodies neither fault in fresh pages nor make V8 count (and collect for) per-request external memory.

import { SizedFreeList } from '../core/sized-free-list.ts';
import { IdleDrop } from '../core/idle-drop.ts';

/** Bodies smaller than this (or larger than MAX_SLOT_BYTES) are not put in a slot. */
export const MIN_SLOT_BYTES = 64 * 1024;
export const MAX_SLOT_BYTES = 16 * 1024 * 1024;
/**
 * Given-back slots kept at most, and their bytes at most; more are left to GC. Enough for every body of a
 * client with 16 requests in flight to find one (with 8, half the 1 MB bodies of such a load took a fresh slot
 * and faulted its pages in: ~3 % of the main thread; bench/INGEST.md round 18). They all go once ingest stops
 * for SPARE_IDLE_MS, so an idle server holds none.
 */
export const MAX_FREE_SLOTS = 32;
export const MAX_FREE_BYTES = 64 * 1024 * 1024;
const GRAIN = 64 * 1024;

const free = new SizedFreeList<SharedArrayBuffer>(MAX_FREE_SLOTS, MAX_FREE_BYTES);
/**
 * Slots handed out and not given back: never handed out again until they are. Weak, so the slot of a
 * body never given back (its request aborted mid-read) is simply collected.
 */
let lent = new WeakSet<SharedArrayBuffer>();
let lentCount = 0;
let reused = 0;
const idle = new IdleDrop(() => free.clear(), () => free.count > 0);

/**
 * `n` writable bytes in a slot nobody else holds: a given-back slot that fits closely (at most a quarter
 * plus 64 KiB larger), else a new one; null when `n` is outside [MIN_SLOT_BYTES, MAX_SLOT_BYTES].
 */
export function takeBodySlot(n: number): Buffer | null {
  if (n < MIN_SLOT_BYTES || n > MAX_SLOT_BYTES) return null;
  idle.use();
  let sab = free.take(n, n + (n >>> 2) + GRAIN);
  if (sab !== undefined) reused++;
  else sab = new SharedArrayBuffer(Math.ceil(n / GRAIN) * GRAIN);
  lent.add(sab);
  lentCount++;
  return Buffer.from(sab, 0, n);
}

/**
 * Gives back the slot under `body` (a view takeBodySlot returned, or part of one) once nothing reads it
 * any more; anything else, or a slot given back already, is ignored.
 */
export function releaseBodySlot(body: Buffer | null): void {
  const sab = body?.buffer;
  if (!(sab instanceof SharedArrayBuffer) || !lent.delete(sab)) return;
  lentCount--;
  free.keep(sab);
  idle.arm();
}

/** Slots handed out and not given back (aborted reads included), slots kept free, their bytes, and how many bodies reused one (tests, bench). */
export function bodySlotStats(): { lent: number; free: number; freeBytes: number; reused: number } {
  return { lent: lentCount, free: free.count, freeBytes: free.bytes, reused };
}

/** Forgets every slot (tests). */
export function clearBodySlots(): void {
  idle.cancel();
  free.clear();
  lent = new WeakSet();
  lentCount = 0;
}
