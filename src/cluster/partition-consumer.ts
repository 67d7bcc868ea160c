// Reading one partition's stream into the node (SPEC §13): an ordered consumer from a start sequence,
// pulls bounded by bytes (a pull above 64 MiB gets the client cut off as a slow consumer) with a short
// expiry (so a dead stream leader stalls it seconds, not a minute), and a "caught up" signal for rebuilds.

import { DeliverPolicy, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { streamName } from './partition.ts';

export interface PartitionConsumerOptions {
  /** Bytes per pull (default 8 MiB). */
  maxBytes?: number;
  /** Pull expiry (default 5 s). */
  expiresMs?: number;
  /** A message apply() refused (not a batch we wrote): reported here and skipped, never a stalled partition. */
  onBadMessage?: (partition: number, seq: number, err: unknown) => void;
}

export class PartitionConsumer {
  /** The stream sequence applied last (0: none). */
  lastSeq = 0;
  /** Messages apply() threw on (skipped). */
  badMessages = 0;
  private target = 0;
  private stopped = false;
  private caught: Promise<void>;
  private markCaught!: () => void;
  private messages: { stop(): void } | null = null;
  private waiters: { seq: number; resolve: (reached: boolean) => void }[] = [];

  /** `apply(payload, seq)` is called once per message, in stream order. */
  constructor(private readonly js: JetStreamClient, private readonly jsm: JetStreamManager, readonly partition: number,
    private readonly apply: (payload: Uint8Array, seq: number) => void, private readonly opts: PartitionConsumerOptions = {}) {
    this.caught = new Promise((r) => { this.markCaught = r; });
  }

  /** Starts after `fromSeq - 1` (1: from the beginning); the returned promise settles once consuming runs. */
  async start(fromSeq = 1): Promise<void> {
    const info = await this.jsm.streams.info(streamName(this.partition));
    this.target = info.state.last_seq;
    this.lastSeq = fromSeq - 1;
    if (this.lastSeq >= this.target || info.state.messages === 0) this.markCaught();
    const consumer = await this.js.consumers.get(streamName(this.partition), { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Math.max(1, fromSeq) });
    const messages = await consumer.consume({ max_bytes: this.opts.maxBytes ?? 8 * 1024 * 1024, expires: this.opts.expiresMs ?? 5000 });
    this.messages = messages;
    void (async () => {
      for await (const m of messages) {
        if (this.stopped) break;
        if (m.seq <= this.lastSeq) continue; // a redelivery after the consumer was recreated
        try {
          this.apply(m.data, m.seq);
        } catch (err) {
          this.badMessages++;
          (this.opts.onBadMessage ?? defaultBadMessage)(this.partition, m.seq, err);
        }
        this.lastSeq = m.seq;
        if (this.lastSeq >= this.target) this.markCaught();
        if (this.waiters.length) this.wake();
      }
    })();
  }

  /** Resolves once every message that was in the stream at start() has been applied. */
  caughtUp(): Promise<void> {
    return this.caught;
  }

  get isCaughtUp(): boolean {
    return this.lastSeq >= this.target;
  }

  /** Resolves true once the message with stream sequence `seq` is applied, false after `timeoutMs` or stop(). */
  reached(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.lastSeq >= seq) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const w = { seq, resolve: (ok: boolean): void => { clearTimeout(timer); resolve(ok); } };
      const timer = setTimeout(() => { this.waiters = this.waiters.filter((x) => x !== w); resolve(false); }, timeoutMs);
      this.waiters.push(w);
    });
  }

  private wake(): void {
    const done = this.waiters.filter((w) => w.seq <= this.lastSeq);
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.seq > this.lastSeq);
    for (const w of done) w.resolve(true);
  }

  stop(): void {
    this.stopped = true;
    this.messages?.stop();
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
  }
}

function defaultBadMessage(partition: number, seq: number, err: unknown): void {
  process.stderr.write(`ringql: cluster: partition ${partition} message ${seq} skipped: ${err instanceof Error ? err.message : String(err)}\n`);
}
