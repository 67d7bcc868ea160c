// A source's row buffers, used again: the ingest addon writes a body's rows into one (rowsInto), the open
// segment references them, and once its seal has copied them and no reader can hold them they come back
// here, so the next bodies write into pages already faulted in (bench/INGEST.md, round 16).

import { readsPinned } from './read-pins.ts';
import { SpareBuffers, roundUp } from './spare-buffers.ts';

/** Bodies smaller than this are transformed into the addon's own memory (their rows are copied, not referenced). */
export const POOL_MIN_BYTES = 64 * 1024;
/** Rounding of a fresh buffer's size, so buffers of bodies of about one size serve each other. */
const ROW_BUFFER_ROUND = 64 * 1024;

/**
 * Row buffers with reference counts. take() hands out a buffer holding one reference (the taker's, dropped
 * once its body is stored or declined); the open segment holds one per buffer it references and drops them
 * at its seal, only when no reader is paused (read-pins.ts): a paused reader may hold views of its rows.
 * A buffer whose count reaches zero is spare again; one whose count never does (its segment sealed while a
 * reader was paused) is left to the collector.
 */
export class RowPool {
  private readonly refs = new WeakMap<ArrayBuffer, number>();
  /** Where a buffer made elsewhere goes once free (the transform thread's, posted back), instead of the spares. */
  private readonly homes = new WeakMap<ArrayBuffer, (buf: Buffer) => void>();
  private readonly spare: SpareBuffers;

  /**
   * `maxSpareBytes`: a seal gives back its whole segment's buffers at once (edge events: ~9 MB of 4096 rows), which
   * the next bodies take again; 8 MiB dropped part of them (demo events in-process: 0.19 faults/event against 0.14).
   */
  constructor(maxSpareBytes = 16 * 1024 * 1024) {
    this.spare = new SpareBuffers(maxSpareBytes);
  }

  /** Buffers handed out again (tests, benches). */
  get reused(): number {
    return this.spare.reused;
  }

  /** The buffer a body of `bodyBytes` gets its rows written into: a spare when one fits, else a fresh one. */
  take(bodyBytes: number): Buffer {
    const buf = rowBuffer(this.spare, bodyBytes);
    this.refs.set(buf.buffer as ArrayBuffer, 1);
    return buf;
  }

  /**
   * Takes in `view`'s buffer, made elsewhere (the transform thread wrote rows into it), holding the taker's
   * reference: once free it goes to `home`, not to the spares. False (nothing taken in) when the buffer is
   * known already: the caller then holds no reference to drop.
   */
  adopt(view: Uint8Array, home: (buf: Buffer) => void): boolean {
    const ab = view.buffer as ArrayBuffer;
    if (this.refs.has(ab) || !(ab instanceof ArrayBuffer)) return false;
    this.refs.set(ab, 1);
    this.homes.set(ab, home);
    return true;
  }

  /** One more reference to the pool buffer `view` lies in (none when it is not one of this pool's). */
  hold(view: Uint8Array): void {
    const ab = view.buffer as ArrayBuffer;
    const n = this.refs.get(ab);
    if (n !== undefined) this.refs.set(ab, n + 1);
  }

  /** One reference fewer; at none the buffer is spare again. */
  drop(view: Uint8Array): void {
    const ab = view.buffer as ArrayBuffer;
    const n = this.refs.get(ab);
    if (n === undefined) return;
    if (n > 1) {
      this.refs.set(ab, n - 1);
      return;
    }
    this.refs.delete(ab);
    const home = this.homes.get(ab);
    if (home !== undefined) {
      this.homes.delete(ab);
      home(Buffer.from(ab));
      return;
    }
    this.spare.give(Buffer.from(ab));
  }

  /**
   * The open segment's references dropped at its seal (`views`: the buffers it referenced), once its rows
   * are copied; with a reader paused they are kept (never dropped) and the collector frees the buffers.
   */
  released(views: readonly Uint8Array[]): void {
    if (readsPinned()) {
      for (const v of views) {
        this.refs.delete(v.buffer as ArrayBuffer);
        this.homes.delete(v.buffer as ArrayBuffer);
      }
      return;
    }
    for (const v of views) this.drop(v);
  }

  /** Bytes of the spares held for reuse (the store counts them: they stay resident). */
  get spareBytes(): number {
    return this.spare.bytes;
  }

  /** Forgets the spares (a shrinking memory budget gives their pages back). */
  dropSpares(): void {
    this.spare.drop();
  }
}

/** The room the addon reserves for a body's rows before writing them (transform.c: n + n/8 + 1024). */
export function rowsReserve(bodyBytes: number): number {
  return bodyBytes + Math.floor(bodyBytes / 8) + 1024;
}

/** A buffer for a body's rows: a spare one that fits, else a fresh one rounded up to ROW_BUFFER_ROUND. */
export function rowBuffer(spare: SpareBuffers, bodyBytes: number): Buffer {
  const need = rowsReserve(bodyBytes);
  return spare.take(need) ?? Buffer.allocUnsafeSlow(roundUp(need, ROW_BUFFER_ROUND));
}
