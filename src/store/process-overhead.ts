// What the process holds outside the store's counted bytes (V8 heaps, the transform thread, code,
// allocator slack, socket buffers): RSS − counted, sampled cheaply and smoothed, so RINGQL_MAX_MEMORY
// can hold the store to budget − overhead and bound the whole process (issue 15).

/** Samples at most this often (process.memoryUsage.rss() reads /proc; enforcement runs after every ingest). */
export const OVERHEAD_SAMPLE_MS = 500;
/** Weight of a new sample: the estimate moves a quarter of the way per sample, up or down (no oscillation). */
export const OVERHEAD_SMOOTHING = 0.25;
/**
 * The store keeps at least this share of the budget, however large the overhead (a quarter: at 512M the
 * server's overhead under endless ingest measured ~390 MiB, and a floor of half held RSS ~100 MiB over).
 */
export const STORE_FLOOR_SHARE = 0.25;

export interface OverheadSource {
  /** The process's resident set in bytes. */
  rss(): number;
  /** Monotonic milliseconds. */
  now(): number;
}

const PROCESS: OverheadSource = { rss: () => process.memoryUsage.rss(), now: () => performance.now() };

export class ProcessOverhead {
  private estimate = -1;
  private sampledAt = -Infinity;
  private lastRss = 0;
  private warned = false;

  constructor(private readonly budget: number, private readonly log: (line: string) => void, private readonly src: OverheadSource = PROCESS) {}

  /** Samples (when due) with `counted` the store's bytes now; returns the smoothed overhead in bytes. */
  sample(counted: number): number {
    const t = this.src.now();
    if (this.estimate >= 0 && t - this.sampledAt < OVERHEAD_SAMPLE_MS) return this.estimate;
    this.sampledAt = t;
    this.lastRss = this.src.rss();
    const raw = Math.max(0, this.lastRss - counted);
    this.estimate = this.estimate < 0 ? raw : this.estimate + (raw - this.estimate) * OVERHEAD_SMOOTHING;
    this.warnOnce();
    return this.estimate;
  }

  /** What the store may hold: budget − overhead, never below STORE_FLOOR_SHARE of the budget. */
  storeTarget(): number {
    const floor = Math.floor(this.budget * STORE_FLOOR_SHARE);
    return Math.max(floor, Math.floor(this.budget - Math.max(0, this.estimate)));
  }

  /** The last RSS sampled and the smoothed overhead (0 before the first sample). */
  figures(): { rss: number; overhead: number } {
    return { rss: this.lastRss, overhead: Math.max(0, Math.round(this.estimate)) };
  }

  private warnOnce(): void {
    const floor = this.budget * STORE_FLOOR_SHARE;
    if (this.warned || this.budget - this.estimate >= floor) return;
    this.warned = true;
    this.log(`ringql: WARNING: the process holds ${(this.estimate / 2 ** 20).toFixed(0)} MiB outside the store (V8 heap, threads, allocator), ` +
      `more than ${Math.round((1 - STORE_FLOOR_SHARE) * 100)}% of RINGQL_MAX_MEMORY (${(this.budget / 2 ** 20).toFixed(0)} MiB); the store keeps ${(floor / 2 ** 20).toFixed(0)} MiB, so the process RSS will exceed the budget. Raise RINGQL_MAX_MEMORY`);
  }
}
