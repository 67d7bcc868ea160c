// `ringql gen`: writes synthetic NDJSON logs, one file per source, for demos and benchmarks;
// progress and a summary on stderr; exit 0 on success, 1 on a write failure, 2 on a usage error.

import { writeNdjson } from '../gen/write-ndjson.ts';
import { parseArgs, UsageError } from './args.ts';

export const GEN_USAGE = 'usage: ringql gen --out <dir> [--events N] [--projects N] [--days N] [--seed S] [--end <ISO>]';

export interface GenIo {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Whether stderr is a terminal (progress then updates one line with \r). */
  isTTY: boolean;
}

const stdio: GenIo = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: process.stderr.isTTY === true,
};

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** ISO 8601 date or date-time (no zone = UTC) to µs since epoch, or null. */
export function parseEndTime(text: string): number | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? zone.slice(0, 3) + ':' + zone.slice(3) : zone}`);
  if (Number.isNaN(ms)) return null;
  // Date.parse keeps milliseconds only; the fraction is added back at µs precision.
  return ms * 1000 + Math.floor(Number((frac + '000000').slice(0, 6)));
}

function intFlag(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.replace(/_/g, ''))) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${value}"`);
  return n;
}

interface GenArgs {
  out: string;
  events: number;
  projects: number;
  days: number;
  seed: number;
  endUs: number;
}

function readArgs(argv: string[]): GenArgs | 'help' {
  const args = parseArgs(argv, {
    out: { value: true }, events: { value: true }, projects: { value: true }, days: { value: true },
    seed: { value: true }, end: { value: true }, help: { value: false },
  });
  if (args.has('help')) return 'help';
  const one = (k: string): string | undefined => args.get(k)?.[0];
  const out = one('out');
  if (out === undefined || out === '') throw new UsageError('--out <dir> is required');
  const daysText = one('days');
  const days = daysText === undefined ? 7 : Number(daysText);
  if (daysText !== undefined && (daysText.trim() === '' || !Number.isFinite(days) || days <= 0)) {
    throw new UsageError(`--days must be a positive number, got "${daysText}"`);
  }
  const seedText = one('seed');
  if (seedText !== undefined && !/^-?\d+$/.test(seedText)) throw new UsageError(`--seed must be an integer, got "${seedText}"`);
  const seed = seedText === undefined ? 1 : Number(seedText);
  if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed must be a safe integer, got "${seedText}"`);
  const endText = one('end');
  let endUs = Date.now() * 1000;
  if (endText !== undefined) {
    const t = parseEndTime(endText);
    if (t === null) throw new UsageError(`--end "${endText}" is not an ISO 8601 timestamp`);
    endUs = t;
  }
  return {
    out,
    events: intFlag('events', one('events'), 100_000, 0),
    projects: intFlag('projects', one('projects'), 10, 1),
    days,
    seed,
    endUs,
  };
}

export async function genCommand(argv: string[], io: GenIo = stdio): Promise<number> {
  let args: GenArgs | 'help';
  try {
    args = readArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) { io.err(`${err.message}\n${GEN_USAGE}\n`); return 2; }
    throw err;
  }
  if (args === 'help') { io.out(GEN_USAGE + '\n'); return 0; }

  const started = performance.now();
  let nextTenth = 1;
  const onProgress = (done: number, total: number): void => {
    if (total === 0) return;
    const pct = Math.floor((done / total) * 100);
    if (io.isTTY) io.err(`\rgenerating: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} events (${pct}%)`);
    else {
      while (nextTenth <= 10 && done >= (total * nextTenth) / 10) {
        io.err(`generating: ${done} / ${total} events (${nextTenth * 10}%)\n`);
        nextTenth++;
      }
    }
  };
  try {
    const { files } = await writeNdjson({
      out: args.out, events: args.events, projects: args.projects, days: args.days, seed: args.seed, endUs: args.endUs, onProgress,
    });
    const seconds = (performance.now() - started) / 1000;
    const bytes = files.reduce((a, f) => a + f.bytes, 0);
    const events = files.reduce((a, f) => a + f.events, 0);
    if (io.isTTY) io.err('\n');
    for (const f of files) io.err(`  ${f.path}  ${f.events} events  ${(f.bytes / 1e6).toFixed(1)} MB\n`);
    io.err(
      `wrote ${files.length} files, ${events} events, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s` +
      ` (${Math.round(events / Math.max(seconds, 1e-6)).toLocaleString('en-US')} events/s)\n`,
    );
    return 0;
  } catch (err) {
    if (io.isTTY) io.err('\n');
    io.err(`ringql gen: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
