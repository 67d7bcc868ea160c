// Shapes of a schema tree: the sorted forgettable path ids an event uses, interned to small ids (0 is
// the empty shape) so rows store one number, and dropped once no held row has them.

interface Shape {
  key: string;
  ids: Uint32Array;
  bytes: number;
}

export class ShapeTable {
  private readonly byKey = new Map<string, number>();
  private readonly shapes = new Map<number, Shape>();
  /** The id the next new shape gets. */
  next = 1;
  /** A rough estimate of the heap the shapes take. */
  bytes = 0;

  /** The id of the shape with this key (its ids joined by ','), if interned. */
  find(key: string): number | undefined {
    return this.byKey.get(key);
  }

  /** Interns a new shape (`ids` sorted and distinct, `key` their join); returns its id. */
  add(key: string, ids: readonly number[]): number {
    const id = this.next++;
    this.put(id, key, ids);
    return id;
  }

  private put(id: number, key: string, ids: readonly number[]): void {
    const bytes = 150 + key.length + 4 * ids.length;
    this.byKey.set(key, id);
    this.shapes.set(id, { key, ids: Uint32Array.from(ids), bytes });
    this.bytes += bytes;
  }

  /** Forgets shape `id`; false when it was not held. */
  drop(id: number): boolean {
    const sh = this.shapes.get(id);
    if (sh === undefined) return false;
    this.shapes.delete(id);
    this.byKey.delete(sh.key);
    this.bytes -= sh.bytes;
    return true;
  }

  /** Drops the shapes `held` says no row has; returns the path ids the remaining shapes use, and how many went. */
  keepHeld(held: (shape: number) => boolean): { live: Set<number>; dropped: number } {
    const live = new Set<number>();
    let dropped = 0;
    for (const [id, sh] of this.shapes) {
      if (!held(id)) { if (this.drop(id)) dropped++; continue; }
      for (const f of sh.ids) live.add(f);
    }
    return { live, dropped };
  }

  get size(): number {
    return this.shapes.size;
  }

  /** Every shape as [id, path ids], for checkpoints. */
  toImage(): [id: number, ids: number[]][] {
    return [...this.shapes].map(([id, sh]) => [id, [...sh.ids]]);
  }

  /** Replaces the content with a checkpoint's shapes. */
  load(shapes: readonly [id: number, ids: number[]][], next: number): void {
    this.shapes.clear();
    this.byKey.clear();
    this.bytes = 0;
    for (const [id, ids] of shapes) this.put(id, ids.join(','), ids);
    this.next = next;
  }
}
