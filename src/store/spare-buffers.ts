// Buffers kept for reuse (row buffers, transfer carriers): a bounded set handed out again when one fits,
// so repeated work writes into pages already faulted in (a first touch of a page costs ~10 µs on the bench
// VMs: bench/INGEST.md, round 15); all of them go after a second with no take.

import { IdleDrop } from '../core/idle-drop.ts';

/** Spares at most this many times the bytes asked for are handed out (a bigger one would hold pages idle). */
const MAX_OVERSIZE = 2;

export class SpareBuffers {
  private spare: Buffer[] = [];
  private total = 0;
  private readonly idle = new IdleDrop(() => this.drop(), () => this.spare.length > 0);
  /** Buffers handed out again (tests, benches). */
  reused = 0;

  /** `maxBytes`: spares kept at most (the newest kept); `minBytes`: smaller buffers given back are not kept. */
  constructor(private readonly maxBytes: number, private readonly minBytes = 0) {}

  /** The smallest spare of `need` to MAX_OVERSIZE × `need` bytes, taken out; null when none fits. */
  take(need: number): Buffer | null {
    this.idle.use();
    let best = -1;
    for (let i = 0; i < this.spare.length; i++) {
      const len = this.spare[i]!.length;
      if (len >= need && len <= MAX_OVERSIZE * need && (best < 0 || len < this.spare[best]!.length)) best = i;
    }
    if (best < 0) return null;
    const b = this.spare.splice(best, 1)[0]!;
    this.total -= b.length;
    this.reused++;
    return b;
  }

  /** Keeps `buf` (nobody else may use it any more) within the bounds. */
  give(buf: Buffer): void {
    if (buf.length < this.minBytes || buf.length > this.maxBytes) return;
    this.spare.push(buf);
    this.total += buf.length;
    while (this.total > this.maxBytes) this.total -= this.spare.shift()!.length;
    this.idle.arm();
  }

  /** Bytes of the spares kept. */
  get bytes(): number {
    return this.total;
  }

  /** Forgets every spare (a shrinking memory budget gives their pages back). */
  drop(): void {
    this.spare = [];
    this.total = 0;
  }
}

/** `bytes` rounded up to a whole number of `unit`s (fresh buffers of similar sizes then serve each other). */
export function roundUp(bytes: number, unit: number): number {
  return Math.max(unit, Math.ceil(bytes / unit) * unit);
}
