// A bounded free list of given-back memory (ArrayBuffers, SharedArrayBuffers) taken out again by size:
// the body pool and the ingest body slots keep their spares in one.

export class SizedFreeList<T extends { readonly byteLength: number }> {
  private readonly items: T[] = [];
  private held = 0;

  /** At most `maxItems` items of `maxBytes` bytes in all are kept. */
  constructor(private readonly maxItems: number, private readonly maxBytes = Infinity) {}

  /** The most recently kept item of `n` to `most` bytes, taken out of the list; undefined when none fits. */
  take(n: number, most: number): T | undefined {
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const x = items[i]!;
      if (x.byteLength < n || x.byteLength > most) continue;
      items.splice(i, 1);
      this.held -= x.byteLength;
      return x;
    }
    return undefined;
  }

  /**
   * Keeps `x` (once). When the list is full (by count or bytes), `x` replaces the smallest items kept while they
   * are smaller than it, else it is left to GC: a smaller body fits in a larger item, not the other way round.
   */
  keep(x: T): void {
    const items = this.items;
    if (items.includes(x) || x.byteLength > this.maxBytes) return;
    while (items.length >= this.maxItems || this.held + x.byteLength > this.maxBytes) {
      let smallest = 0;
      for (let i = 1; i < items.length; i++) if (items[i]!.byteLength < items[smallest]!.byteLength) smallest = i;
      if (items[smallest]!.byteLength >= x.byteLength) return;
      this.held -= items.splice(smallest, 1)[0]!.byteLength;
    }
    items.push(x);
    this.held += x.byteLength;
  }

  get count(): number {
    return this.items.length;
  }

  get bytes(): number {
    return this.held;
  }

  clear(): void {
    this.items.length = 0;
    this.held = 0;
  }
}
