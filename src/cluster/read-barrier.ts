// Read-your-writes for a partition (SPEC §13): before the owner answers a query it learns the stream's
// last sequence, asked after the query arrived, so every event acknowledged before the query was sent is
// at or below it; queries arriving while an ask is in flight share the next ask, not the running one.

/** Asks for a partition's last stream sequence; concurrent callers share asks started after they arrived. */
export class LastSeqAsker {
  private running: Promise<number> | null = null;
  private next: Promise<number> | null = null;

  constructor(private readonly ask: () => Promise<number>) {}

  /** A last sequence read by an ask that started after this call. */
  lastSeq(): Promise<number> {
    if (!this.running) return this.start();
    if (!this.next) {
      this.next = this.running.catch(() => 0).then(() => { this.next = null; return this.start(); });
    }
    return this.next;
  }

  private start(): Promise<number> {
    const p = this.ask();
    this.running = p;
    const clear = (): void => { if (this.running === p) this.running = null; };
    p.then(clear, clear);
    return p;
  }
}
