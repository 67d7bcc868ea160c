// A node's share of the partitions (SPEC §13): follows the live members, starts a consumer from the
// beginning of every partition it gains (answering "rebuilding" until it has caught up), stops and drops
// the ones it loses, and tells a request for a project where it is answered.

import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { MemberInfo } from './membership.ts';
import { PartitionConsumer, type PartitionConsumerOptions } from './partition-consumer.ts';
import { partitionOf, streamName } from './partition.ts';
import { LastSeqAsker } from './read-barrier.ts';
import { ownerOf } from './rendezvous.ts';

/** Where a partition's messages go: the node's store (via the service) in production. */
export interface PartitionSink {
  /** One stream message of partition p, in stream order (seq) — apply it exactly once. */
  apply(partition: number, payload: Uint8Array, seq: number): void;
  /** Partitions this node no longer owns: forget their data (a later gain rebuilds from the stream). */
  drop(partitions: readonly number[]): void;
}

export type Route =
  | { kind: 'local' }
  | { kind: 'rebuilding'; partition: number }
  /** The partition is here but could not confirm it applied everything acknowledged before the query. */
  | { kind: 'behind'; partition: number }
  | { kind: 'remote'; member: MemberInfo }
  | { kind: 'no_owner' };

export class PartitionOwner {
  private readonly consumers = new Map<number, PartitionConsumer>();
  private readonly askers = new Map<number, LastSeqAsker>();
  /** Local queries running per partition: a partition handed over is dropped only once its queries end. */
  private readonly running = new Map<number, number>();
  private drained: (() => void)[] = [];
  /** Partitions whose rows a local snapshot restored, with the stream sequence they cover (the first change only). */
  private resume = new Map<number, number>();
  private stopped = false;
  private members: ReadonlyMap<string, MemberInfo> = new Map();
  /** Serialises ownership changes (a change waits for the consumers of the previous one to start). */
  private change: Promise<void> = Promise.resolve();

  constructor(private readonly js: JetStreamClient, private readonly jsm: JetStreamManager, private readonly self: MemberInfo,
    readonly partitions: number, private readonly sink: PartitionSink, private readonly consumerOpts: PartitionConsumerOptions = {},
    private readonly log: (line: string) => void = () => {}) {}

  /** Applies a new member map: gained partitions start rebuilding, lost ones are stopped and dropped. */
  setMembers(members: ReadonlyMap<string, MemberInfo>): Promise<void> {
    this.change = this.change.then(() => this.apply(members)).catch((err: unknown) => {
      this.log(`ringql: cluster: ownership change failed: ${err instanceof Error ? err.message : String(err)}`);
    });
    return this.change;
  }

  /**
   * Before the first setMembers: the store already holds these partitions up to these stream sequences
   * (a local snapshot). The first ownership change resumes the ones it gives this node after them and
   * drops the rest; later gains rebuild from the start of the stream as usual.
   */
  resumeFrom(covered: ReadonlyMap<number, number>): void {
    this.resume = new Map(covered);
  }

  /** The stream sequence each held partition has applied (what a snapshot taken now covers). */
  covered(): Map<number, number> {
    return new Map([...this.consumers].map(([p, c]) => [p, c.lastSeq]));
  }

  private async apply(members: ReadonlyMap<string, MemberInfo>): Promise<void> {
    this.members = members;
    const resume = this.resume;
    this.resume = new Map();
    const ids = [...members.keys()];
    if (!members.has(this.self.id)) ids.push(this.self.id);
    const lost: number[] = [];
    const gained: number[] = [];
    for (let p = 0; p < this.partitions; p++) {
      const mine = ownerOf(p, ids) === this.self.id;
      if (mine && !this.consumers.has(p)) gained.push(p);
      if (!mine && this.consumers.has(p)) lost.push(p);
    }
    if (lost.length) {
      for (const p of lost) { this.consumers.get(p)!.stop(); this.consumers.delete(p); }
      // New queries for these partitions go to their new owner now; the ones running here finish first.
      await this.idle(lost);
      this.sink.drop(lost);
      this.log(`ringql: cluster: ${this.self.id} hands over partitions ${lost.join(',')}`);
    }
    const stale = [...resume.keys()].filter((p) => !gained.includes(p));
    if (stale.length) this.sink.drop(stale);
    for (const p of gained) await this.gain(p, resume.get(p) ?? 0);
  }

