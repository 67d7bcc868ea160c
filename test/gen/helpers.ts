// Shared helpers for the generator tests: a fixed end time, a µs timestamp parser that accepts
// every form the generator emits, and a small nested-path reader.

export const END_US = Date.UTC(2025, 0, 15, 12, 0, 0) * 1000;
export const DAY_US = 86_400_000_000;

/** Parses an ISO 8601 string (Z or ±hh:mm, up to 9 fraction digits) or an epoch-µs number to µs. */
export function toMicros(ts: unknown): number {
  if (typeof ts === 'number') return ts;
  if (typeof ts !== 'string') return Number.NaN;
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(ts);
  if (!m) return Number.NaN;
  const ms = Date.parse(m[1] + (m[3] === 'Z' ? 'Z' : m[3]));
  return ms * 1000 + Number(((m[2] ?? '') + '000000').slice(0, 6));
}

export function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
