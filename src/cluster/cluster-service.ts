// The QueryService of a cluster node (SPEC §13): ingest is validated here, then published to JetStream and
// acknowledged once every message is; a query runs here when this node owns the project's partition
// (503 overloaded while it rebuilds), else it is forwarded to the owner and answered with its bytes.

import { RingqlError, type ErrorCode, ERROR_STATUS } from '../core/errors.ts';
import type { JetStreamClient } from '@nats-io/jetstream';
import { stampBatch } from '../durable/batch-record.ts';
import type { EngineService } from '../endpoints/service.ts';
import { projectAt } from '../store/hot-paths.ts';
import type {
  EndpointInfo, EndpointInput, IngestResponse, LiveFeed, QueryService, RunRequest, RunResponse, ServiceFigures, SourceInfo,
} from '../endpoints/service-types.ts';
import type { EndpointBucket } from './endpoint-bucket.ts';
import { addUp, type NodeAnswer } from './node-report.ts';
import type { PartitionOwner } from './partition-owner.ts';
import { batchMessages, publishMessages, type PublishOptions } from './publisher.ts';

/** The header a forwarded query carries, so its receiver answers it itself (never forwards it again). */
export const FORWARDED_HEADER = 'x-ringql-forwarded';

export interface ClusterServiceOptions {
  selfId: string;
  /** A token with query scope this node sends with forwarded queries (the nodes share their tokens). */
  forwardToken: string;
  nowUs: () => number;
  publish?: PublishOptions;
  /** How long a query waits for its partition to apply what was acknowledged before it (default 5 s; then 503). */
  readBarrierMs?: number;
  /** Per forwarded request (default 30 s). */
  forwardTimeoutMs?: number;
  /** The endpoint bucket: created endpoints are managed through it (absent: this node's service alone). */
  endpoints?: EndpointBucket;
  /** Every member's report, for /api/sources and /health across nodes (absent: this node's figures). */
  reports?: { gather(): Promise<NodeAnswer[]> };
}

/** Thrown by validation's beforeCommit hook: the batch is valid, and nothing of it is stored. */
const VALID = Symbol('valid batch');

export class ClusterService implements QueryService {
  readonly figures?: () => ServiceFigures;

  constructor(private readonly local: EngineService, private readonly owner: PartitionOwner,
    private readonly js: JetStreamClient, private readonly opts: ClusterServiceOptions) {
    if (local.figures) this.figures = () => local.figures!();
  }

  async run(req: RunRequest): Promise<RunResponse> {
    const project = req.params.get('project');
    if (project === undefined) {
      throw new RingqlError('missing_parameter', 'In cluster mode a query names its project (the parameter `project`): data is partitioned by project', { param: 'project' });
    }
    let route = this.owner.route(project);
    if (route.kind === 'local') route = await this.owner.readBarrier(project, this.opts.readBarrierMs ?? 5000);
    if (route.kind === 'local') {
      const r = await this.owner.runLocal(project, () => this.local.run(req));
      if (r.value) return r.value;
      route = r.route;
    }
    if (route.kind === 'remote' && req.forwardedBy === undefined) return this.forward(route.member.url, req);
    throw new RingqlError('overloaded', unavailableMessage(route.kind, project), { retry_after: 2 });
  }

  private async forward(base: string, req: RunRequest): Promise<RunResponse> {
    const qs = new URLSearchParams([...req.params]);
    const headers: Record<string, string> = { authorization: `Bearer ${this.opts.forwardToken}`, [FORWARDED_HEADER]: this.opts.selfId };
    if (req.redactHeader) headers['lf-endpoint-redact-pii'] = 'true';
    if (req.accepted === null) headers.accept = 'application/x-ringql-none';
    else if (req.accepted === 'ndjson') headers.accept = 'application/x-ndjson';
    else if (req.accepted === 'csv') headers.accept = 'text/csv';
    const t0 = performance.now();
    let res: Response;
    try {
      res = await fetch(`${base}/api/endpoints/query/${encodeURIComponent(req.endpoint)}?${qs}`, { headers, signal: AbortSignal.timeout(this.opts.forwardTimeoutMs ?? 30_000) });
    } catch (err) {
      throw new RingqlError('overloaded', `The node owning this project did not answer (${err instanceof Error ? err.message : String(err)}); retry shortly`, { retry_after: 2 });
    }
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw errorFrom(res.status, body);
    const format = res.headers.get('content-type')?.startsWith('text/csv') ? 'csv' : res.headers.get('content-type')?.includes('ndjson') ? 'ndjson' : undefined;
    return {
      body,
      ...(format ? { format } : {}),
      rowCount: Number(res.headers.get('x-ringql-rows') ?? 0),
      truncated: res.headers.get('x-ringql-truncated') === 'true',
      cache: res.headers.get('x-cache') === 'HIT' ? 'HIT' : 'MISS',
      ageSeconds: Number(res.headers.get('age') ?? 0),
      timings: [{ name: 'forward', ms: performance.now() - t0 }],
      // The owner applied redaction already (it got the header); do not scan the body again.
      redacted: req.redactHeader,
    };
  }

