// Event times in ascending order over [start, end]: a per-minute traffic intensity (daily cycle
// peaking in the UTC afternoon, quieter weekends, hourly noise, rare bursts) sampled exactly n times
// by streaming sorted uniforms through its inverse CDF — O(1) memory per event, no sort.

import { Rng } from './random.ts';

const BIN_US = 60_000_000;
const DAY_US = 86_400_000_000;

export class Timeline {
  private readonly startUs: number;
  private readonly endUs: number;
  /** cum[i] = normalised intensity mass of bins [0, i); cum[bins] = 1. */
  private readonly cum: Float64Array;
  private readonly bins: number;
  private bin = 0;
  /** Descending running maximum of the uniforms still to be drawn (see next()). */
  private top = 1;
  private remaining: number;

  constructor(rng: Rng, startUs: number, endUs: number, n: number) {
    this.startUs = startUs;
    this.endUs = endUs;
    this.remaining = n;
    const span = Math.max(0, endUs - startUs);
    this.bins = Math.max(1, Math.ceil(span / BIN_US));
    this.cum = new Float64Array(this.bins + 1);
    let hourNoise = 1;
    let burst = 1;
    let acc = 0;
    for (let i = 0; i < this.bins; i++) {
      const t = startUs + i * BIN_US;
      if (i % 60 === 0) hourNoise = 0.8 + 0.4 * rng.float();
      if (i % 5 === 0) burst = rng.chance(0.004) ? 2 + 3 * rng.float() : 1;
      const hour = ((t % DAY_US) + DAY_US) % DAY_US / 3_600_000_000;
      // Trough near 04:00 UTC, peak near 16:00 UTC (Europe afternoon + US morning).
      const daily = 0.3 + 0.7 * (0.5 - 0.5 * Math.cos((2 * Math.PI * (hour - 4)) / 24));
      const weekday = new Date(Math.floor(t / 1000)).getUTCDay();
      const week = weekday === 0 || weekday === 6 ? 0.75 : 1;
      const width = Math.min(BIN_US, span - i * BIN_US) / BIN_US;
      acc += daily * week * hourNoise * burst * Math.max(width, span === 0 ? 1 : 0);
      this.cum[i + 1] = acc;
    }
    for (let i = 1; i <= this.bins; i++) this.cum[i] = this.cum[i]! / acc;
  }

  /** The next time in µs, never less than the previous one; call at most n times. */
  next(rng: Rng): number {
    // The maximum of k uniforms is U^(1/k): walking k = n..1 gives sorted uniforms descending,
    // so 1 - top runs ascending.
    const k = this.remaining > 0 ? this.remaining-- : 1;
    this.top *= Math.pow(rng.floatOpen(), 1 / k);
    const u = 1 - this.top;
    const cum = this.cum;
    while (this.bin < this.bins - 1 && cum[this.bin + 1]! <= u) this.bin++;
    const lo = cum[this.bin]!;
    const mass = cum[this.bin + 1]! - lo;
    const frac = mass > 0 ? (u - lo) / mass : 0;
    // The last bin may be shorter than a minute.
    const binStart = this.bin * BIN_US;
    const width = Math.min(BIN_US, this.endUs - this.startUs - binStart);
    const t = Math.floor(this.startUs + binStart + frac * width);
    return t < this.startUs ? this.startUs : t > this.endUs ? this.endUs : t;
  }
}
