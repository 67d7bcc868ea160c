// A binary min-heap of events held back until the stream reaches their release time: how the
// generator makes a share of events arrive late (out of order), as real shippers' batches do.

export class LateQueue<T> {
  private readonly at: number[] = [];
  private readonly items: T[] = [];

  get size(): number {
    return this.at.length;
  }

  push(releaseAt: number, item: T): void {
    const at = this.at;
    const items = this.items;
    let i = at.length;
    at.push(releaseAt);
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (at[parent]! <= releaseAt) break;
      at[i] = at[parent]!;
      items[i] = items[parent]!;
      i = parent;
    }
    at[i] = releaseAt;
    items[i] = item;
  }

  /** Release time of the next item (Infinity when empty). */
  peekTime(): number {
    return this.at.length ? this.at[0]! : Infinity;
  }

  pop(): T | undefined {
    const at = this.at;
    const items = this.items;
    if (at.length === 0) return undefined;
    const top = items[0];
    const lastAt = at.pop()!;
    const lastItem = items.pop()!;
    const n = at.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && at[r]! < at[l]! ? r : l;
        if (at[c]! >= lastAt) break;
        at[i] = at[c]!;
        items[i] = items[c]!;
        i = c;
      }
      at[i] = lastAt;
      items[i] = lastItem;
    }
    return top;
  }
}
