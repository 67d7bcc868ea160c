// The dictionaries of a source's hot columns: each value of a hot path (store/hot-paths.ts) gets a small
// id that rows store (0 = NULL, INEXACT_ID = not one plain value), values held compressed (hot-dict.ts);
// rebuilt smaller once eviction leaves most ids unused, with every row's ids remapped.

import { INEXACT, INEXACT_ID, hotKeyOf, type HotValue } from './hot-paths.ts';
import { PackedHotDict, type HotDict } from './hot-dict.ts';
import { narrowed } from './narrow.ts';
import type { IdColumn } from './row-data.ts';

/** The hot id columns of a segment: sealed segments' narrowed ones are replaced, the open segment's remapped in place. */
type HotColumns = { readonly hot: IdColumn[] } | { remapHot(h: number, map: (old: number) => number): void };

export class HotDictionaries {
  readonly paths: readonly string[][];
  /** Keys of the hot columns (paths joined with '.'), in constructor order. */
  readonly keys: readonly string[];
  readonly index: Map<string, number>;
  /** One per hot column; replaced (never renumbered in place) by compact and restore. */
  private readonly dicts: PackedHotDict[];
  /** How many compactions renumbered ids so far (checkpoint parts are named by it). */
  epoch = 0;

  constructor(paths: string[][]) {
    this.paths = paths.map((p) => [...p]);
    this.keys = this.paths.map(hotKeyOf);
    this.index = new Map(this.keys.map((k, i) => [k, i]));
    // Fixed ids: 0 is NULL, INEXACT_ID the INEXACT marker, so readers test exactness with an integer compare.
    this.dicts = this.paths.map(() => new PackedHotDict());
  }

  /** Resident bytes of the dictionaries (compressed values, hash tables, recent lookups). */
  get bytes(): number {
    let b = 0;
    for (const d of this.dicts) b += d.residentBytes;
    return b;
  }

  get count(): number {
    return this.paths.length;
  }

  /** The id of value `v` of hot column `h`, assigned when new. */
  id(h: number, v: HotValue): number {
    return this.dicts[h]!.idOf(v); // h < count: callers loop over the hot columns
  }

  /** Values of the hot column keyed `key` by id; `owner` names the source in the error for an unknown key. */
  dict(key: string, owner: string): HotDict {
    const i = this.index.get(key);
    if (i === undefined) throw new Error(`unknown hot key "${key}" of ${owner}`);
    return this.dicts[i]!;
  }

  /** Every column's values by id (decoded into heap arrays). */
  allValues(): HotValue[][] {
    return this.dicts.map((d) => d.toArray());
  }

  /** Every column's dictionary as it is now (checkpoints read them value by value, synchronously). */
  all(): readonly HotDict[] {
    return [...this.dicts];
  }

  /** Replaces every dictionary with a checkpoint's values (index = id) and its epoch. */
  restore(values: readonly (readonly HotValue[])[], epoch: number): void {
    if (values.length !== this.dicts.length) {
      throw new Error(`the checkpoint holds ${values.length} hot dictionaries for ${this.dicts.length} hot columns`);
    }
    for (let h = 0; h < this.dicts.length; h++) this.dicts[h] = restoredDict(values[h]!); // h < values.length: checked above
    this.epoch = epoch;
  }

  /**
   * Hot dictionaries only grow on ingest; once evicted rows leave most of a dictionary unused (more than
   * twice the `live` rows), it is rebuilt from the ids still referenced by `rows` and every row's ids
   * remapped, so memory follows retention and capacity. Callers make sure no paused read holds ids.
   */
  compact(live: number, rows: readonly HotColumns[]): void {
    for (let h = 0; h < this.dicts.length; h++) {
      const values = this.dicts[h]!;
      if (values.length <= 4096 || values.length <= 2 * live + 1024) continue;
      const remap = new Int32Array(values.length).fill(-1);
      remap[0] = 0;
      remap[INEXACT_ID] = INEXACT_ID;
      const next = new PackedHotDict();
      const map = (old: number): number => {
        let n = remap[old]!;
        if (n < 0) { n = next.append(values.get(old)); remap[old] = n; }
        return n;
      };
      for (const r of rows) {
        if ('remapHot' in r) r.remapHot(h, map);
        else r.hot[h] = remapped(r.hot[h]!, map);
      }
      this.dicts[h] = next;
      this.epoch++;
    }
  }
}

/** A dictionary from a checkpoint's values (index = id; 0 and INEXACT_ID are NULL and INEXACT). */
function restoredDict(values: readonly HotValue[]): PackedHotDict {
  const d = new PackedHotDict();
  if (values.length < 2 || values[0] !== null || values[1] !== INEXACT) throw new Error('checkpoint image: a hot dictionary does not start with NULL and INEXACT');
  for (let i = 2; i < values.length; i++) d.append(values[i]!);
  return d;
}

/**
 * The column with every id mapped: a JS array in place, a typed one as a new array as narrow as its new ids
 * allow (a new id may exceed what the old width held: ids are renumbered across all segments).
 */
function remapped(col: IdColumn, map: (old: number) => number): IdColumn {
  if (Array.isArray(col)) {
    const a = col as number[];
    for (let i = 0; i < a.length; i++) a[i] = map(a[i]!);
    return a;
  }
  const out = new Uint32Array(col.length);
  for (let i = 0; i < col.length; i++) out[i] = map(col[i]!);
  return narrowed(out);
}
