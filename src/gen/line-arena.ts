// Serialised NDJSON lines held off the JS heap while the generator holds their events back (the shuffled
// chunk, late events): a handle (a small integer) per line, bytes in recycled 1 MiB slabs.

import { NATIVE_BYTES } from '../core/native-addon.ts';

/** Bytes per slab; a line that could be longer gets a slab of its own. */
const SLAB_BYTES = 1 << 20;

/**
 * Lines written as UTF-8 into slabs by a bump pointer; a slab goes back to the free list once every line
 * in it is taken and the arena has moved on to another slab. Handles are reused once taken.
 */
export class LineArena {
  private readonly slabs: Buffer[] = [];
  /** Per slab: lines in it not yet taken. */
  private readonly refs: number[] = [];
  private readonly freeSlabs: number[] = [];
  private cur = -1;
  private pos = 0;
  /** Per handle: its slab, offset, byte length and tag (e.g. the source's index). */
  private hSlab: Int32Array = new Int32Array(1024);
  private hOff: Int32Array = new Int32Array(1024);
  private hLen: Int32Array = new Int32Array(1024);
  private hTag: Int32Array = new Int32Array(1024);
  private readonly freeHandles: number[] = [];
  private handles = 0;

  /** Holds `line` (its UTF-8 bytes) with `tag`; returns its handle. */
  put(line: string, tag: number): number {
    // A UTF-16 code unit takes at most 3 UTF-8 bytes.
    const most = line.length * 3;
    if (this.cur < 0 || this.pos + most > this.slabs[this.cur]!.length) this.nextSlab(most);
    const slab = this.slabs[this.cur]!;
    const bytes = slab.write(line, this.pos);
    const h = this.freeHandles.length > 0 ? this.freeHandles.pop()! : this.newHandle();
    this.hSlab[h] = this.cur;
    this.hOff[h] = this.pos;
    this.hLen[h] = bytes;
    this.hTag[h] = tag;
    this.refs[this.cur]!++;
    this.pos += bytes;
    return h;
  }

  tag(h: number): number {
    return this.hTag[h]!;
  }

  length(h: number): number {
    return this.hLen[h]!;
  }

  /** The one range `take` hands the addon's gather. */
  private readonly range = new Float64Array(2);

  /**
   * Copies the line of `h` into `target` at `at`, gives the handle up, and returns the bytes copied. By the
   * addon (a memcpy): the demo's targets are shared memory, which V8's own copy writes by relaxed atomic
   * words (7 % of the demo generator thread's samples).
   */
  take(h: number, target: Buffer, at: number): number {
    const s = this.hSlab[h]!;
    const off = this.hOff[h]!;
    const len = this.hLen[h]!;
    this.range[0] = off;
    this.range[1] = off + len;
    NATIVE_BYTES.gather(target, at, this.slabs[s]!, this.range, 1);
    this.freeHandles.push(h);
    if (--this.refs[s]! === 0 && s !== this.cur) this.freeSlabs.push(s);
    return len;
  }

  private nextSlab(most: number): void {
    const old = this.cur;
    if (old >= 0 && this.refs[old] === 0) this.freeSlabs.push(old);
    let s = this.freeSlabs.pop();
    if (s !== undefined && this.slabs[s]!.length < most) {
      this.freeSlabs.push(s);
      s = undefined;
    }
    if (s === undefined) {
      s = this.slabs.length;
      this.slabs.push(Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, most)));
      this.refs.push(0);
    }
    this.cur = s;
    this.pos = 0;
  }

  private newHandle(): number {
    const h = this.handles++;
    if (h === this.hSlab.length) {
      const grow = (a: Int32Array): Int32Array => { const b = new Int32Array(a.length * 2); b.set(a); return b; };
      this.hSlab = grow(this.hSlab);
      this.hOff = grow(this.hOff);
      this.hLen = grow(this.hLen);
      this.hTag = grow(this.hTag);
    }
    return h;
  }
}
