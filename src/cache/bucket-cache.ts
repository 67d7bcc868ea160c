// The precomputed bucket cache: for a plan whose core is a time-bucket aggregation over one
// source (TIMESTAMP_TRUNC(ts, MINUTE|HOUR|DAY) key; COUNT/COUNTIF of row-wise expressions),
// keep per-minute partial aggregates, fold in only events ingested since the last request (late
// ones included), follow evictions, and answer from the partials: the cost of a warm answer is
// the new events plus the buckets, and the answer equals the query's at that instant.

import { truncTimestamp } from '../core/time-arithmetic.ts';
import type { Plan, ScanPlan } from '../plan/bound.ts';
import { canonicalPlanKey } from '../plan/canonical.ts';
import { buildNode, buildOperator } from '../exec/build.ts';
import type { Operator } from '../exec/operator.ts';
import { ExecContext, type Budget } from '../exec/context.ts';
import type { Value } from '../core/values.ts';
import { minutePartialsPlan, type BucketShape } from '../exec/physical/rules/bucket-aggregate-from-cache.ts';

export { findBucketAggregate, type BucketShape } from '../exec/physical/rules/bucket-aggregate-from-cache.ts';

const MINUTE = 60_000_000;
/** Copies the row-wise input with its scan replaced. */
function withScan(p: Plan, scan: ScanPlan, replacement: ScanPlan): Plan {
  if (p === scan) return replacement;
  if (p.k === 'filter' || p.k === 'unnest' || p.k === 'project') return { ...p, input: withScan(p.input, scan, replacement) } as Plan;
  throw new Error('internal: bucket-cache input is not row-wise');
}

export function replaceNode(p: Plan, target: Plan, replacement: Plan): Plan {
  if (p === target) return replacement;
  switch (p.k) {
    case 'scan': case 'values': case 'rows': return p;
    case 'join': return { ...p, left: replaceNode(p.left, target, replacement), right: replaceNode(p.right, target, replacement) };
    case 'setop': return { ...p, inputs: p.inputs.map((x) => replaceNode(x, target, replacement)) };
    default: return { ...p, input: replaceNode(p.input, target, replacement) } as Plan;
  }
}

export interface SourceClock {
  /** Sequence number of the newest stored event. */
  lastSeq(): number;
  /** Rows older than this (µs) are evicted. */
  watermark(): number;
}

/** Estimated heap bytes of one minute of a state: a Map entry, a small array header, 8 bytes a number. */
const MINUTE_ENTRY_BYTES = 80;

class BucketState {
  /** minute start (µs) → [row count, partial of each aggregate]. */
  readonly minutes = new Map<number, number[]>();
  /** Numbers per minute (row count + each aggregate), for the byte estimate. */
  width = 1;
  lastSeq = -Infinity;
  floor = -Infinity;
  watermark = -Infinity;
  constructor(readonly signature: string) {}
}

export interface BucketAnswer {
  /** The aggregation's rows (bucket start, then each aggregate), for the run context of the plan. */
  rows: Value[][];
  /** The state existed before this request (a warm answer). */
  warm: boolean;
  /**
   * A lower bound (µs) on the timestamp of every row the answer counted (+Infinity when none):
   * while the scan's lower time bound stays at or below it (below, for an exclusive bound), the
   * same data gives the same answer.
   */
  firstCounted: number;
  /** Stored rows read to bring the state up to date and answer (X-Ringql-Rows-Scanned). */
  scanned: number;
}

export class BucketCache {
  private readonly states = new Map<string, BucketState>();
  constructor(private readonly maxStates = 256) {}

  get size(): number {
    return this.states.size;
  }

  /** Estimated bytes held by every state (counted in RINGQL_CACHE_MAX_BYTES and shown in /health). */
  bytes(): number {
    let n = 0;
    for (const s of this.states.values()) n += s.minutes.size * (MINUTE_ENTRY_BYTES + 8 * s.width);
    return n;
  }

