// Publishing one ingest batch to JetStream (SPEC §13): events grouped by project into messages of at
// most ~60 KB on `logs.<project>.<source>`, each with a Nats-Msg-Id so a retried publish (after a timeout
// that may still have stored it) is kept once; resolves when every message is acknowledged.

import { randomUUID } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import { encodeBatch } from '../durable/batch-record.ts';
import { ingestSubject } from './partition.ts';

export interface PublishOptions {
  /** Largest message payload (default 60 KiB: big enough for ~100 events, small for the servers). */
  maxMessageBytes?: number;
  /** Per publish attempt (default 5 s). */
  attemptTimeoutMs?: number;
  /** Give up after this long in all (default 20 s, covering a leader election). */
  deadlineMs?: number;
  /** Messages in flight at once (default 64). */
  concurrency?: number;
}

export interface PublishMessage {
  subject: string;
  payload: Buffer;
  msgId: string;
  events: number;
}

/** Splits a stamped batch into messages: one project and source per message, each under the size bound. */
export function batchMessages(source: string, events: readonly unknown[], projectOf: (e: unknown) => string | null, opts: PublishOptions = {}): PublishMessage[] {
  const max = opts.maxMessageBytes ?? 60 * 1024;
  const byProject = new Map<string, unknown[]>();
  for (const e of events) {
    const p = projectOf(e) ?? '';
    let list = byProject.get(p);
    if (!list) byProject.set(p, (list = []));
    list.push(e);
  }
  const batchId = randomUUID();
  const out: PublishMessage[] = [];
  for (const [project, list] of byProject) {
    const subject = ingestSubject(project, source);
    let chunk: unknown[] = [];
    let bytes = 0;
    const flush = (): void => {
      if (chunk.length === 0) return;
      out.push({ subject, payload: encodeBatch(source, chunk), msgId: `${batchId}:${out.length}`, events: chunk.length });
      chunk = [];
      bytes = 0;
    };
    for (const e of list) {
      const size = Buffer.byteLength(JSON.stringify(e)) + 1;
      if (bytes + size > max && chunk.length > 0) flush();
      chunk.push(e);
      bytes += size;
    }
    flush();
  }
  return out;
}

/** Publishes every message, retrying each (same Nats-Msg-Id) until acknowledged or the deadline passes. */
export async function publishMessages(js: JetStreamClient, messages: readonly PublishMessage[], opts: PublishOptions = {}): Promise<void> {
  const deadline = Date.now() + (opts.deadlineMs ?? 20_000);
  const attempt = opts.attemptTimeoutMs ?? 5_000;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < messages.length) {
      const m = messages[next++]!;
      for (;;) {
        try {
          await js.publish(m.subject, m.payload, { msgID: m.msgId, timeout: Math.max(100, Math.min(attempt, deadline - Date.now())) });
          break;
        } catch (err) {
          if (Date.now() >= deadline) throw new Error(`JetStream did not acknowledge ${m.subject} in time: ${err instanceof Error ? err.message : String(err)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 64, messages.length) }, worker));
}
