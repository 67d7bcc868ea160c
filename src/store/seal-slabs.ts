// A source's bounded pool of seal slabs: a seal's raw blocks are views of one slab, which comes back here
// once every block of it is compressed (then no block refers to it), so the next seal writes into pages
// already faulted in rather than a freshly mapped slab (bench/INGEST.md, 2026-11-25 13:15).

import type { Block } from './row-blocks.ts';
import { readsPinned } from './read-pins.ts';
import { allocBig } from './big-buffer.ts';

/** Slabs at most this many times the bytes asked for are handed out (a bigger one would hold pages idle). */
const MAX_OVERSIZE = 2;
/** Room a fresh slab gets beyond what its seal needs, so the next seals of similar rows fit it. */
const SLACK = 1.125;

/** A pool with no seal for this long gives its spare slabs back (only sustained ingest gains from one). */
export const IDLE_MS = 1000;
/** Slabs tracked while their blocks await compression; older ones are left to the collector. */
const MAX_LENT = 2;

/** Whether every block has dropped its raw bytes (the last queued is checked first: it is compressed last). */
function allCompressed(blocks: readonly Block[]): boolean {
  for (let i = blocks.length - 1; i >= 0; i--) if (blocks[i]!.raw !== null) return false;
  return true;
}

interface Lent {
  slab: Buffer;
  blocks: readonly Block[];
}

/**
 * Seal slabs of one source. A slab is lent with the blocks made of it and is free again only when each
 * of those blocks has dropped its raw bytes (compressed: `raw === null`) and no reader is paused
 * (read-pins.ts): a sliced query keeps views of raw row bytes in its body between slices (BodyWriter
 * copies them at the end), so a slab whose blocks were compressed meanwhile must not be written again
 * until that query is done. Synchronous readers finish before the event loop turns, so they need no pin.
 * At most `maxSpare` free slabs are kept.
 */
export class SealSlabs {
  private lent: Lent[] = [];
  private spare: Buffer[] = [];
  /** Slabs handed out again (tests, benches). */
  reused = 0;
  /** Slabs asked for so far, and the idle check pending (see IDLE_MS). */
  private takes = 0;
  private idle: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly maxSpare = 1) {}

  /** A slab of at least `bytes` bytes: a spare one when it fits, else a fresh one with some slack. */
  take(bytes: number): Buffer {
    this.takes++;
    this.reclaim();
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const len = this.spare[i]!.length;
      if (len >= bytes && len <= MAX_OVERSIZE * Math.max(bytes, 1) && (best < 0 || len < this.spare[best]!.length)) best = i;
    }
    if (best >= 0) {
      this.reused++;
      return this.spare.splice(best, 1)[0]!;
    }
    return allocBig(Math.max(1024, Math.ceil(bytes * SLACK)));
  }

  /** Records that `blocks` are views of `slab`: it is free again once all of them are compressed. */
  lend(slab: Buffer, blocks: readonly Block[]): void {
    this.lent.push({ slab, blocks });
    this.armIdle();
  }

  /** After IDLE_MS with no take, the spares (and lent slabs whose blocks are compressed by then) go. */
  private armIdle(): void {
    if (this.idle !== null) return;
    const takes = this.takes;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.takes === takes) {
        this.reclaim();
        this.spare = [];
      }
      if (this.lent.length > 0 || this.spare.length > 0) this.armIdle();
    }, IDLE_MS);
    this.idle.unref();
  }

  /**
   * Moves slabs whose blocks are all compressed to the spares (the newest kept, up to maxSpare). Blocks
   * are compressed oldest first, so only the oldest lent slabs are looked at, and past MAX_LENT (a backlog)
   * the oldest is forgotten (the collector frees it once its blocks are compressed): a seal's cost here stays O(1).
   */
  private reclaim(): void {
    // A paused reader may hold views of any raw block it saw: no slab becomes free while one is paused.
    if (readsPinned()) return;
    while (this.lent.length > 0 && (this.lent.length > MAX_LENT || allCompressed(this.lent[0]!.blocks))) {
      const l = this.lent.shift()!;
      if (allCompressed(l.blocks)) this.spare.push(l.slab);
    }
    if (this.spare.length > this.maxSpare) this.spare.splice(0, this.spare.length - this.maxSpare);
  }

  /** Bytes of the free slabs held for reuse (the store counts them: they stay resident). */
  get spareBytes(): number {
    this.reclaim();
    let n = 0;
    for (const s of this.spare) n += s.length;
    return n;
  }

  /** Slabs lent and not yet free (tests). */
  get lentCount(): number {
    return this.lent.length;
  }

  /** Forgets the spares (a shrinking memory budget gives their pages back). */
  dropSpares(): void {
    this.spare = [];
  }
}
