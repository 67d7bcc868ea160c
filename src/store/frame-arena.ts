// Shared chunks for sealed blocks' compressed frames and row tables: each codec (one per source) packs them
// end to end, in the order blocks are compressed (about seal order), into chunks of 128 KiB to 1 MiB (all at or
// above glibc's mmap threshold), so evicting the oldest rows frees whole chunks rather than leaving holes.

/** Sizes of an arena's chunks: its first is FIRST_CHUNK, then each twice the last, up to MAX_CHUNK. */
export const FIRST_CHUNK = 128 * 1024;
export const MAX_CHUNK = 1024 * 1024;
/** Placements larger than this get a chunk of their own, of exactly their size. */
const OWN_CHUNK_OVER = MAX_CHUNK / 4;
/** Lengths fit below this in a finalizer's number (chunk id × LEN_SPAN + length). */
const LEN_SPAN = 2 ** 26;

/** One chunk: bytes [0, used) handed out, `live` of them still held by a living block. */
export class Chunk {
  readonly buf: Buffer;
  used = 0;
  live = 0;
  /** An arena is filling it: not released while its placements so far are dead. */
  filling = false;
  constructor(readonly id: number, size: number) {
    this.buf = Buffer.allocUnsafeSlow(size);
  }
}

/** Chunks that still hold a living placement (or are an arena's current one), by id. */
const chunks = new Map<number, Chunk>();
let nextId = 1;
/** Bytes handed out of the chunks held (their unfilled tails are never written, so not resident). */
let usedBytes = 0;
let liveBytes = 0;

function newChunk(size: number): Chunk {
  const c = new Chunk(nextId++, size);
  chunks.set(c.id, c);
  return c;
}

/** Drops a chunk no living block uses and no arena fills (its buffer goes with the last reference). */
function release(c: Chunk): void {
  if (c.live > 0 || c.filling || !chunks.has(c.id)) return;
  chunks.delete(c.id);
  usedBytes -= c.used;
}

const registry = new FinalizationRegistry<number>((held) => {
  const c = chunks.get(Math.floor(held / LEN_SPAN));
  if (c === undefined) return;
  const len = held % LEN_SPAN;
  c.live -= len;
  liveBytes -= len;
  release(c);
});

/** An arena's chunk being filled, apart from the arena so a collected arena (its codec gone) lets it go. */
interface Filling { cur: Chunk | null }
const arenaRegistry = new FinalizationRegistry<Filling>((f) => {
  if (f.cur !== null) { f.cur.filling = false; release(f.cur); }
});

/** Where a placement went: its chunk and byte offset there. */
export interface Placement {
  chunk: Chunk;
  at: number;
}

/** The chunks of one codec's blocks, filled in order. */
export class FrameArena {
  private readonly f: Filling = { cur: null };
  private nextSize = FIRST_CHUNK;
  constructor() {
    arenaRegistry.register(this, this.f);
  }

  /**
   * Room for `len` bytes at a 4-byte aligned offset, owned by `owner` from now on: when it is collected, the
   * bytes count as dead, and a chunk whose bytes are all dead is released.
   */
  place(owner: object, len: number): Placement {
    if (len >= LEN_SPAN) throw new Error(`frame arena: a placement of ${len} bytes is too large`);
    let c: Chunk;
    if (len > OWN_CHUNK_OVER) c = newChunk(len);
    else {
      const cur = this.f.cur;
      if (cur === null || align4(cur.used) + len > cur.buf.length) this.startChunk();
      c = this.f.cur!;
    }
    const at = align4(c.used);
    usedBytes += at + len - c.used;
    c.used = at + len;
    c.live += len;
    liveBytes += len;
    registry.register(owner, c.id * LEN_SPAN + len);
    return { chunk: c, at };
  }

  private startChunk(): void {
    const old = this.f.cur;
    const c = newChunk(this.nextSize);
    c.filling = true;
    this.f.cur = c;
    this.nextSize = Math.min(MAX_CHUNK, this.nextSize * 2);
    if (old !== null) { old.filling = false; release(old); }
  }
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

const arenas = new WeakMap<object, FrameArena>();

/** The arena of blocks compressed by `codec` (one per codec, so one source's chunks hold only its rows). */
export function arenaFor(codec: object): FrameArena {
  let a = arenas.get(codec);
  if (a === undefined) arenas.set(codec, (a = new FrameArena()));
  return a;
}

/**
 * Bytes written into the chunks held now and of their living placements: `usedBytes - liveBytes` is what the
 * chunks hold beyond the blocks their segments count (dead frames until the whole chunk is freed, alignment),
 * which the store counts too. A chunk's unfilled tail is never written, so its pages are not resident.
 */
export function arenaStats(): { chunks: number; usedBytes: number; liveBytes: number; slackBytes: number } {
  return { chunks: chunks.size, usedBytes, liveBytes, slackBytes: usedBytes - liveBytes };
}
