// Seeded PRNG (xoshiro128**, seeded through splitmix32) and the small helpers the event
// generator draws from. Everything is derived from the seed, so a seed fixes the output byte for byte.

/** 256 two-digit lowercase hex strings, indexed by byte value. */
const HEX2: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const ALNUM_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // splitmix32 spreads any seed (even 0) over the four state words; the state must not be all zero.
    let s = (Math.trunc(seed) ^ 0x9e3779b9) >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** Next unsigned 32-bit integer. */
  u32(): number {
    const b = this.b;
    const t = b << 9;
    let r = Math.imul(b, 5);
    r = Math.imul((r << 7) | (r >>> 25), 9);
    this.c ^= this.a;
    this.d ^= b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = (this.d << 11) | (this.d >>> 21);
    return r >>> 0;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform float in (0, 1]: safe under log() and pow(x, 1/k). */
  floatOpen(): number {
    return (this.u32() + 1) / 4294967296;
  }

  /** Uniform integer in [0, n) for 0 < n ≤ 2^32. */
  below(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** `n` lowercase hex characters. */
  hex(n: number): string {
    let s = '';
    while (n >= 8) {
      const x = this.u32();
      s += HEX2[x >>> 24]! + HEX2[(x >>> 16) & 255]! + HEX2[(x >>> 8) & 255]! + HEX2[x & 255]!;
      n -= 8;
    }
    if (n > 0) {
      const x = this.u32();
      s += (HEX2[x >>> 24]! + HEX2[(x >>> 16) & 255]! + HEX2[(x >>> 8) & 255]! + HEX2[x & 255]!).slice(0, n);
    }
    return s;
  }

  /** A version-4-shaped UUID string built from the PRNG (not crypto-random, by design). */
  uuid(): string {
    const x = this.u32();
    const y = this.u32();
    const z = this.u32();
    const w = this.u32();
    return (
      HEX2[x >>> 24]! + HEX2[(x >>> 16) & 255]! + HEX2[(x >>> 8) & 255]! + HEX2[x & 255]! + '-' +
      HEX2[y >>> 24]! + HEX2[(y >>> 16) & 255]! + '-4' +
      HEX2[(y >>> 8) & 15]!.charAt(1) + HEX2[y & 255]! + '-' +
      HEX2[0x80 | ((z >>> 24) & 0x3f)]! + HEX2[(z >>> 16) & 255]! + '-' +
      HEX2[(z >>> 8) & 255]! + HEX2[z & 255]! +
      HEX2[w >>> 24]! + HEX2[(w >>> 16) & 255]! + HEX2[(w >>> 8) & 255]! + HEX2[w & 255]!
    );
  }

  /** `n` characters of [A-Z0-9]. */
  alnumUpper(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += ALNUM_UPPER.charAt(this.below(36));
    return s;
  }

  /** `n` characters of [a-z]. */
  lower(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += LOWER.charAt(this.below(26));
    return s;
  }

  /** Fisher–Yates shuffle of items[from, to) in place. */
  shuffle<T>(items: T[], from = 0, to = items.length): void {
    for (let i = to - 1; i > from; i--) {
      const j = from + this.below(i - from + 1);
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    }
  }

  /** Roughly log-normal positive value with the given median; sigma is the log-space spread. */
  logNormal(median: number, sigma: number): number {
    // Box–Muller, one branch only: cheap enough and deterministic.
    const g = Math.sqrt(-2 * Math.log(this.floatOpen())) * Math.cos(6.283185307179586 * this.float());
    return median * Math.exp(sigma * g);
  }
}

/** Picks items with fixed relative weights in O(log n) by binary search over cumulative sums. */
export class Weighted<T> {
  readonly items: readonly T[];
  private readonly cum: Float64Array;
  private readonly total: number;

  constructor(entries: readonly (readonly [T, number])[]) {
    if (entries.length === 0) throw new Error('Weighted needs at least one entry');
    this.items = entries.map((e) => e[0]);
    this.cum = new Float64Array(entries.length);
    let acc = 0;
    for (let i = 0; i < entries.length; i++) {
      acc += Math.max(0, entries[i]![1]);
      this.cum[i] = acc;
    }
    if (!(acc > 0)) throw new Error('Weighted needs a positive total weight');
    this.total = acc;
  }

  pick(rng: Rng): T {
    return this.items[this.index(rng)]!;
  }

  index(rng: Rng): number {
    const x = rng.float() * this.total;
    const cum = this.cum;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Builds a Weighted from an object literal { item: weight }. */
export function weightedKeys(weights: Record<string, number>): Weighted<string> {
  return new Weighted(Object.entries(weights));
}
