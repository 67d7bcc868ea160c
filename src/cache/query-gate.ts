// Admission control for computed (uncached) queries, SPEC §11: at most N run at once (sliced, so they
// share the event loop); beyond that a request is refused at once with 503 overloaded and Retry-After.

import { RingqlError } from '../core/errors.ts';

export class QueryGate {
  private running = 0;
  private refused = 0;

  constructor(readonly max: number) {}

  /** A slot, or null when all are taken; release the slot exactly once. */
  tryEnter(): (() => void) | null {
    if (this.running >= this.max) return null;
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }

  /** A slot for a request: refused with 503 `overloaded` when none is free. */
  enter(): () => void {
    const release = this.tryEnter();
    if (release) return release;
    this.refused++;
    throw new RingqlError('overloaded', `The server is running ${this.max} queries already (RINGQL_MAX_CONCURRENT_QUERIES); retry shortly`, { retry_after: 1 });
  }

  stats(): { running: number; max: number; refused: number } {
    return { running: this.running, max: this.max, refused: this.refused };
  }
}
