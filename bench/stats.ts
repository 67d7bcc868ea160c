// Sample statistics for benchmark figures: median with min–max, and formatting helpers.

export interface Figure {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function figure(samples: number[]): Figure {
  if (!samples.length) throw new Error('figure: no samples');
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]!, n: s.length };
}

/** `1.23 ms (1.10–1.52)` */
export function fmtMs(f: Figure): string {
  return `${num(f.median)} ms (${num(f.min)}–${num(f.max)})`;
}

export function num(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : a >= 1 ? x.toFixed(2) : a >= 0.01 ? x.toFixed(3) : x.toPrecision(2);
}

export function ratio(a: number, b: number): string {
  return b === 0 ? 'n/a' : num(a / b);
}

/** Runs `fn` `reps` times after `warm` untimed runs; returns per-run milliseconds. */
export async function timeRuns(fn: () => unknown | Promise<unknown>, reps: number, warm = 1): Promise<number[]> {
  for (let i = 0; i < warm; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export function progress(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}
