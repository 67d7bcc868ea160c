// How a service stores batches: checked (source, size), then with a write-ahead log attached logged
// before stored and acknowledged once durable; raw bodies go through the store's byte path first.

import { randomBytes } from 'node:crypto';
import { RingqlError } from '../core/errors.ts';
import type { Limits } from '../core/limits.ts';
import type { Store } from '../store/store.ts';
import type { SourceStore } from '../store/source-store.ts';
import type { Wal } from '../durable/wal.ts';
import { RECORD_BATCH, RECORD_RAW_BATCH } from '../durable/record-frame.ts';
import { crc32 } from '../core/crc32.ts';
import { encodeBatch, rawBatchHead, stampBatch } from '../durable/batch-record.ts';
import type { IngestResponse } from './service-types.ts';
import { runTransform, type TransformRequest } from '../store/byte-batch.ts';
import type { NativeBatch } from '../store/native-ingest.ts';
import type { BodyCrc, TransformThread } from '../store/transform-thread.ts';

export class IngestPath {
  /** Set once recovery is done (main.ts): every batch is logged before it is stored from then on. */
  wal: Wal | null = null;
  /** Set at start (main.ts): logged bodies are transformed on this thread instead of the main one. */
  transformer: TransformThread | null = null;

  constructor(
    private readonly store: Store,
    private readonly now: () => number,
    private readonly limits: Limits,
    /** Told the source's name after every stored batch (the result cache, live feeds). */
    private readonly ingested: (source: string) => void,
  ) {}

  /** Stores a batch; with a write-ahead log attached it is logged first and acknowledged once durable. */
  ingest(source: string, events: unknown[]): IngestResponse | Promise<IngestResponse> {
    const wal = this.wal;
    if (!wal) return this.ingestVolatile(source, events);
    const s = this.checkBatch(source, events);
    const nowUs = this.now();
    // Logged once valid and before stored (no await in between, so batches reach log and store in one
    // order); acknowledged once durable as RINGQL_FSYNC asks.
    const stamped = stampBatch(events, nowUs);
    const r = s.ingest(stamped, nowUs, (maxTs) => wal.appendSync(RECORD_BATCH, encodeBatch(s.def.name, stamped), maxTs));
    this.ingested(s.def.name);
    const out = { stored: r.stored, dropped: r.dropped, source: s.def.name };
    return wal.durable().then(() => out);
  }

  /**
   * A raw body through the byte path: transformed on the transform thread when one is attached (else
   * here), then logged and stored on this thread in one synchronous step, acknowledged once durable.
   * `lend`: the body goes to the thread and comes back transferred (req.body is then the one that came back).
   */
  ingestBody(source: string, body: Buffer, ndjson: boolean, parse: (body: Buffer) => unknown[], lend = false): IngestResponse | Promise<IngestResponse> {
    const wal = this.wal;
    if (!wal) return this.ingestBodyVolatile(source, body, ndjson, () => parse(body));
    const s = this.store.source(source);
    if (!s) return this.ingest(source, parse(body));
    const nowUs = this.now();
    const req = s.transformRequest(body, ndjson, nowUs, randomBytes(16));
    // The log record's header line is known now: the thread continues its CRC-32 over the body (off this thread).
    const head = rawBatchHead({ source: s.def.name, ndjson, fillUs: nowUs, idSeed: req.idSeed });
    const t = this.transformer;
    if (t) {
      const crc: BodyCrc = { seed: crc32(head), value: null };
      return t.transform(req, lend, crc).then((b) => this.commitBody(source, s, wal, req, b, nowUs, parse, head, crc.value));
    }
    return this.commitBody(source, s, wal, req, runTransform(req), nowUs, parse, head, null);
  }