  /** Drops least recently used states (never `keep`) until the estimate is at most `maxBytes`. */
  trimTo(maxBytes: number, keep: string): void {
    let total = this.bytes();
    for (const [k, s] of [...this.states]) {
      if (total <= maxBytes) return;
      if (k === keep) continue;
      total -= s.minutes.size * (MINUTE_ENTRY_BYTES + 8 * s.width);
      this.states.delete(k);
    }
  }

  drop(prefix: string): void {
    for (const k of [...this.states.keys()]) if (k.startsWith(prefix)) this.states.delete(k);
  }

  /** Brings the state for `key` up to date and returns the rows of the aggregation. */
  answer(key: string, shape: BucketShape, clock: SourceClock, budget: Budget): BucketAnswer {
    const { agg, scan, unit } = shape;
    const signature = signatureOf(shape);
    let state = this.states.get(key);
    const warm = !!state && state.signature === signature;
    if (!state || !warm) {
      state = new BucketState(signature);
      if (this.states.size >= this.maxStates) this.states.delete(this.states.keys().next().value as string);
    } else {
      this.states.delete(key); // re-insert below: Map order is the LRU order
    }
    this.states.set(key, state);
    state.width = 1 + agg.aggs.length;
    const ctx = new ExecContext(budget);
    this.sync(state, shape, clock, ctx);

    // Minutes strictly inside the window come from the partials; the minute holding the window
    // start, when the start is not on a minute boundary (or is exclusive), is computed exactly.
    const minTs = scan.minTs;
    const buckets = new Map<number, number[]>();
    const add = (minute: number, parts: number[]) => {
      const b = truncTimestamp(minute, unit);
      const acc = buckets.get(b);
      if (!acc) buckets.set(b, [...parts]);
      else for (let i = 0; i < parts.length; i++) acc[i]! += parts[i]!;
    };
    let firstWhole = -Infinity;
    let firstCounted = Infinity;
    if (minTs !== undefined) {
      const aligned = minTs % MINUTE === 0 && (scan.minInclusive ?? true);
      const boundary = Math.floor(minTs / MINUTE) * MINUTE;
      firstWhole = aligned ? boundary : boundary + MINUTE;
      if (!aligned) {
        const upper = Math.min(boundary + MINUTE, scan.maxTs ?? Infinity);
        const exact = this.partials(shape, { ...scan, scanId: scan.scanId, maxTs: upper, maxInclusive: upper === scan.maxTs ? scan.maxInclusive ?? true : false }, ctx, true);
        for (const [m, parts] of exact) {
          const earliest = parts.pop()!; // the MIN(timestamp) asked for above
          if (parts[0]! > 0) firstCounted = Math.min(firstCounted, earliest);
          add(m, parts);
        }
      }
    }
    let firstWholeCounted = Infinity;
    for (const [m, parts] of state.minutes) {
      if (m < firstWhole) continue;
      add(m, parts);
      if (parts[0]! > 0 && m < firstWholeCounted) firstWholeCounted = m;
    }
    if (firstWholeCounted < firstCounted) {
      // Known only to the minute so far: find the earliest counted row of that minute exactly, so a
      // window start that is itself on a minute boundary can still move before the answer changes.
      const exact = this.partials(shape, { ...scan, minTs: firstWholeCounted, minInclusive: true, maxTs: firstWholeCounted + MINUTE, maxInclusive: false }, ctx, true);
      const parts = exact.get(firstWholeCounted);
      firstCounted = parts && parts[0]! > 0 ? parts[parts.length - 1]! : firstWholeCounted;
    }
    const rows: Value[][] = [];
    for (const [b, parts] of [...buckets.entries()].sort((x, y) => x[0] - y[0])) {
      if (parts[0]! > 0) rows.push([b, ...parts.slice(1)]);
    }
    return { rows, warm, firstCounted, scanned: ctx.scanned };
  }

