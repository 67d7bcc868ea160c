// A live subscription's answers (SPEC §3 Live subscriptions): the first result, then what changed.
// Row queries (scans under filters, projections, unnests, sorts, limits, UNION ALL) send only the rows
// of events ingested since the last message, found by their ingest sequence numbers; time-bucket
// aggregates re-read the bucket cache; any other query is re-run when a source it reads changed.

import { createHash } from 'node:crypto';
import { RingqlError } from '../core/errors.ts';
import { findBucketAggregate } from '../cache/bucket-cache.ts';
import type { QueryGate } from '../cache/query-gate.ts';
import { ExecContext, type Budget } from '../exec/context.ts';
import type { Plan, ScanPlan } from '../plan/bound.ts';
import type { Catalog, SourceHandle } from '../plan/catalog.ts';
import { someNode } from '../plan/expr-walk.ts';
import { executePlan, executeRequestSliced, planRequest, type ResolvedRequest } from './execute.ts';
import type { PreparedEndpoint } from './prepare.ts';
import type { Instance } from '../engine/engine.ts';
import type { LiveFeed, LiveMode, RunRequest, RunResponse } from './service-types.ts';

export interface LiveDeps {
  catalog: Catalog;
  budget: Budget;
  gate: QueryGate;
  now(): number;
  /** The service's run (result and bucket caches): how bucket answers are read. */
  run(req: RunRequest): Promise<RunResponse>;
}

const RESULT_PREFIX = '{"result":';
const APPEND_PREFIX = '{"append":';

/** Plans the request once (so a bad query fails before the subscription starts) and picks the feed's mode. */
export function openLiveFeed(deps: LiveDeps, prep: PreparedEndpoint, req: ResolvedRequest, run: RunRequest): LiveFeed {
  const plan = planRequest(prep, req, deps.catalog, deps.now()).logical;
  const redacted = prep.def.redact_pii || run.redactHeader;
  if (findBucketAggregate(plan)) return new BucketFeed(deps, run, redacted);
  if (appendable(plan)) return new RowFeed(deps, prep, req, redacted);
  return new RerunFeed(deps, prep, req, redacted, plan);
}

/** The plan is row-wise over its scans, with no subquery: its rows over new events are exactly its new rows. */
export function appendable(p: Plan): boolean {
  const plain = (e: Parameters<typeof someNode>[0]): boolean => !someNode(e, (x) => x.k === 'subquery');
  switch (p.k) {
    case 'scan': case 'values': return true;
    case 'filter': return plain(p.pred) && appendable(p.input);
    case 'project': return p.exprs.every(plain) && appendable(p.input);
    case 'unnest': return plain(p.array) && appendable(p.input);
    case 'sort': return p.keys.every((k) => plain(k.expr)) && appendable(p.input);
    case 'limit': return appendable(p.input);
    case 'setop': return p.op === 'union' && p.all && p.inputs.every(appendable);
    default: return false;
  }
}


function scansOf(p: Plan, out: ScanPlan[] = []): ScanPlan[] {
  if (p.k === 'scan') out.push(p);
  else if (p.k === 'join') { scansOf(p.left, out); scansOf(p.right, out); }
  else if (p.k === 'setop') for (const x of p.inputs) scansOf(x, out);
  else if ('input' in p) scansOf(p.input, out);
  return out;
}

const REPLAN_MS = 10_000;

/** An appendable plan whose answer does not depend on CURRENT_TIMESTAMP (no clock-marked constant or scan bound). */
function clockFree(p: Plan): boolean {
  const noClock = (e: Parameters<typeof someNode>[0]): boolean => !someNode(e, (x) => x.k === 'const' && x.clock !== undefined);
  switch (p.k) {
    case 'scan': return p.minTsClock === undefined && p.maxTsClock === undefined;
    case 'values': return p.rows.every((r) => r.every(noClock));
    case 'filter': return noClock(p.pred) && clockFree(p.input);
    case 'project': return p.exprs.every(noClock) && clockFree(p.input);
    case 'unnest': return noClock(p.array) && clockFree(p.input);
    case 'sort': return p.keys.every((k) => noClock(k.expr)) && clockFree(p.input);
    case 'limit': return clockFree(p.input);
    case 'setop': return p.inputs.every(clockFree);
    default: return false;
  }
}

const digest = (body: Buffer): string => createHash('sha1').update(body).digest('base64');

/** Runs `work` in a query slot; null when every slot is taken (the feed tries again next interval). */
async function inSlot<T>(gate: QueryGate, work: () => Promise<T>): Promise<T | null> {
  const release = gate.tryEnter();
  if (!release) return null;
  try {
    return await work();
  } finally {
    release();
  }
}

/** The same for synchronous work: the slot is released before returning, so a burst of steps never fills the gate. */
function inSlotSync<T>(gate: QueryGate, work: () => T): T | null {
  const release = gate.tryEnter();
  if (!release) return null;
  try {
    return work();
  } finally {
    release();
  }
}

