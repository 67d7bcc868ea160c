// The kill test's record: per project, the events sent and those acknowledged (the publisher's log),
// batches whose fate is unknown (the request failed: stored whole or not at all), the disruptions, and
// every violation the loops saw.

export interface UncertainBatch {
  project: string;
  /** Every event id of the batch's share for this project starts with this. */
  prefix: string;
  events: number;
}

export class KillLedger {
  readonly sent = new Map<string, number>();
  readonly acked = new Map<string, number>();
  readonly uncertain: UncertainBatch[] = [];
  /** Times (ms since epoch) of each kill and restart, with what happened. */
  readonly disruptions: { at: number; what: string }[] = [];
  readonly violations: string[] = [];
  readonly figures = { batches: 0, ackedEvents: 0, failedBatches: 0, queries: 0, ok: 0, unavailable: 0, forwardedChecks: 0 };
  /** Every 503: when it was sent, where, and the start of its message. */
  readonly unavailable: { at: number; node: string; project: string; message: string }[] = [];

  constructor(readonly projects: readonly string[]) {
    for (const p of projects) { this.sent.set(p, 0); this.acked.set(p, 0); }
  }

  add(map: Map<string, number>, project: string, n: number): void {
    map.set(project, (map.get(project) ?? 0) + n);
  }

  disrupt(what: string): void {
    this.disruptions.push({ at: Date.now(), what });
  }

  /** Milliseconds since the latest disruption at or before `t` (Infinity when there was none). */
  sinceDisruption(t: number): number {
    let best = Infinity;
    for (const d of this.disruptions) if (d.at <= t) best = Math.min(best, t - d.at);
    return best;
  }

  /** Every violation seen (the list keeps the first 200). */
  violationCount = 0;

  /** Per disruption: how long after it the last 503 was sent before the next one (ms; 0: none), and how many. */
  recovery(): { what: string; last503Ms: number; count: number }[] {
    return this.disruptions.map((d, i) => {
      const next = this.disruptions[i + 1]?.at ?? Infinity;
      const within = this.unavailable.filter((u) => u.at >= d.at && u.at < next);
      return { what: d.what, last503Ms: within.reduce((m, u) => Math.max(m, u.at - d.at), 0), count: within.length };
    });
  }

  violate(text: string): void {
    this.violationCount++;
    if (this.violations.length < 200) this.violations.push(text);
  }
}
