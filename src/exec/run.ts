// Runs a plan and writes the HTTP body (`{"result":[...]}`, or another format's sink) directly: rows
// that are whole stored events in their stored column order are spliced from the bytes serialised at ingest.

import { RingqlError } from '../core/errors.ts';
import type { ColInfo, Plan } from '../plan/bound.ts';
import { buildOperator, buildPhysical } from './build.ts';
import { planPhysical } from './physical/plan-physical.ts';
import type { PhysicalPlan } from './physical/physical-plan.ts';
import { ExecContext, type Budget } from './context.ts';
import { withMeter } from '../core/work-meter.ts';
import type { Accessor } from '../plan/compile-expr.ts';
import type { Operator } from './operator.ts';
import { ScanRow } from './scan-row.ts';
import type { Value } from '../core/values.ts';
import { makeSink } from './sinks/make-sink.ts';
import type { OutputFormat, RowSink } from './sinks/row-sink.ts';
import { STREAM_START_BYTES, type BodyStream } from './body-stream.ts';
import { pinReads } from '../store/read-pins.ts';


export interface RunOptions {
  /** Rows beyond this are cut (the endpoint's max_limit); null = no cap. */
  maxRows: number | null;
  budget?: Budget;
  /** The body's format; absent = json. */
  format?: OutputFormat;
  /** Redact string values as they are written (only formats that are not JSON text use it: CSV). */
  redact?: boolean;
  /** Where a body past STREAM_START_BYTES goes in chunks (sliced runs only); absent = built whole. */
  stream?: BodyStream;
}

export interface JsonResult {
  /** `{"result":[...]}` (or the asked format's body) as UTF-8 bytes. */
  body: Buffer;
  rowCount: number;
  truncated: boolean;
  rowsProcessed: number;
  /** Stored rows the scans read. */
  rowsScanned: number;
  /** The body went to `stream` in chunks: `body` is only its last piece. */
  streamed?: boolean;
}

const STORED_ORDER = ['id', 'timestamp', 'event_message', 'metadata'];

/** Rejects result column names that cannot both be keys of one JSON row. */
export function checkOutputColumns(cols: ColInfo[]): void {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const c of cols) {
    if (seen.has(c.name)) dup.add(c.name);
    seen.add(c.name);
  }
  if (dup.size) throw new RingqlError('query_error', `Duplicate column names in the result are not supported. Found duplicate(s): ${[...dup].join(', ')}`);
}

function spliceAccessor(plan: Plan, op: Operator): ((row: unknown) => ScanRow) | null {
  const cols = plan.cols;
  if (cols.length !== STORED_ORDER.length) return null;
  const scan = cols[0]!.origin?.scan;
  if (!scan) return null;
  for (let i = 0; i < cols.length; i++) {
    const o = cols[i]!.origin;
    if (cols[i]!.name !== STORED_ORDER[i] || !o || o.scan !== scan || o.element || o.path.length !== 1 || o.path[0] !== STORED_ORDER[i]) return null;
  }
  return op.raw(scan.scanId);
}

/** One run of a plan into a sink's body, advanced one batch per step so it can be sliced. */
class JsonRun {
  private readonly op: Operator;
  private readonly splice: ((row: unknown) => ScanRow) | null;
  private readonly accs: Accessor[];
  private readonly vals: Value[];
  private readonly out: RowSink;
  private preload = 0;
  /** The operator's current batch and the next row of it to write. */
  private batch: unknown[] | null = null;
  private at = 0;
  private rows = 0;
  private truncated = false;
  private finished = false;

  constructor(physical: PhysicalPlan, private readonly cap: number | null, readonly ctx: ExecContext, sink: RowSink = makeSink('json')) {
    const plan = physical.logical;
    checkOutputColumns(plan.cols);
    this.op = buildPhysical(physical, ctx);
    this.out = sink;
    this.splice = sink.takesRowBytes ? spliceAccessor(plan, this.op) : null;
    this.accs = plan.cols.map((c) => this.op.acc(c.id));
    this.vals = new Array<Value>(this.accs.length).fill(null);
    sink.begin(plan.cols.map((c) => ({ name: c.name, timestamp: c.type === 'TIMESTAMP' })));
  }

  /**
   * Does one unit of work (a subquery batch, or up to ROWS_PER_STEP rows of the current batch), so a
   * slice or a streamed chunk can end between rows; true when the body is complete.
   */
  step(): boolean {
    const pre = this.ctx.preloads;
    if (this.preload < pre.length) {
      if (pre[this.preload]!.step()) this.preload++;
      return false;
    }
    if (this.batch === null || this.at >= this.batch.length) {
      this.batch = this.op.next();
      this.at = 0;
      if (this.batch === null) return this.finish();
    }
    const { out, splice, accs, cap, vals, batch } = this;
    const end = Math.min(batch.length, this.at + ROWS_PER_STEP);
    for (let j = this.at; j < end; j++) {
      const r = batch[j];
      if (cap !== null && this.rows >= cap) { this.truncated = true; return this.finish(); }
      this.rows++;
      if (splice) { out.rowBytes(splice(r).jsonBytes()); continue; }
      for (let i = 0; i < accs.length; i++) vals[i] = accs[i]!(r);
      out.row(vals);
      // Written: its decoded text and objects would otherwise live as long as the batch (4096 rows).
      if (r instanceof ScanRow) r.release();
    }
    this.ctx.meter.tick(end - this.at);
    this.at = end;
    return false;
  }

