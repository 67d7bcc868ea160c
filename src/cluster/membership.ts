// Cluster membership (SPEC §13): each node heartbeats its entry in a JetStream key-value bucket whose
// entries expire after a TTL; the live members are the entries present. Ownership follows from them by
// rendezvous hashing (rendezvous.ts). No consensus of our own: JetStream's replicated bucket is the record.

import type { NatsConnection } from '@nats-io/transport-node';
import { Kvm, type KV } from '@nats-io/kv';

export const MEMBERS_BUCKET = 'ringql_members';

export interface MemberInfo {
  id: string;
  /** How peers reach this node's HTTP API (RINGQL_ADVERTISE_URL). */
  url: string;
}

export interface MembershipOptions {
  /** An entry not renewed within this long expires (default 6 s). */
  ttlMs?: number;
  /** Heartbeat period (default ttl / 3). */
  heartbeatMs?: number;
  replicas?: number;
}

/** Member ids become bucket keys: keep them to the characters KV keys allow. */
export function memberKey(id: string): string {
  return id.replace(/[^A-Za-z0-9_=-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}

export class Membership {
  private kv: KV | null = null;
  private timer: NodeJS.Timeout | null = null;
  private current = new Map<string, MemberInfo>();
  private listeners: ((members: ReadonlyMap<string, MemberInfo>) => void)[] = [];
  private readonly ttlMs: number;
  private readonly heartbeatMs: number;

  constructor(private readonly nc: NatsConnection, readonly self: MemberInfo, private readonly opts: MembershipOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 6000;
    this.heartbeatMs = opts.heartbeatMs ?? Math.max(200, Math.floor(this.ttlMs / 3));
  }

  /** Joins: creates the bucket if needed, writes the first heartbeat and reads the members. */
  async join(): Promise<void> {
    this.kv = await new Kvm(this.nc).create(MEMBERS_BUCKET, { ttl: this.ttlMs, history: 1, replicas: this.opts.replicas ?? 1 });
    await this.beat();
    this.timer = setInterval(() => { void this.beat().catch(() => { /* the next beat retries; expiry is the safe side */ }); }, this.heartbeatMs);
    this.timer.unref();
  }

  /** Called with the member map whenever it changes (also once after join). */
  onChange(f: (members: ReadonlyMap<string, MemberInfo>) => void): void {
    this.listeners.push(f);
    f(this.current);
  }

  get members(): ReadonlyMap<string, MemberInfo> {
    return this.current;
  }

  /** Renews this node's entry and rereads the live ones. */
  async beat(): Promise<void> {
    const kv = this.kv;
    if (!kv) return;
    await kv.put(memberKey(this.self.id), JSON.stringify(this.self));
    const next = new Map<string, MemberInfo>();
    // Listing keys can wait forever when an entry expires while it runs (its consumer counts the expired
    // message as pending): such a listing is abandoned and the members stay as they were until the next beat.
    const keys = await kv.keys();
    let abandoned = false;
    const limit = setTimeout(() => { abandoned = true; keys.stop(); }, Math.max(1000, 2 * this.heartbeatMs));
    try {
      for await (const k of keys) {
        const e = await kv.get(k);
        if (!e || e.operation !== 'PUT') continue;
        try {
          const m = JSON.parse(e.string()) as MemberInfo;
          if (typeof m.id === 'string' && typeof m.url === 'string') next.set(m.id, m);
        } catch { /* not ours */ }
      }
    } finally {
      clearTimeout(limit);
    }
    if (abandoned) return;
    if (!sameMembers(next, this.current)) {
      this.current = next;
      for (const f of this.listeners) f(next);
    }
  }

  /** Leaves: stops heartbeating and deletes the entry, so peers take over without waiting for the TTL. */
  async leave(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.kv?.delete(memberKey(this.self.id)).catch(() => {});
  }

  /** Stops heartbeating without deleting (as a crash would): the entry expires after the TTL. */
  stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function sameMembers(a: ReadonlyMap<string, MemberInfo>, b: ReadonlyMap<string, MemberInfo>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) { const w = b.get(k); if (!w || w.url !== v.url) return false; }
  return true;
}
