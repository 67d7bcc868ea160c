// Cooperative slicing for main-thread upkeep (issue 18): long work calls `due()` between steps and
// awaits `pause()` once its slice is spent, so requests are served between slices.

/** Longest stretch (ms) upkeep keeps the event loop before yielding. */
export const UPKEEP_SLICE_MS = 1;

/** Resolves after the event loop has run its pending I/O (a setImmediate turn). */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Tracks one slice of work; `pauses` counts the yields taken (tests check that long work yielded). */
export class TimeSlicer {
  private start = performance.now();
  pauses = 0;
  constructor(private readonly sliceMs: number = UPKEEP_SLICE_MS) {}

  /** Whether the current slice is spent. */
  due(): boolean {
    return performance.now() - this.start >= this.sliceMs;
  }

  /** Yields to the event loop when the slice is spent, then starts a new slice. */
  async pause(): Promise<void> {
    if (!this.due()) return;
    this.pauses++;
    await yieldToLoop();
    this.start = performance.now();
  }
}