  /** Body bytes made since the last take(). */
  get pending(): number {
    return this.out.pending;
  }

  /** The body made since the last take() (the run stands between rows). */
  take(): Buffer {
    return this.out.take();
  }

  private finish(): true {
    this.finished = true;
    return true;
  }

  result(): JsonResult {
    if (!this.finished) throw new Error('internal: JsonRun.result() before the run finished');
    return { body: this.out.finish(), rowCount: this.rows, truncated: this.truncated, rowsProcessed: this.ctx.rowsProcessed, rowsScanned: this.ctx.scanned };
  }
}

/** The physical plan to run: as given, or planned here with the row cap as its hint (ad-hoc plans). */
function physicalOf(plan: Plan | PhysicalPlan, cap: number | null): PhysicalPlan {
  return 'root' in plan ? plan : planPhysical(plan, { limitHint: cap === null ? null : cap + 1 });
}

/** Runs a plan to its JSON body in one synchronous go (CLI, tests, the bucket cache's small plans). */
export function runToJson(plan: Plan | PhysicalPlan, opts: RunOptions, ctx: ExecContext = new ExecContext(opts.budget)): JsonResult {
  try {
    return withMeter(ctx.meter, () => {
      const run = new JsonRun(physicalOf(plan, opts.maxRows), opts.maxRows, ctx, makeSink(opts.format ?? 'json', opts.redact));
      while (!run.step());
      return run.result();
    });
  } catch (err) {
    throw asLimitError(err);
  }
}

/**
 * V8's own ceilings (string length, array length, buffer allocation) reached by a query despite the
 * value caps are that query's fault, not a bug: they answer value_too_large, never a 500.
 */
export function asLimitError(err: unknown): unknown {
  if (err instanceof RangeError && /Invalid (string|array|typed array) length|Array buffer allocation failed|Invalid array buffer length/.test(err.message)) {
    return new RingqlError('value_too_large', 'A value or the result grew past what this server can hold in one piece; select fewer or smaller values, or fewer rows');
  }
  return err;
}

/** Rows written per step, so slices and streamed chunks end between rows of a large batch. */
const ROWS_PER_STEP = 256;

/** Once a body streams, a chunk goes out whenever this much is made, even inside a slice. */
export const STREAM_CHUNK_BYTES = 1024 * 1024;

/** How long one slice of a query may hold the event loop before it yields (ms). */
export const SLICE_MS = 8;

/**
 * Runs a plan to its JSON body in slices of SLICE_MS: between slices the event loop serves other
 * requests (health, ingest, other queries); the meter's deadline bounds the whole run.
 */
export async function runToJsonSliced(plan: Plan | PhysicalPlan, opts: RunOptions, ctx: ExecContext, sliceMs = SLICE_MS): Promise<JsonResult> {
  // Between slices the body holds views of stored row bytes: the pin keeps the store from rewriting or
  // reusing them (hot-dictionary compaction, seal slabs) until the run is done.
  const unpin = pinReads();
  try {
    return await slicedRun(plan, opts, ctx, sliceMs);
  } catch (err) {
    throw asLimitError(err);
  } finally {
    unpin();
  }
}

async function slicedRun(plan: Plan | PhysicalPlan, opts: RunOptions, ctx: ExecContext, sliceMs: number): Promise<JsonResult> {
  const m = ctx.meter;
  const stream = opts.stream;
  let run: JsonRun | null = null;
  let streamed = false;
  for (;;) {
    const done = withMeter(m, () => {
      m.startSlice(sliceMs);
      run ??= new JsonRun(physicalOf(plan, opts.maxRows), opts.maxRows, ctx, makeSink(opts.format ?? 'json', opts.redact));
      // A streaming run also stops at a full chunk, so no more than one chunk is held at a time.
      const chunkAt = !stream ? Infinity : streamed ? STREAM_CHUNK_BYTES : STREAM_START_BYTES;
      while (!m.sliceDue && run.pending < chunkAt) if (run.step()) return true;
      return false;
    });
    if (done) break;
    // A body that outgrew one piece goes out as it is made, and the run waits for the client to take it.
    if (stream && (streamed || run!.pending >= STREAM_START_BYTES)) {
      streamed = true;
      await stream.push(run!.take(), opts.format ?? 'json');
    }
    await yieldToEventLoop();
    stream?.check();
    m.check();
  }
  m.stopSlicing();
  const r = withMeter(m, () => run!.result());
  if (streamed) r.streamed = true;
  return r;
}

/** Lets pending I/O callbacks (other requests) run before the next slice. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Runs a plan to plain row objects (tests, the bucket-cache comparisons). */
export function runToRows(plan: Plan, budget?: Budget): Record<string, Value>[] {
  const ctx = new ExecContext(budget);
  return withMeter(ctx.meter, () => rowsOf(plan, ctx));
}

function rowsOf(plan: Plan, ctx: ExecContext): Record<string, Value>[] {
  const op = buildOperator(plan, ctx);
  const accs = plan.cols.map((c) => [c.name, op.acc(c.id)] as const);
  const out: Record<string, Value>[] = [];
  for (let b = op.next(); b !== null; b = op.next()) {
    for (const r of b) {
      const o: Record<string, Value> = {};
      for (const [n, a] of accs) o[n] = a(r);
      out.push(o);
    }
  }
  return out;
}
