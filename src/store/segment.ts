// Row storage of one source: the open segment (appends in any order) and immutable sealed segments
// sorted by (project id, ts) with a per-project run index and a ts-order permutation. Sealing, merging
// and purging always build new arrays, so a scan in flight keeps reading the arrays it started with.

/** Parallel row columns, shared by open and sealed segments. */
export interface RowData {
  readonly ts: ArrayLike<number>;
  readonly seq: ArrayLike<number>;
  readonly pid: ArrayLike<number>;
  readonly json: readonly string[];
  readonly extra: readonly (string | null)[];
  /** Dictionary ids per hot key (in SourceStore.hotKeys order). */
  readonly hot: readonly ArrayLike<number>[];
}

/** Rows [start, end) of one project inside a sealed segment, ascending by ts. */
export interface Run {
  start: number;
  end: number;
}

export function rowBytes(json: string, extra: string | null): number {
  return json.length + (extra === null ? 0 : extra.length);
}

/** Unsorted rows taking appends; replaced (never truncated) when sealed. */
export class OpenSegment implements RowData {
  readonly ts: number[] = [];
  readonly seq: number[] = [];
  readonly pid: number[] = [];
  readonly json: string[] = [];
  readonly extra: (string | null)[] = [];
  readonly hot: number[][];
  bytes = 0;
  /** Rows with ts below the store's watermark (already counted as evicted). */
  hidden = 0;
  private sorted: Uint32Array | null = null;

  constructor(hotCount: number) {
    this.hot = Array.from({ length: hotCount }, () => []);
  }

  get n(): number {
    return this.ts.length;
  }

  append(ts: number, seq: number, pid: number, json: string, extra: string | null, hot: readonly number[]): void {
    this.ts.push(ts);
    this.seq.push(seq);
    this.pid.push(pid);
    this.json.push(json);
    this.extra.push(extra);
    for (let h = 0; h < this.hot.length; h++) this.hot[h]!.push(hot[h]!);
    this.bytes += rowBytes(json, extra);
  }

  /** Row indices in ascending ts order, cached until the next append (rows are only ever appended). */
  byTs(): Uint32Array {
    const n = this.ts.length;
    if (this.sorted === null || this.sorted.length !== n) {
      const ts = this.ts;
      const idx = new Uint32Array(n);
      for (let i = 0; i < n; i++) idx[i] = i;
      this.sorted = idx.sort((a, b) => ts[a]! - ts[b]! || a - b);
    }
    return this.sorted;
  }

  /** Recounts hidden rows for watermark w; returns how many more are hidden than before. */
  hide(w: number): number {
    let h = 0;
    for (let i = 0; i < this.ts.length; i++) if (this.ts[i]! < w) h++;
    const delta = h - this.hidden;
    this.hidden = h;
    return delta;
  }
}

export class Segment implements RowData {
  readonly n: number;
  readonly minTs: number;
  readonly maxTs: number;
  readonly minSeq: number;
  readonly maxSeq: number;
  /** Rows with ts below the store's watermark: byTs[0, hidden). Counted as evicted already. */
  hidden = 0;

  constructor(
    readonly ts: Float64Array,
    readonly seq: Float64Array,
    readonly pid: Uint32Array,
    readonly json: string[],
    readonly extra: (string | null)[],
    readonly hot: Uint32Array[],
    /** Row indices in ascending ts order. */
    readonly byTs: Uint32Array,
    readonly runs: Map<number, Run>,
    readonly bytes: number,
  ) {
    const n = (this.n = ts.length);
    this.minTs = ts[byTs[0]!]!;
    this.maxTs = ts[byTs[n - 1]!]!;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < n; i++) {
      const s = seq[i]!;
      if (s < lo) lo = s;
      if (s > hi) hi = s;
    }
    this.minSeq = lo;
    this.maxSeq = hi;
  }

  /** First position p in byTs with ts >= w (the count of rows below w). */
  countBelow(w: number): number {
    if (w <= this.minTs) return 0;
    if (w > this.maxTs) return this.n;
    return lowerBoundPerm(this.ts, this.byTs, 0, this.n, w);
  }
}

