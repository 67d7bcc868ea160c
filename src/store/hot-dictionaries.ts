// The dictionaries of a source's hot columns: each value of a hot path (store/hot-paths.ts) gets a small
// id that rows store (0 = NULL, INEXACT_ID = not one plain value); rebuilt smaller once eviction leaves
// most ids unused, with every row's ids remapped.

import { INEXACT, INEXACT_ID, hotKeyOf, type HotValue } from './hot-paths.ts';

/** Rough heap bytes of one hot dictionary entry (a one-byte string, its array slot and its map entry). */
function hotValueBytes(v: HotValue): number {
  return 40 + (typeof v === 'string' ? v.length : 0);
}

/** Columns of hot ids the dictionaries' rows hold (sealed segments' and the open segment's). */
interface HotColumns {
  readonly hot: readonly { length: number; [i: number]: number }[];
}

export class HotDictionaries {
  readonly paths: readonly string[][];
  /** Keys of the hot columns (paths joined with '.'), in constructor order. */
  readonly keys: readonly string[];
  readonly index: Map<string, number>;
  private readonly ids: Map<HotValue, number>[];  // entries replaced by compact
  private readonly values: HotValue[][];
  /** Rough bytes of the dictionaries (values and their map entries). */
  bytes = 0;
  /** How many compactions renumbered ids so far (checkpoint parts are named by it). */
  epoch = 0;

  constructor(paths: string[][]) {
    this.paths = paths.map((p) => [...p]);
    this.keys = this.paths.map(hotKeyOf);
    this.index = new Map(this.keys.map((k, i) => [k, i]));
    // Fixed ids: 0 is NULL, INEXACT_ID the INEXACT marker, so readers test exactness with an integer compare.
    this.ids = this.paths.map(() => new Map<HotValue, number>([[null, 0], [INEXACT, INEXACT_ID]]));
    this.values = this.paths.map(() => [null, INEXACT]);
  }

  get count(): number {
    return this.paths.length;
  }

  /** The id of value `v` of hot column `h`, assigned when new. */
  id(h: number, v: HotValue): number {
    const ids = this.ids[h]!; // h < count: callers loop over the hot columns
    let id = ids.get(v);
    if (id === undefined) {
      const values = this.values[h]!;
      id = values.length;
      values.push(v);
      ids.set(v, id);
      this.bytes += hotValueBytes(v);
    }
    return id;
  }

  /** Values of the hot column keyed `key` by id; `owner` names the source in the error for an unknown key. */
  dict(key: string, owner: string): readonly HotValue[] {
    const i = this.index.get(key);
    if (i === undefined) throw new Error(`unknown hot key "${key}" of ${owner}`);
    return this.values[i]!;
  }

  /** Every column's values by id (checkpoints). */
  allValues(): readonly HotValue[][] {
    return this.values;
  }

  /** Replaces every dictionary with a checkpoint's values (index = id) and its epoch. */
  restore(values: readonly (readonly HotValue[])[], epoch: number): void {
    if (values.length !== this.values.length) {
      throw new Error(`the checkpoint holds ${values.length} hot dictionaries for ${this.values.length} hot columns`);
    }
    for (let h = 0; h < this.values.length; h++) {
      const vs = [...values[h]!]; // h < values.length: checked above
      this.values[h] = vs;
      this.ids[h] = new Map(vs.map((v, i) => [v, i]));
    }
    this.bytes = this.recount();
    this.epoch = epoch;
  }

  private recount(): number {
    return this.values.reduce((t, vs) => t + vs.reduce<number>((u, v) => u + hotValueBytes(v), 0), 0);
  }

  /**
   * Hot dictionaries only grow on ingest; once evicted rows leave most of a dictionary unused (more than
   * twice the `live` rows), it is rebuilt from the ids still referenced by `rows` and every row's ids
   * remapped, so memory follows retention and capacity. Callers make sure no paused read holds ids.
   */
  compact(live: number, rows: readonly HotColumns[]): void {
    for (let h = 0; h < this.values.length; h++) {
      const values = this.values[h]!;
      if (values.length <= 4096 || values.length <= 2 * live + 1024) continue;
      const remap = new Int32Array(values.length).fill(-1);
      remap[0] = 0;
      remap[INEXACT_ID] = INEXACT_ID;
      const next: HotValue[] = [null, INEXACT];
      const ids = new Map<HotValue, number>([[null, 0], [INEXACT, INEXACT_ID]]);
      const map = (old: number): number => {
        let n = remap[old]!;
        if (n < 0) { n = next.length; next.push(values[old]!); ids.set(values[old]!, n); remap[old] = n; }
        return n;
      };
      for (const r of rows) {
        const col = r.hot[h]!;
        for (let i = 0; i < col.length; i++) col[i] = map(col[i]!);
      }
      this.values[h] = next;
      this.ids[h] = ids;
      this.epoch++;
      this.bytes = this.recount();
    }
  }
}
