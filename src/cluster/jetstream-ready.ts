// Connecting to JetStream when its servers may still be electing a meta leader (just started, or one
// of them just died): retry until the account info answers, within a deadline.

import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';

export interface JetStreamConnection {
  nc: NatsConnection;
  jsm: JetStreamManager;
}

/** Connects to `servers` and waits (up to `deadlineMs`) until JetStream answers. */
export async function connectJetStream(servers: string[], opts: { name?: string; deadlineMs?: number } = {}): Promise<JetStreamConnection> {
  const nc = await connect({ servers, name: opts.name, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  const until = Date.now() + (opts.deadlineMs ?? 30_000);
  for (;;) {
    try {
      const jsm = await jetstreamManager(nc, { timeout: 1000 });
      return { nc, jsm };
    } catch (err) {
      if (Date.now() > until) {
        await nc.close();
        throw new Error(`JetStream at ${servers.join(',')} did not answer within ${opts.deadlineMs ?? 30_000} ms: ${err instanceof Error ? err.message : String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