  /**
   * Logs and stores a transformed body (no await in between, so batches reach log and store in one order).
   * `crc`: the record's payload CRC-32 (header line and body) when the transform thread computed it.
   */
  private commitBody(source: string, s: SourceStore, wal: Wal, req: TransformRequest, b: NativeBatch | string, nowUs: number, parse: (body: Buffer) => unknown[], head: Buffer, crc: number | null): IngestResponse | Promise<IngestResponse> {
    // The log takes the body's own bytes (with the fill-in time and id seed), not a re-serialised batch.
    const r = s.ingestTransformed(b, nowUs, {
      checkCount: (n) => this.checkCount(n),
      beforeCommit: (maxTs) => wal.appendSync(RECORD_RAW_BATCH, [head, req.body], maxTs, crc ?? undefined),
      ...this.rowsHomeOf(b),
    });
    if (typeof r === 'string') return this.ingest(source, parse(req.body));
    this.ingested(s.def.name);
    const out = { stored: r.stored, dropped: r.dropped, source: s.def.name };
    return wal.durable().then(() => out);
  }

  /** A batch from the transform thread whose rows fill one of its row buffers: where that buffer goes once free. */
  private rowsHomeOf(b: NativeBatch | string): { rowsHome?: (buf: Buffer) => void } {
    return typeof b !== 'string' && b.pooled === true && this.transformer ? { rowsHome: this.transformer.rowsHome } : {};
  }

  /** ingestVolatile of a raw body: the addon's byte path, or `parse` and the reference path when it declines the body. */
  ingestBodyVolatile(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): IngestResponse {
    const s = this.store.source(source);
    if (!s) return this.ingestVolatile(source, parse());
    const r = s.ingestBytes(body, ndjson, this.now(), { checkCount: (n) => this.checkCount(n) });
    if (typeof r === 'string') return this.ingestVolatile(source, parse());
    this.ingested(s.def.name);
    return { stored: r.stored, dropped: r.dropped, source: s.def.name };
  }

  /**
   * ingestBodyVolatile with the transform on the transform thread when one is attached: bodies asked
   * for one after another are stored in that order (the demo load pipelines its bodies this way).
   */
  ingestBodyVolatileAsync(source: string, body: Buffer, ndjson: boolean, parse: () => unknown[]): Promise<IngestResponse> {
    const s = this.store.source(source);
    const t = this.transformer;
    if (!s || !t) return Promise.resolve().then(() => this.ingestBodyVolatile(source, body, ndjson, parse));
    const nowUs = this.now();
    return t.transform(s.transformRequest(body, ndjson, nowUs, randomBytes(16))).then((b) => {
      const r = s.ingestTransformed(b, nowUs, { checkCount: (n) => this.checkCount(n), ...this.rowsHomeOf(b) });
      if (typeof r === 'string') return this.ingestVolatile(source, parse());
      this.ingested(s.def.name);
      return { stored: r.stored, dropped: r.dropped, source: s.def.name };
    });
  }

  /** Stores a batch without logging it (demo data regenerated at every start, the CLI's files, replay). */
  ingestVolatile(source: string, events: unknown[]): IngestResponse {
    const s = this.checkBatch(source, events);
    const r = s.ingest(events, this.now());
    this.ingested(s.def.name);
    return { stored: r.stored, dropped: r.dropped, source: s.def.name };
  }

  /** The checks every ingest path makes before it reads an event: source known, batch non-empty, within the events-per-batch limit. */
  checkBatch(source: string, events: unknown[]): SourceStore {
    const s = this.store.source(source);
    if (!s) throw new RingqlError('source_not_found', `No source named or with id "${source.slice(0, 200)}"; sources: ${this.store.sources().map((x) => x.def.name).join(', ')}`);
    if (!Array.isArray(events) || events.length === 0) throw new RingqlError('invalid_events', 'The batch is empty: send at least one event', { errors: [] });
    this.checkCount(events.length);
    return s;
  }

  private checkCount(n: number): void {
    if (n > this.limits.maxEventsPerBatch) {
      throw new RingqlError('payload_too_large', `The batch holds ${n} events; the limit is ${this.limits.maxEventsPerBatch} per request (RINGQL_MAX_EVENTS_PER_BATCH): split it`, { limit: this.limits.maxEventsPerBatch });
    }
  }
}
