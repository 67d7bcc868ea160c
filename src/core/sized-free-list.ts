// A bounded free list of given-back memory (ArrayBuffers, SharedArrayBuffers) taken out again by size:
// the body pool and the ingest body slots keep their spares in one.

export class SizedFreeList<T extends { readonly byteLength: number }> {
  private readonly items: T[] = [];

  constructor(private readonly maxItems: number) {}

  /** The most recently kept item of `n` to `most` bytes, taken out of the list; undefined when none fits. */
  take(n: number, most: number): T | undefined {
    const items = this.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const x = items[i]!;
      if (x.byteLength < n || x.byteLength > most) continue;
      items.splice(i, 1);
      return x;
    }
    return undefined;
  }

  /**
   * Keeps `x` (once). When the list is full, `x` replaces the smallest item kept if it is larger, else it
   * is left to GC: a smaller body fits in a larger item, not the other way round.
   */
  keep(x: T): void {
    const items = this.items;
    if (items.includes(x)) return;
    if (items.length >= this.maxItems) {
      let smallest = 0;
      for (let i = 1; i < items.length; i++) if (items[i]!.byteLength < items[smallest]!.byteLength) smallest = i;
      if (items[smallest]!.byteLength >= x.byteLength) return;
      items.splice(smallest, 1);
    }
    items.push(x);
  }

  get count(): number {
    return this.items.length;
  }

  get bytes(): number {
    return this.items.reduce((s, x) => s + x.byteLength, 0);
  }

  clear(): void {
    this.items.length = 0;
  }
}
