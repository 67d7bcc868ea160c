// A hot column's dictionary held mostly off the V8 heap: values by id in zstd blocks of 128 (decoded on
// demand through a small direct-mapped cache), a typed-array hash table finding a string's id, and the
// newest unfilled block as plain values. A URL column of ~500k query strings: ~12 B per value, not ~140.

import { Compressor, Decompressor } from 'zstd-napi';
import { INEXACT, INEXACT_ID, type HotValue } from './hot-paths.ts';

/** Values of a hot column by id (0 = NULL, INEXACT_ID = INEXACT); ids below `length` only. */
export interface HotDict {
  readonly length: number;
  get(id: number): HotValue;
}

/** Values per compressed block (ids b*BLOCK .. b*BLOCK+BLOCK-1 form block b). */
export const DICT_BLOCK = 128;
const SHIFT = 7;
/** Decoded blocks kept per dictionary (direct-mapped by block number). */
const CACHE = 64;
/**
 * Strings looked up lately, kept as heap strings per generation (two generations): a repeat of any of the
 * last 16-32k distinct strings is found without decoding the block that holds it.
 */
export const RECENT = 16384;
/** Bytes of one pool chunk holding compressed blocks (a block never straddles two). */
const CHUNK = 256 * 1024;
// Length codes of non-string values inside a block (strings store their UTF-8 byte length).
const L_NULL = 0xffffffff, L_INEXACT = 0xfffffffe, L_TRUE = 0xfffffffd, L_FALSE = 0xfffffffc, L_NUMBER = 0xfffffffb;
/** Set on the length of a string held as UTF-16 (one with a lone surrogate, which UTF-8 would not keep). */
const L_UTF16 = 0x80000000;

/** String.prototype.isWellFormed (ES2024; Node 20 has it, the ES2022 lib types do not). */
const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

const compressor = new Compressor();
compressor.setParameters({ compressionLevel: 3 });
const decompressor = new Decompressor();

/** The next size of the per-id hash array when `n` entries are full: a quarter more (at least 1024). */
export function hashCapacityAfter(n: number): number {
  return n + Math.max(1024, Math.ceil(n / 4));
}

