// Saved endpoints in cluster mode (SPEC §13, issue 20 item 4): a JetStream key-value bucket holds every created
// endpoint under a key made from its lower-cased name, so KV create (refused when the key holds a value) keeps
// names unique across nodes and update-at-revision loses no concurrent change; every node watches the bucket.

import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import { RingqlError } from '../core/errors.ts';
import { applyInput, isUuid, type EndpointDef } from '../endpoints/definition.ts';
import type { EngineService } from '../endpoints/service.ts';
import type { EndpointInfo, EndpointInput } from '../endpoints/service-types.ts';

export const ENDPOINTS_BUCKET = 'ringql_endpoints';

/** The bucket key of an endpoint name: lower-cased (names are unique regardless of case), `.` and `_` escaped. */
export function endpointKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9-]/g, (c) => `_${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** KV's "the key is not at the revision you named" (create on a live key, update after another write). */
function isWrongSequence(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 10071 || code === 10164 || (err instanceof Error && /wrong last sequence/i.test(err.message));
}

function unavailable(err: unknown): RingqlError {
  return new RingqlError('storage_unavailable', `The cluster's endpoint bucket did not take the change (${err instanceof Error ? err.message : String(err)}); retry shortly`, { retry_after: 2 });
}

function nameTaken(name: string): RingqlError {
  return new RingqlError('name_taken', `An endpoint named ${name} exists already`, { name });
}

function encodeDef(def: EndpointDef): string {
  const { builtin: _b, ...rest } = def;
  return JSON.stringify(rest);
}

/** A bucket value back to a definition, checked as a stored file is (throws on junk). */
export function decodeDef(bytes: Uint8Array): EndpointDef {
  const raw = JSON.parse(Buffer.from(bytes).toString('utf8')) as EndpointDef;
  if (typeof raw.id !== 'string' || !isUuid(raw.id)) throw new Error('the entry has no UUID id');
  return applyInput(null, {
    name: raw.name, query: raw.query, description: raw.description, max_limit: raw.max_limit,
    cache_duration_seconds: raw.cache_duration_seconds, proactive_requerying_seconds: raw.proactive_requerying_seconds,
    sandboxable: raw.sandboxable, redact_pii: raw.redact_pii, params: raw.params,
  }, () => raw.id.toLowerCase());
}

type Change = Pick<KvEntry, 'key' | 'revision' | 'operation' | 'value'>;

export class EndpointBucket {
  /** Revision applied per key (a watch echo of this node's own write is skipped), and the id each key holds. */
  private readonly revs = new Map<string, number>();
  private readonly ids = new Map<string, string>();
  /**
   * The bucket's stream sequence this node's view is complete up to (every change at or below it applied).
   * An update is written only if the stream is still there: JetStream checks that against its proposals,
   * where nats-server 2.9's per-key check (KV update's revision) let two concurrent updates of one key
   * both through, losing one.
   */
  private appliedSeq = 0;
  private stopped = false;
  private iter: { stop(): void } | null = null;

  private constructor(private readonly kv: KV, private readonly js: JetStreamClient, private readonly local: EngineService,
    private readonly log: (line: string) => void) {}

  /** Opens (or creates) the bucket and serves what it holds: resolves once the entries present now are applied. */
  static async open(nc: NatsConnection, local: EngineService, o: { replicas: number; log: (line: string) => void; initialMs?: number }): Promise<EndpointBucket> {
    let kv: KV;
    try {
      kv = await new Kvm(nc).create(ENDPOINTS_BUCKET, { history: 1, replicas: o.replicas });
    } catch (err) {
      o.log(`ringql: cluster: JetStream cannot keep ${o.replicas} copies of the endpoint bucket (${err instanceof Error ? err.message : String(err)}); it gets 1 copy`);
      kv = await new Kvm(nc).create(ENDPOINTS_BUCKET, { history: 1, replicas: 1 });
    }
    const b = new EndpointBucket(kv, jetstream(nc), local, o.log);
    await b.watch(o.initialMs ?? 10_000);
    return b;
  }