  /** Validates the batch against this node's store (nothing stored), then publishes it; resolves once JetStream acknowledged all. */
  async ingest(source: string, events: unknown[]): Promise<IngestResponse> {
    // The single-node checks (source, empty batch, RINGQL_MAX_EVENTS_PER_BATCH), then every event, before anything is published.
    const s = this.local.checkBatch(source, events);
    const nowUs = this.opts.nowUs();
    const stamped = stampBatch(events, nowUs);
    // Events already past retention are answered as dropped and never published, as one node drops them.
    let below: readonly number[] = [];
    try {
      s.ingest(stamped, nowUs, (_maxTs, belowWatermark) => { below = belowWatermark; throw VALID; });
    } catch (err) {
      if (err !== VALID) throw err;
    }
    const skip = new Set(below);
    const kept = skip.size === 0 ? stamped : stamped.filter((_e, i) => !skip.has(i));
    if (kept.length === 0) return { stored: 0, dropped: skip.size };
    const messages = batchMessages(s.def.name, kept, (e) => projectAt(e, s.def.projectPath), this.opts.publish);
    try {
      await publishMessages(this.js, messages, this.opts.publish);
    } catch (err) {
      throw new RingqlError('storage_unavailable', `The batch could not be stored in the cluster's log (${err instanceof Error ? err.message : String(err)}); retry shortly`, { retry_after: 2 });
    }
    return { stored: kept.length, dropped: skip.size };
  }

  /** Live feeds run where the data is: on the owner (a subscription elsewhere is refused with the owner's address). */
  subscribe(req: RunRequest): LiveFeed {
    const project = req.params.get('project');
    const route = project === undefined ? null : this.owner.route(project);
    if (route?.kind === 'local') return this.local.subscribe(req);
    if (route?.kind === 'remote') throw new RingqlError('overloaded', `In cluster mode a live subscription connects to the node that owns the project: ${route.member.url}`, { retry_after: 1, owner_url: route.member.url });
    throw new RingqlError(project === undefined ? 'missing_parameter' : 'overloaded', project === undefined
      ? 'In cluster mode a subscription names its project (the parameter `project`)' : 'The project\'s partition is being rebuilt here; retry shortly', project === undefined ? { param: 'project' } : { retry_after: 2 });
  }

  onIngest(listener: (source: string) => void): () => void { return this.local.onIngest(listener); }
  endpointRedacts(idOrName: string): boolean { return this.local.endpointRedacts(idOrName); }
  listEndpoints(): ReturnType<QueryService['listEndpoints']> { return this.local.listEndpoints(); }
  getEndpoint(idOrName: string): ReturnType<QueryService['getEndpoint']> { return this.local.getEndpoint(idOrName); }
  createEndpoint(input: EndpointInput): Promise<EndpointInfo> {
    return this.opts.endpoints ? this.opts.endpoints.create(input) : this.local.createEndpoint(input);
  }

  updateEndpoint(idOrName: string, input: EndpointInput): Promise<EndpointInfo> {
    return this.opts.endpoints ? this.opts.endpoints.update(idOrName, input) : this.local.updateEndpoint(idOrName, input);
  }

  deleteEndpoint(idOrName: string): Promise<void> {
    return this.opts.endpoints ? this.opts.endpoints.delete(idOrName) : this.local.deleteEndpoint(idOrName);
  }

  schema(sourceNameOrId: string): ReturnType<QueryService['schema']> { return this.local.schema(sourceNameOrId); }

  /**
   * Every source added up over the partition owners. In cluster mode each entry also says what it leaves
   * out: `partitions_missing` (owner silent or rebuilding) and `nodes_unanswered`; both empty when whole.
   */
  async sources(): Promise<SourceInfo[]> {
    if (!this.opts.reports) return this.local.sources();
    const t = addUp(await this.opts.reports.gather(), this.owner.partitions, this.local.sources());
    return t.sources.map((s) => ({ ...s, partitions_missing: t.missing, nodes_unanswered: t.unanswered }));
  }

  async health(): Promise<Record<string, unknown>> {
    const local = this.local.health();
    const cluster = { node: this.opts.selfId, ...this.owner.status() };
    if (!this.opts.reports) return { ...local, cluster };
    const answers = await this.opts.reports.gather();
    const t = addUp(answers, this.owner.partitions, this.local.sources());
    return {
      ...local,
      // Rows across the cluster, each partition counted once by its owner; this node's own are under cluster.nodes.
      rows: Object.fromEntries(t.sources.map((s) => [s.name, s.rows])),
      cluster: {
        ...cluster, partitions: this.owner.partitions, partitions_missing: t.missing, nodes_unanswered: t.unanswered,
        nodes: answers.map((a) => ({
          id: a.id, url: a.url, answered: a.report !== null,
          ...(a.report ? { owned: a.report.owned, rebuilding: a.report.rebuilding, rows: t.perNode.get(a.id) ?? {} } : {}),
        })),
      },
    };
  }
}

function unavailableMessage(kind: string, project: string): string {
  const p = project.slice(0, 200);
  if (kind === 'rebuilding') return `The partition holding project ${p} is being rebuilt on this node; retry shortly`;
  if (kind === 'behind') return `The partition holding project ${p} has not yet applied every event its log acknowledged (the log may be electing a leader); retry shortly`;
  return 'No node owns this project right now (the cluster is changing); retry shortly';
}

/** The owner's error answer, as the same RingqlError (so this node answers the same status and body). */
function errorFrom(status: number, body: Buffer): RingqlError {
  try {
    const v = JSON.parse(body.toString('utf8')) as { error?: { code?: string; message?: string } & Record<string, unknown> };
    const e = v.error;
    if (e && typeof e.code === 'string' && e.code in ERROR_STATUS && typeof e.message === 'string') {
      const { code, message, ...details } = e;
      return new RingqlError(code as ErrorCode, message, details);
    }
  } catch { /* not an error body */ }
  return new RingqlError('overloaded', `The node owning this project answered ${status}; retry shortly`, { retry_after: 2 });
}
