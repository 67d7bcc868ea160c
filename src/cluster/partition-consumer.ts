// Reading one partition's stream into the node (SPEC §13): an ordered consumer from a start sequence,
// pulls bounded by bytes (a pull above 64 MiB gets the client cut off as a slow consumer) with a short
// expiry (so a dead stream leader stalls it seconds, not a minute), and a "caught up" signal for rebuilds.

import { DeliverPolicy, type Consumer, type ConsumerInfo, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { streamName } from './partition.ts';

export interface PartitionConsumerOptions {
  /** Bytes per pull (default 8 MiB). */
  maxBytes?: number;
  /** Pull expiry (default 5 s). */
  expiresMs?: number;
  /** A message apply() refused (not a batch we wrote): reported here and skipped, never a stalled partition. */
  onBadMessage?: (partition: number, seq: number, err: unknown) => void;
  /** Nothing applied for this long while the stream holds more: the consumer is replaced (default 2 s). */
  stallMs?: number;
  /** Told of the consumer's trouble (missed heartbeats, recreation after its server died), for the node's log. */
  log?: (line: string) => void;
}

/** Consumer notifications worth a log line: the ones that say a partition is stalled or recovering. */
const LOGGED = new Set(['heartbeats_missed', 'ordered_consumer_recreated', 'consumer_not_found', 'stream_not_found', 'consumer_deleted', 'no_responders', 'reset']);

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
  /** Bumped whenever a new server-side consumer replaces the previous one. */
  private generation = 0;
  private reopening = false;
  private current: Consumer | null = null;
  private watching = false;
  /** Consumers replaced since the last progress. */
  private stalls = 0;
  private watchdog: NodeJS.Timeout | null = null;
  /** lastSeq at the watchdog's previous look, and when it last moved. */
  private watchedSeq = -1;
  private movedAt = Date.now();
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
    await this.open();
    const stallMs = this.opts.stallMs ?? 2000;
    this.watchdog = setInterval(() => void this.watch(stallMs).catch(() => { /* the next look asks again */ }), Math.max(100, stallMs / 2));
    this.watchdog.unref();
  }

  /**
   * The client does not always notice its consumer is gone: after a reconnect it asks the dead consumer for
   * its info until that server returns. So when nothing was applied for `stallMs` while the stream holds
   * more, the consumer is replaced.
   */
  private async watch(stallMs: number): Promise<void> {
    if (this.stopped || this.reopening || this.watching) return;
    if (this.lastSeq !== this.watchedSeq) { this.watchedSeq = this.lastSeq; this.movedAt = Date.now(); this.stalls = 0; return; }
    // Replacing a consumer that did not help waits twice as long before the next (a slow server, not a dead one).
    if (Date.now() - this.movedAt < stallMs * 2 ** Math.min(this.stalls, 2)) return;
    const gen = this.generation;
    this.watching = true;
    const info = await this.jsm.streams.info(streamName(this.partition)).finally(() => { this.watching = false; });
    this.movedAt = Date.now(); // an idle partition is looked at again after another stallMs
    if (info.state.last_seq > this.lastSeq && gen === this.generation && this.lastSeq === this.watchedSeq) {
      this.stalls++;
      await this.reopen(gen);
    }
  }

  /**
   * Opens an ordered consumer after lastSeq. Its server-side consumer has one replica: when the server
   * holding it dies, the client keeps asking that consumer for its info and stalls until the server is
   * back; so when the client reports missed heartbeats (or the watchdog sees no progress) this consumer
   * is dropped and a new one opened after lastSeq. Messages at or below lastSeq are skipped.
   */
  private async open(): Promise<void> {
    const gen = ++this.generation;
    const consumer = await this.js.consumers.get(streamName(this.partition), { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.lastSeq + 1 });
    this.current = consumer;
    const messages = await consumer.consume({ max_bytes: this.opts.maxBytes ?? 8 * 1024 * 1024, expires: this.opts.expiresMs ?? 5000 });
    if (this.stopped || gen !== this.generation) { messages.stop(); return; }
    this.messages = messages;
    void (async () => {
      for await (const n of messages.status()) {
        if (LOGGED.has(n.type)) this.opts.log?.(`ringql: cluster: partition ${this.partition} consumer: ${JSON.stringify(n)} (applied to ${this.lastSeq})`);
        if (n.type === 'heartbeats_missed' && gen === this.generation) {
          consumer.delete().catch(() => { /* gone with its server; it expires there anyway */ });
          void this.reopen(gen);
          break;
        }
      }
    })().catch(() => {});
    void (async () => {
      for await (const m of messages) {
        if (this.stopped || gen !== this.generation) break;
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

  /** Replaces a stalled consumer (generation `gen`) with a new one after lastSeq, retrying while the cluster elects. */
  private async reopen(gen: number): Promise<void> {
    if (gen !== this.generation || this.reopening) return;
    this.reopening = true;
    try {
      await this.reopenNow();
    } finally {
      this.reopening = false;
    }
  }

  private async reopenNow(): Promise<void> {
    this.messages?.stop();
    this.opts.log?.(`ringql: cluster: partition ${this.partition}: its consumer stalled; opening a new one after ${this.lastSeq}`);
    const t0 = Date.now();
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.open();
        if (attempt > 0) this.opts.log?.(`ringql: cluster: partition ${this.partition}: a new consumer after ${Date.now() - t0} ms`);
        return;
      } catch (err) {
        if (attempt % 10 === 0) this.opts.log?.(`ringql: cluster: partition ${this.partition}: no new consumer yet (${err instanceof Error ? err.message : String(err)})`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  /** Resolves once every message that was in the stream at start() has been applied. */
  caughtUp(): Promise<void> {
    return this.caught;
  }

  get isCaughtUp(): boolean {
    return this.lastSeq >= this.target;
  }

  /** The server-side consumer in use (where it lives: `cluster.leader`), as last known. */
  consumerInfo(): Promise<ConsumerInfo | null> {
    return this.current ? this.current.info(true) : Promise.resolve(null);
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
    if (this.watchdog) clearInterval(this.watchdog);
    this.messages?.stop();
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
  }
}

function defaultBadMessage(partition: number, seq: number, err: unknown): void {
  process.stderr.write(`ringql: cluster: partition ${partition} message ${seq} skipped: ${err instanceof Error ? err.message : String(err)}\n`);
}
