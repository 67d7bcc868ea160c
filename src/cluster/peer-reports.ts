// Asking every member for its NodeReport over NATS request/reply (each node answers on its own subject), with a
// deadline: a member that does not answer in time comes back with a null report, so callers show it as such.

import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { memberKey, type MemberInfo } from './membership.ts';
import { askedMembers, type NodeAnswer, type NodeReport } from './node-report.ts';

export function reportSubject(nodeId: string): string {
  return `ringql.report.${memberKey(nodeId)}`;
}

export class PeerReports {
  private sub: Subscription | null = null;

  constructor(private readonly nc: NatsConnection, private readonly self: MemberInfo, private readonly members: () => ReadonlyMap<string, MemberInfo>,
    private readonly own: () => NodeReport, private readonly timeoutMs = 1000) {}

  /** Answers other nodes' requests for this node's report. */
  serve(): void {
    this.sub = this.nc.subscribe(reportSubject(this.self.id), {
      callback: (err, msg) => { if (!err) msg.respond(JSON.stringify(this.own())); },
    });
  }

  /** Every member's answer (this node's own without a round trip), within the deadline. */
  gather(): Promise<NodeAnswer[]> {
    return Promise.all(askedMembers(this.members(), this.self).map(async (m): Promise<NodeAnswer> => {
      if (m.id === this.self.id) return { id: m.id, url: m.url, report: this.own() };
      try {
        const msg = await this.nc.request(reportSubject(m.id), '', { timeout: this.timeoutMs });
        return { id: m.id, url: m.url, report: msg.json<NodeReport>() };
      } catch {
        return { id: m.id, url: m.url, report: null };
      }
    }));
  }

  stop(): void {
    this.sub?.unsubscribe();
  }
}