/** FNV-1a over UTF-16 code units. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class PackedHotDict implements HotDict {
  private n = 0;
  /** Values of ids [blocks * DICT_BLOCK, n). */
  private tail: HotValue[] = [];
  private blocks = 0;
  private chunks: Buffer[] = [];
  private chunkAt = CHUNK;
  /** Block b is chunks[blockChunk[b]] bytes [blockStart[b], blockStart[b] + blockLen[b]). */
  private blockChunk = new Uint32Array(64);
  private blockStart = new Uint32Array(64);
  private blockLen = new Uint32Array(64);
  /** Hash of each string id (others: unused); the table holds id + 1 (0 = empty), open addressing. */
  private hashes = new Uint32Array(256);
  private table = new Uint32Array(512);
  private strings = 0;
  /** Ids of values that are not strings (null, INEXACT, numbers, booleans). */
  private readonly others = new Map<HotValue, number>();
  private recent = new Map<string, number>();
  private older = new Map<string, number>();
  private recentBytes = 0;
  private olderBytes = 0;
  private readonly cacheTag = new Int32Array(CACHE).fill(-1);
  private readonly cacheVals: HotValue[][] = new Array<HotValue[]>(CACHE);

  /** A dictionary holding NULL (id 0) and INEXACT (id INEXACT_ID). */
  constructor() {
    this.append(null);
    if (this.append(INEXACT) !== INEXACT_ID) throw new Error('internal: INEXACT_ID must follow NULL');
  }

  get length(): number { return this.n; }

  get(id: number): HotValue {
    const base = this.blocks << SHIFT;
    if (id >= base) return this.tail[id - base]!;
    const b = id >>> SHIFT, c = b & (CACHE - 1);
    const vals = this.cacheTag[c] === b ? this.cacheVals[c]! : this.decode(b, c);
    return vals[id & (DICT_BLOCK - 1)]!;
  }

  /** The id of `v`, assigned when new. */
  idOf(v: HotValue): number {
    if (typeof v !== 'string') return this.others.get(v) ?? this.append(v);
    const hit = this.recent.get(v) ?? this.older.get(v);
    if (hit !== undefined) return hit;
    const h = hashOf(v), mask = this.table.length - 1;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const e = this.table[i]!;
      if (e === 0) break;
      const id = e - 1;
      if (this.hashes[id] !== h || !this.holds(id, v)) continue;
      this.remember(v, id);
      return id;
    }
    const id = this.append(v);
    this.remember(v, id);
    return id;
  }

  /**
   * Whether id holds string v: from the tail or a decoded block when at hand, else by decompressing its
   * block and decoding that one value (a lookup does not fill the cache queries read through).
   */
  private holds(id: number, v: string): boolean {
    const b = id >>> SHIFT, c = b & (CACHE - 1);
    if (id >= this.blocks << SHIFT || this.cacheTag[c] === b) return this.get(id) === v;
    const raw = this.raw(b), k = id & (DICT_BLOCK - 1);
    let at = 4 * DICT_BLOCK;
    for (let j = 0; j < k; j++) {
      const len = raw.readUInt32LE(4 * j);
      at += len < L_UTF16 ? len : len < L_NUMBER ? len ^ L_UTF16 : len === L_NUMBER ? 8 : 0;
    }
    const len = raw.readUInt32LE(4 * k);
    if (len >= L_NUMBER) return false;
    return len < L_UTF16 ? raw.toString('utf8', at, at + len) === v : raw.toString('utf16le', at, at + (len ^ L_UTF16)) === v;
  }

  private raw(b: number): Buffer {
    const start = this.blockStart[b]!;
    return decompressor.decompress(this.chunks[this.blockChunk[b]!]!.subarray(start, start + this.blockLen[b]!));
  }

  /** Every value in id order (checkpoints). */
  toArray(): HotValue[] {
    const out = new Array<HotValue>(this.n);
    for (let i = 0; i < this.n; i++) out[i] = this.get(i);
    return out;
  }

  /** Resident bytes: compressed blocks, the hash table, the tail and the recent lookups (rough). */
  get residentBytes(): number {
    let tail = 0;
    for (const v of this.tail) tail += 24 + (typeof v === 'string' ? v.length : 0);
    return this.chunks.length * CHUNK + this.hashes.byteLength + this.table.byteLength + 3 * this.blockLen.byteLength +
      tail + this.recentHeapBytes + this.others.size * 48 + 512;
  }

  /** Heap bytes of the recent-lookup maps (bounded: two generations of RECENT strings). */
  get recentHeapBytes(): number {
    return this.recentBytes + this.olderBytes;
  }

  /** Appends `v`, which the dictionary must not hold yet (idOf checks; compaction knows), and returns its id. */
  append(v: HotValue): number {
    const id = this.n++;
    this.tail.push(v);
    if (typeof v === 'string') this.index(id, hashOf(v));
    else this.others.set(v, id);
    if (this.tail.length === DICT_BLOCK) this.seal();
    return id;
  }

  private index(id: number, h: number): void {
    if (id >= this.hashes.length) {
      // By a quarter, not doubled: one hash per id is ~4 B of every value, and a doubled array left up to
      // half of it unused (a URL column of 2.5M values held 16 MiB of hashes for 10 MiB used).
      const grown = new Uint32Array(hashCapacityAfter(this.hashes.length));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = h;
    // Linear probing up to a load of 0.7: 4 bytes of table per 0.7 strings.
    if (++this.strings * 10 > this.table.length * 7) this.rehash();
    else this.place(id, h);
  }

  private place(id: number, h: number): void {
    const t = this.table, mask = t.length - 1;
    let i = h & mask;
    while (t[i] !== 0) i = (i + 1) & mask;
    t[i] = id + 1;
  }

  /** Doubles the table and places every string id again (the one being added included). */
  private rehash(): void {
    const old = this.table;
    this.table = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.place(old[i]! - 1, this.hashes[old[i]! - 1]!);
    const id = this.n - 1;
    this.place(id, this.hashes[id]!);
  }

  private remember(v: string, id: number): void {
    if (this.recent.size >= RECENT) {
      this.older = this.recent;
      this.olderBytes = this.recentBytes;
      this.recent = new Map();
      this.recentBytes = 0;
    }
    this.recent.set(v, id);
    this.recentBytes += 64 + v.length;
  }

  /** Compresses the full tail into the next block. */
  private seal(): void {
    const vals = this.tail;
    const head = Buffer.alloc(4 * vals.length);
    const parts: Buffer[] = [head];
    vals.forEach((v, k) => {
      let len: number;
      if (typeof v === 'string') {
        const utf8 = wellFormed(v), s = Buffer.from(v, utf8 ? 'utf8' : 'utf16le');
        parts.push(s);
        len = utf8 ? s.length : s.length | L_UTF16;
      }
      else if (typeof v === 'number') { const f = Buffer.allocUnsafe(8); f.writeDoubleLE(v); parts.push(f); len = L_NUMBER; }
      else len = v === null ? L_NULL : v === INEXACT ? L_INEXACT : v ? L_TRUE : L_FALSE;
      head.writeUInt32LE(len >>> 0, 4 * k);
    });
    const z = compressor.compress(Buffer.concat(parts));
    this.store(z);
    this.tail = [];
  }

  private store(z: Buffer): void {
    const b = this.blocks++;
    if (b >= this.blockLen.length) {
      const grow = (a: Uint32Array): Uint32Array<ArrayBuffer> => { const g = new Uint32Array(a.length * 2); g.set(a); return g; };
      this.blockChunk = grow(this.blockChunk);
      this.blockStart = grow(this.blockStart);
      this.blockLen = grow(this.blockLen);
    }
    if (this.chunkAt + z.length > CHUNK || this.chunks.length === 0) {
      this.chunks.push(Buffer.allocUnsafeSlow(Math.max(CHUNK, z.length)));
      this.chunkAt = 0;
    }
    const chunk = this.chunks.length - 1;
    z.copy(this.chunks[chunk]!, this.chunkAt);
    this.blockChunk[b] = chunk;
    this.blockStart[b] = this.chunkAt;
    this.blockLen[b] = z.length;
    this.chunkAt += z.length;
    if (z.length > CHUNK) this.chunkAt = CHUNK;
  }

  private decode(b: number, c: number): HotValue[] {
    const raw = this.raw(b);
    const vals = new Array<HotValue>(DICT_BLOCK);
    let at = 4 * DICT_BLOCK;
    for (let k = 0; k < DICT_BLOCK; k++) {
      const len = raw.readUInt32LE(4 * k);
      if (len < L_UTF16) { vals[k] = raw.toString('utf8', at, at + len); at += len; }
      else if (len < L_NUMBER) { const l = len ^ L_UTF16; vals[k] = raw.toString('utf16le', at, at + l); at += l; }
      else if (len === L_NUMBER) { vals[k] = raw.readDoubleLE(at); at += 8; }
      else vals[k] = len === L_NULL ? null : len === L_INEXACT ? INEXACT : len === L_TRUE;
    }
    this.cacheTag[c] = b;
    this.cacheVals[c] = vals;
    return vals;
  }
}