/** First index in [lo, hi) whose ts (through perm) is >= x. */
export function lowerBoundPerm(ts: ArrayLike<number>, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[perm[mid]!]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index in [lo, hi) whose ts (through perm) is > x. */
export function upperBoundPerm(ts: ArrayLike<number>, perm: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[perm[mid]!]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function lowerBound(ts: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function upperBound(ts: ArrayLike<number>, lo: number, hi: number, x: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Copies rows into a new sealed segment. `order` lists rows in (pid, ts) order; row r < na is a's row
 * r, otherwise b's row r - na. `byTsOf` returns the ts permutation of the new segment.
 */
function build(a: RowData, b: RowData | null, na: number, order: ArrayLike<number>, n: number, byTsOf: (ts: Float64Array, seq: Float64Array) => Uint32Array): Segment | null {
  if (n === 0) return null;
  const ts = new Float64Array(n), seq = new Float64Array(n), pid = new Uint32Array(n);
  const json = new Array<string>(n), extra = new Array<string | null>(n);
  const hot = a.hot.map(() => new Uint32Array(n));
  const runs = new Map<number, Run>();
  let bytes = 0;
  let run: Run | null = null;
  for (let i = 0; i < n; i++) {
    let r = order[i]!;
    let src = a;
    if (r >= na) { src = b!; r -= na; }
    const p = src.pid[r]!;
    ts[i] = src.ts[r]!;
    seq[i] = src.seq[r]!;
    pid[i] = p;
    const j = (json[i] = src.json[r]!), x = (extra[i] = src.extra[r]!);
    bytes += rowBytes(j, x);
    for (let h = 0; h < hot.length; h++) hot[h]![i] = src.hot[h]![r]!;
    if (run === null || pid[i - 1] !== p) {
      if (run !== null) run.end = i;
      run = { start: i, end: n };
      runs.set(p, run);
    }
  }
  return new Segment(ts, seq, pid, json, extra, hot, byTsOf(ts, seq), runs, bytes);
}

function sortByTs(ts: Float64Array, seq: Float64Array): Uint32Array {
  const idx = new Uint32Array(ts.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  return idx.sort((a, b) => ts[a]! - ts[b]! || seq[a]! - seq[b]!);
}

/** Seals the open segment's rows with ts >= w into a sorted segment (null when none remain). */
export function sealOpen(open: OpenSegment, w: number): Segment | null {
  const { ts, pid, seq } = open;
  const keep: number[] = [];
  for (let i = 0; i < ts.length; i++) if (ts[i]! >= w) keep.push(i);
  const order = Uint32Array.from(keep).sort((a, b) => pid[a]! - pid[b]! || ts[a]! - ts[b]! || seq[a]! - seq[b]!);
  return build(open, null, Infinity, order, order.length, sortByTs);
}

/** Open rows with ts >= w, as a fresh open segment (the old arrays stay intact for scans in flight). */
export function purgeOpen(open: OpenSegment, w: number): OpenSegment {
  const out = new OpenSegment(open.hot.length);
  const hot: number[] = new Array<number>(open.hot.length);
  for (let i = 0; i < open.n; i++) {
    if (open.ts[i]! < w) continue;
    for (let h = 0; h < hot.length; h++) hot[h] = open.hot[h]![i]!;
    out.append(open.ts[i]!, open.seq[i]!, open.pid[i]!, open.json[i]!, open.extra[i]!, hot);
  }
  return out;
}

/**
 * Merges two sealed segments (b may be null: then a is only purged) into one, keeping rows with
 * ts >= w, in (pid, ts) order; the ts permutation is merged too, so the whole thing is linear.
 */
export function mergeSegments(a: Segment, b: Segment | null, w: number): Segment | null {
  const na = a.n, nb = b === null ? 0 : b.n;
  // Rows [0, na) are a's, [na, na + nb) are b's.
  const newIndex = new Int32Array(na + nb).fill(-1);
  const order = new Uint32Array(na + nb);
  let n = 0, i = 0, j = 0;
  while (i < na || j < nb) {
    let takeA: boolean;
    if (i >= na) takeA = false;
    else if (j >= nb) takeA = true;
    else {
      const pa = a.pid[i]!, pb = b!.pid[j]!;
      takeA = pa < pb || (pa === pb && a.ts[i]! <= b!.ts[j]!);
    }
    const r = takeA ? i++ : na + j++;
    if ((r < na ? a.ts[r]! : b!.ts[r - na]!) < w) continue;
    newIndex[r] = n;
    order[n++] = r;
  }
  return build(a, b, na, order, n, () => {
    const byTs = new Uint32Array(n);
    let k = 0, x = 0, y = 0;
    while (x < na || y < nb) {
      let r: number;
      if (x >= na) r = na + b!.byTs[y++]!;
      else if (y >= nb) r = a.byTs[x++]!;
      else r = a.ts[a.byTs[x]!]! <= b!.ts[b!.byTs[y]!]! ? a.byTs[x++]! : na + b!.byTs[y++]!;
      const ni = newIndex[r]!;
      if (ni >= 0) byTs[k++] = ni;
    }
    return byTs;
  });
}