  private async watch(initialMs: number): Promise<void> {
    const last = (await this.kv.status()).streamInfo.state.last_seq;
    const iter = await this.kv.watch();
    this.iter = iter;
    let loaded!: () => void;
    const initial = new Promise<void>((r) => { loaded = r; });
    if (last === 0) loaded();
    void (async () => {
      for await (const e of iter) {
        if (this.stopped) break;
        this.apply(e);
        if (e.revision > this.appliedSeq) this.appliedSeq = e.revision;
        if (e.revision >= last) loaded();
      }
    })().catch((err: unknown) => this.log(`ringql: cluster: the endpoint bucket watch ended: ${err instanceof Error ? err.message : String(err)}`));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => { timer = setTimeout(() => { this.log(`ringql: cluster: endpoints not all read from the bucket within ${initialMs} ms; serving what arrived`); r(); }, initialMs); });
    await Promise.race([initial, late]);
    clearTimeout(timer);
  }

  stop(): void {
    this.stopped = true;
    this.iter?.stop();
  }

  /** One bucket change, applied once (by revision): a PUT installs or replaces, a DEL removes what the key held. */
  private apply(e: Change): void {
    if (e.revision <= (this.revs.get(e.key) ?? 0)) return;
    this.revs.set(e.key, e.revision);
    if (e.operation === 'PUT') {
      let def: EndpointDef;
      try {
        def = decodeDef(e.value);
      } catch (err) {
        this.log(`ringql: cluster: endpoint bucket entry ${e.key} is not an endpoint (${err instanceof Error ? err.message : String(err)}); ignored`);
        return;
      }
      this.ids.set(e.key, def.id);
      const note = this.local.applyEndpoint(def);
      if (note) this.log(note);
      return;
    }
    const id = this.ids.get(e.key);
    this.ids.delete(e.key);
    // Only if that id still has this name here (a rename moved it to another key first).
    if (id !== undefined && this.heldUnder(id) === e.key) this.local.removeEndpoint(id);
  }

  private heldUnder(id: string): string | null {
    try {
      return endpointKey(this.local.resolve(id).def.name);
    } catch {
      return null;
    }
  }

  async create(input: EndpointInput): Promise<EndpointInfo> {
    const { def } = this.local.draftEndpoint(null, input);
    const key = endpointKey(def.name);
    let revision: number;
    try {
      revision = await this.kv.create(key, encodeDef(def));
    } catch (err) {
      throw isWrongSequence(err) ? nameTaken(def.name) : unavailable(err);
    }
    this.apply({ key, revision, operation: 'PUT', value: new TextEncoder().encode(encodeDef(def)) });
    return this.local.getEndpoint(def.id);
  }

  /** Applies `input` to the newest definition: on a concurrent change it waits for the watch to bring it, then tries again. */
  async update(idOrName: string, input: EndpointInput): Promise<EndpointInfo> {
    for (let attempt = 1; ; attempt++) {
      const { def, old } = this.local.draftEndpoint(idOrName, input);
      const oldKey = endpointKey(old!.name), key = endpointKey(def.name);
      const value = encodeDef(def);
      try {
        const revision = key === oldKey ? await this.putIfCurrent(key, value) : await this.rename(oldKey, key, def.name, value);
        this.apply({ key, revision, operation: 'PUT', value: new TextEncoder().encode(value) });
        return this.local.getEndpoint(def.id);
      } catch (err) {
        if (err instanceof RingqlError) throw err;
        if (!isWrongSequence(err) || attempt >= 5) throw unavailable(err);
        await this.catchUp();
      }
    }
  }

  /** Writes `value` under `key` only if nothing was written to the bucket since this node's view; its revision. */
  private async putIfCurrent(key: string, value: string): Promise<number> {
    const expected = this.appliedSeq;
    const ack = await this.js.publish(`$KV.${ENDPOINTS_BUCKET}.${key}`, value, { expect: { lastSequence: expected } });
    // Nothing came between: the view stays complete up to this write.
    if (ack.seq > this.appliedSeq) this.appliedSeq = ack.seq;
    return ack.seq;
  }

  /** Waits (up to 2 s) until the watch has applied every change the bucket holds now. */
  private async catchUp(): Promise<void> {
    const last = (await this.kv.status()).streamInfo.state.last_seq;
    const deadline = performance.now() + 2000;
    while (this.appliedSeq < last && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  /** A rename: the new name is created (409 when taken), then the old key deleted at the revision read (else undone). */
  private async rename(oldKey: string, key: string, name: string, value: string): Promise<number> {
    let revision: number;
    try {
      revision = await this.kv.create(key, value);
    } catch (err) {
      throw isWrongSequence(err) ? nameTaken(name) : unavailable(err);
    }
    try {
      await this.kv.delete(oldKey, { previousSeq: this.revs.get(oldKey) ?? 0 });
    } catch (err) {
      await this.kv.delete(key).catch(() => {});
      throw err;
    }
    this.ids.delete(oldKey);
    return revision;
  }

  async delete(idOrName: string): Promise<void> {
    const def = this.local.resolve(idOrName).def;
    if (def.builtin) throw new RingqlError('builtin_readonly', `${def.name} is built in and cannot be deleted`);
    const key = endpointKey(def.name);
    try {
      await this.kv.delete(key);
    } catch (err) {
      throw unavailable(err);
    }
    this.ids.delete(key);
    this.local.removeEndpoint(def.id);
  }
}
