// The output format an `Accept` header picks (SPEC §3 "Output formats"), q-values honoured simply:
// per format the most specific matching range gives its q (0 excludes it); the highest q wins, then
// the more specific match, then json, ndjson, csv in that order. Absent or empty: json.

import type { OutputFormat } from '../endpoints/service-types.ts';

const MEDIA: readonly [OutputFormat, string, string][] = [
  ['json', 'application', 'json'],
  ['ndjson', 'application', 'x-ndjson'],
  ['csv', 'text', 'csv'],
];

interface Range { type: string; sub: string; q: number }

function parseRanges(accept: string): Range[] {
  const out: Range[] = [];
  for (const part of accept.split(',')) {
    const [media, ...params] = part.split(';');
    const [type, sub] = media!.trim().toLowerCase().split('/');
    if (!type || sub === undefined) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=');
      if (k?.trim().toLowerCase() !== 'q' || v === undefined) continue;
      const n = Number(v.trim());
      if (Number.isFinite(n)) q = Math.min(1, Math.max(0, n));
    }
    out.push({ type, sub: sub.trim(), q });
  }
  return out;
}

/** The format to answer in; null when the header allows none of them (406). */
export function acceptedFormat(accept: string): OutputFormat | null {
  if (accept.trim() === '') return 'json';
  const ranges = parseRanges(accept);
  if (ranges.length === 0) return 'json';
  let best: OutputFormat | null = null;
  let bestQ = 0, bestSpec = 0;
  for (const [format, type, sub] of MEDIA) {
    let q = -1, spec = 0;
    for (const r of ranges) {
      const s = r.type === type && r.sub === sub ? 3 : r.type === type && r.sub === '*' ? 2 : r.type === '*' && r.sub === '*' ? 1 : 0;
      if (s > spec) { spec = s; q = r.q; }
    }
    if (spec === 0 || q <= 0) continue;
    if (q > bestQ || (q === bestQ && spec > bestSpec)) { best = format; bestQ = q; bestSpec = spec; }
  }
  return best;
}