  /** Starts consuming a gained partition after `covered` (what a snapshot restored), retrying while JetStream elects. */
  private async gain(p: number, covered: number): Promise<void> {
    const c = new PartitionConsumer(this.js, this.jsm, p, (payload, seq) => this.sink.apply(p, payload, seq), this.consumerOpts);
    this.consumers.set(p, c);
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        if (covered > 0 && (await this.jsm.streams.info(streamName(p))).state.last_seq < covered) {
          // The stream is not the one the snapshot was taken from (it holds less): forget the snapshot's rows.
          this.sink.drop([p]);
          covered = 0;
        }
        await c.start(covered + 1);
        break;
      } catch (err) {
        if (attempt % 10 === 0) this.log(`ringql: cluster: partition ${p} cannot start yet: ${err instanceof Error ? err.message : String(err)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const t0 = performance.now();
    void c.caughtUp().then(() => this.log(`ringql: cluster: ${this.self.id} ${covered > 0 ? `resumed partition ${p} from its snapshot at ${covered}, then` : `rebuilt partition ${p}`} (${c.lastSeq - covered} messages, ${Math.round(performance.now() - t0)} ms)`));
  }

  /** Where a query for `project` is answered. */
  route(project: string): Route {
    const p = partitionOf(project, this.partitions);
    const ids = [...this.members.keys()];
    if (!this.members.has(this.self.id)) ids.push(this.self.id);
    const owner = ownerOf(p, ids);
    if (owner === null) return { kind: 'no_owner' };
    if (owner === this.self.id) {
      const c = this.consumers.get(p);
      return c && c.isCaughtUp ? { kind: 'local' } : { kind: 'rebuilding', partition: p };
    }
    const m = this.members.get(owner);
    return m ? { kind: 'remote', member: m } : { kind: 'no_owner' };
  }

  /**
   * Waits until this node has applied every message its partition of `project` held when the call was
   * made (so a query sees every event acknowledged before it was sent): 'local' once it has, else why not.
   */
  async readBarrier(project: string, timeoutMs: number): Promise<Route> {
    const p = partitionOf(project, this.partitions);
    const c = this.consumers.get(p);
    if (!c) return this.route(project);
    let asker = this.askers.get(p);
    if (!asker) this.askers.set(p, (asker = new LastSeqAsker(async () => (await this.jsm.streams.info(streamName(p))).state.last_seq)));
    const t0 = Date.now();
    let last: number;
    try {
      last = await Promise.race([asker.lastSeq(), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref())]);
    } catch {
      return { kind: 'behind', partition: p };
    }
    const reached = await c.reached(last, Math.max(0, timeoutMs - (Date.now() - t0)));
    // Ownership may have moved while waiting (ask again where the project lives); a consumer replaced
    // meanwhile (the partition moved away and back) was not the one waited on: that query retries.
    return reached && this.consumers.get(p) === c ? this.route(project) : { kind: 'behind', partition: p };
  }

  /**
   * Runs a query on this node's data for `project` if the partition is still held and caught up here at
   * this moment (else answers where it should go instead); the partition is not dropped while it runs.
   */
  async runLocal<T>(project: string, run: () => Promise<T>): Promise<{ route: Route; value?: T }> {
    const route = this.route(project);
    if (route.kind !== 'local') return { route };
    const p = partitionOf(project, this.partitions);
    this.running.set(p, (this.running.get(p) ?? 0) + 1);
    try {
      return { route, value: await run() };
    } finally {
      const left = this.running.get(p)! - 1;
      if (left === 0) this.running.delete(p); else this.running.set(p, left);
      if (left === 0) { const d = this.drained; this.drained = []; for (const f of d) f(); }
    }
  }

  /** Resolves once no local query runs on any of `partitions`. */
  private async idle(partitions: readonly number[]): Promise<void> {
    while (partitions.some((p) => this.running.has(p))) await new Promise<void>((r) => this.drained.push(r));
  }

  /** Partitions this node holds, and which of them are still rebuilding. */
  status(): { owned: number[]; rebuilding: number[] } {
    const owned = [...this.consumers.keys()].sort((a, b) => a - b);
    return { owned, rebuilding: owned.filter((p) => !this.consumers.get(p)!.isCaughtUp) };
  }

  /** Resolves once the ownership change in progress is applied and every owned partition has caught up. */
  async settled(): Promise<void> {
    await this.change;
    await Promise.all([...this.consumers.values()].map((c) => c.caughtUp()));
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.consumers.values()) c.stop();
    this.consumers.clear();
  }
}