/** Time-bucket aggregates: every interval the (cheap, always current) bucket-cache answer, sent when it differs. */
class BucketFeed implements LiveFeed {
  readonly mode: LiveMode = 'buckets';
  private last = '';
  constructor(private readonly deps: LiveDeps, private readonly run: RunRequest, readonly redacted: boolean) {}

  async first(): Promise<Buffer> {
    const r = await this.deps.run(this.run);
    this.last = digest(r.body);
    return r.body;
  }

  async next(): Promise<Buffer | null> {
    let r: RunResponse;
    try {
      r = await this.deps.run(this.run);
    } catch (err) {
      if (err instanceof RingqlError && err.code === 'overloaded') return null;
      throw err;
    }
    const d = digest(r.body);
    if (d === this.last) return null;
    this.last = d;
    return r.body;
  }
}

/** Row queries: `{"append":[...]}` with the rows of the events ingested since the previous message. */
class RowFeed implements LiveFeed {
  readonly mode: LiveMode = 'rows';
  private seqs = new Map<string, number>();
  private sources: SourceHandle[] = [];
  /** A plan that does not read the clock, kept for REPLAN_MS: planning logs.all costs more than its new rows. */
  private kept: { plan: Instance; at: number } | null = null;
  constructor(private readonly deps: LiveDeps, private readonly prep: PreparedEndpoint, private readonly req: ResolvedRequest, readonly redacted: boolean) {}

  /** Each source's newest sequence number, read just before a synchronous run so none slips between. */
  private currentSeqs(plan: Plan): Map<string, number> {
    const m = new Map<string, number>();
    for (const s of scansOf(plan)) m.set(s.source.def.name, s.source.lastSeq());
    return m;
  }

  /** The plan at this moment: planned anew when it reads the clock, else reused for a while (the schema may grow). */
  private plan(): Instance {
    const now = performance.now();
    if (this.kept && now - this.kept.at < REPLAN_MS) return this.kept.plan;
    const plan = planRequest(this.prep, this.req, this.deps.catalog, this.deps.now());
    this.kept = clockFree(plan.logical) ? { plan, at: now } : null;
    return plan;
  }

  async first(): Promise<Buffer> {
    const release = this.deps.gate.enter();
    try {
      const plan = this.plan();
      this.seqs = this.currentSeqs(plan.logical);
      this.sources = [...new Set(scansOf(plan.logical).map((s) => s.source))];
      return executePlan(plan.physical, this.prep, this.redacted, this.deps.budget, 0).body;
    } finally {
      release();
    }
  }

  /** Some source the query reads holds events past the last message (checked without planning). */
  private changed(): boolean {
    for (const s of this.sources) if (s.lastSeq() > (this.seqs.get(s.def.name) ?? -Infinity)) return true;
    return false;
  }

  async next(): Promise<Buffer | null> {
    if (!this.changed()) return null;
    const body = inSlotSync(this.deps.gate, () => {
      const plan = this.plan();
      const now = this.currentSeqs(plan.logical);
      // The same plan, its scans reading only events after each source's last message (run context).
      const ctx = new ExecContext(this.deps.budget);
      ctx.afterSeqBySource = this.seqs;
      this.seqs = now;
      const r = executePlan(plan.physical, this.prep, this.redacted, this.deps.budget, 0, 'json', ctx);
      return r.rowCount === 0 ? null : r.body;
    });
    if (!body) return null;
    const text = body.toString('utf8');
    if (!text.startsWith(RESULT_PREFIX)) throw new Error('internal: a JSON result body does not start with {"result":');
    return Buffer.from(APPEND_PREFIX + text.slice(RESULT_PREFIX.length), 'utf8');
  }
}

/** Anything else (joins, non-bucket aggregates): re-run when a source it reads changed, sent when the answer differs. */
class RerunFeed implements LiveFeed {
  readonly mode: LiveMode = 'result';
  private last = '';
  private clocks = '';
  private readonly scans: ScanPlan[];
  constructor(private readonly deps: LiveDeps, private readonly prep: PreparedEndpoint, private readonly req: ResolvedRequest, readonly redacted: boolean, plan: Plan) {
    this.scans = scansOf(plan);
  }

  private clock(): string {
    return this.scans.map((s) => `${s.source.lastSeq()}/${s.source.watermark()}`).join(',');
  }

  private async compute(): Promise<Buffer> {
    this.clocks = this.clock();
    const r = await executeRequestSliced(this.prep, this.req, this.redacted, this.deps.catalog, this.deps.now(), this.deps.budget);
    this.last = digest(r.body);
    return r.body;
  }

  async first(): Promise<Buffer> {
    const release = this.deps.gate.enter();
    try {
      return await this.compute();
    } finally {
      release();
    }
  }

  async next(): Promise<Buffer | null> {
    if (this.clock() === this.clocks) return null;
    const before = this.last;
    const body = await inSlot(this.deps.gate, () => this.compute());
    return body && this.last !== before ? body : null;
  }
}
