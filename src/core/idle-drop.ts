// A drop on idle: what is kept only for sustained work (spare buffers, buffers waiting to go back to a
// thread) goes once SPARE_IDLE_MS pass with no use.

/** With no use for this long, what is kept for sustained work goes. */
export const SPARE_IDLE_MS = 1000;

/**
 * Calls `drop` once SPARE_IDLE_MS pass with no use() since arm() (checked again, while `pending()`, for
 * as long as uses go on): what is kept only for sustained work goes when the work stops.
 */
export class IdleDrop {
  private uses = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly drop: () => void, private readonly pending: () => boolean) {}

  use(): void {
    this.uses++;
  }

  /** Forgets a pending check (what it would drop is dropped by the caller, or kept on purpose). */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  arm(): void {
    if (this.timer !== null) return;
    const uses = this.uses;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.uses === uses) this.drop();
      else if (this.pending()) this.arm();
    }, SPARE_IDLE_MS);
    this.timer.unref();
  }
}