  /** Background warming: folds new events into every state without answering. */
  private sync(state: BucketState, shape: BucketShape, clock: SourceClock, ctx: ExecContext): void {
    const { scan } = shape;
    const windowFloor = scan.minTs === undefined ? -Infinity : Math.floor(scan.minTs / MINUTE) * MINUTE;
    const seq = clock.lastSeq();
    if (state.lastSeq === -Infinity) {
      state.floor = windowFloor;
      const first = this.partials(shape, withBounds(scan, state.floor), ctx);
      for (const [m, parts] of first) state.minutes.set(m, parts);
    } else if (seq > state.lastSeq) {
      // Only events ingested since the last sync: the sequence number reaches the scan as run context.
      ctx.afterSeq = state.lastSeq;
      let fresh: Map<number, number[]>;
      try {
        fresh = this.partials(shape, withBounds(scan, state.floor), ctx);
      } finally {
        ctx.afterSeq = null;
      }
      for (const [m, parts] of fresh) {
        const acc = state.minutes.get(m);
        if (!acc) state.minutes.set(m, parts);
        else for (let i = 0; i < parts.length; i++) acc[i]! += parts[i]!;
      }
    }
    state.lastSeq = seq;
    // Evictions: minutes below the store's watermark are gone; the minute it cuts is recomputed.
    const w = clock.watermark();
    if (w > state.watermark) {
      state.watermark = w;
      const cut = Math.floor(w / MINUTE) * MINUTE;
      for (const m of [...state.minutes.keys()]) if (m < cut) state.minutes.delete(m);
      if (w > cut && cut >= state.floor) {
        state.minutes.delete(cut);
        const exact = this.partials(shape, { ...withBounds(scan, cut), maxTs: cut + MINUTE, maxInclusive: false }, ctx);
        for (const [m, parts] of exact) state.minutes.set(m, parts);
      }
    }
    // The window only moves forward: minutes before it are never read again.
    if (windowFloor > state.floor) {
      for (const m of [...state.minutes.keys()]) if (m < windowFloor) state.minutes.delete(m);
      state.floor = windowFloor;
    }
  }

  /**
   * Runs the aggregation per minute over the given scan: [row count, each aggregate], and with
   * `earliest` the smallest counted timestamp last.
   */
  private partials(shape: BucketShape, scan: ScanPlan, ctx: ExecContext, earliest = false): Map<number, number[]> {
    const { op, cols } = partialsOperator(shape, scan, ctx, earliest);
    const accs = cols.map((id) => op.acc(id));
    const out = new Map<number, number[]>();
    for (let b = op.next(); b !== null; b = op.next()) {
      for (const r of b) {
        const m = accs[0]!(r) as number;
        out.set(m, accs.slice(1).map((a) => (a(r) as number | null) ?? 0));
      }
    }
    return out;
  }
}

/**
 * The operator computing the partials over `scan`: the ones planned with the physical plan, reading
 * `scan`'s bounds from the run context (no planning per fill); else planned now.
 */
function partialsOperator(shape: BucketShape, scan: ScanPlan, ctx: ExecContext, earliest: boolean): { op: Operator; cols: readonly number[] } {
  const fill = shape.fill;
  if (!fill) {
    const plan = minutePartialsPlan(shape, scan, earliest);
    return { op: buildOperator(plan, ctx), cols: plan.cols.map((c) => c.id) };
  }
  ctx.scanBounds = new Map([[fill.scan, { ...scan, order: 'any' }]]);
  return earliest ? { op: buildNode(fill.earliest, ctx), cols: fill.cols.earliest } : { op: buildNode(fill.plain, ctx), cols: fill.cols.plain };
}

function withBounds(scan: ScanPlan, floor: number): ScanPlan {
  const s: ScanPlan = { ...scan };
  if (floor === -Infinity) { delete s.minTs; delete s.minInclusive; } else { s.minTs = floor; s.minInclusive = true; }
  return s;
}

/** Identity of the aggregation apart from the moving window start. */
function signatureOf(shape: BucketShape): string {
  const s: ScanPlan = { ...shape.scan };
  delete s.minTs;
  delete s.minInclusive;
  return canonicalPlanKey({ ...shape.agg, input: withScan(shape.agg.input, shape.scan, s) });
}

