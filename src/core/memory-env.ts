// RINGQL_MAX_MEMORY (one memory budget for the process) and RINGQL_SOURCE_LIMITS (per-source
// retention and byte overrides): parsed and validated here; a bad value names the variable.

import { totalmem } from 'node:os';
import { ConfigError, type Env } from './config-parse.ts';

/** Share of the machine's memory the budget takes when RINGQL_MAX_MEMORY is unset. */
export const DEFAULT_MEMORY_SHARE = 0.5;

const SIZE_UNITS: Record<string, number> = { '': 1, B: 1, K: 2 ** 10, KB: 2 ** 10, KIB: 2 ** 10, M: 2 ** 20, MB: 2 ** 20, MIB: 2 ** 20, G: 2 ** 30, GB: 2 ** 30, GIB: 2 ** 30, T: 2 ** 40, TB: 2 ** 40, TIB: 2 ** 40 };
const DURATION_UNITS: Record<string, number> = { s: 1e6, m: 60e6, h: 3600e6, d: 86400e6 };

/** `512M`, `2G`, `1.5GiB`, `1048576` → bytes (binary units); null when malformed. */
export function parseByteSize(raw: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(raw);
  if (!m) return null;
  const unit = SIZE_UNITS[m[2]!.toUpperCase()];
  const v = unit === undefined ? NaN : Math.floor(Number(m[1]) * unit);
  return Number.isFinite(v) && v > 0 ? v : null;
}

/** `24h`, `90m`, `7d`, `30s` → microseconds; null when malformed. */
export function parseDurationUs(raw: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(raw);
  if (!m) return null;
  const v = Math.round(Number(m[1]) * DURATION_UNITS[m[2]!]!);
  return v > 0 ? v : null;
}

/** The process memory budget in bytes: RINGQL_MAX_MEMORY, else DEFAULT_MEMORY_SHARE of total memory. */
export function maxMemoryFromEnv(env: Env, machineBytes = totalmem()): number {
  const raw = env.RINGQL_MAX_MEMORY;
  if (raw === undefined || raw.trim() === '') return Math.floor(machineBytes * DEFAULT_MEMORY_SHARE);
  const v = parseByteSize(raw);
  if (v === null || v < 2 ** 20) {
    throw new ConfigError('RINGQL_MAX_MEMORY', raw, 'a size of at least 1M such as 512M, 2G or a byte count');
  }
  return v;
}

export interface SourceLimit {
  retentionUs?: number;
  maxBytes?: number;
}

/**
 * RINGQL_SOURCE_LIMITS: comma-separated `source=limit`, where a limit is a retention (`24h`), a size
 * (`256M`) or both as `24h/256M`. Source names are checked against the sources by the Store.
 */
export function sourceLimitsFromEnv(env: Env): Map<string, SourceLimit> {
  const raw = env.RINGQL_SOURCE_LIMITS;
  const out = new Map<string, SourceLimit>();
  if (raw === undefined || raw.trim() === '') return out;
  const bad = (why: string): Error => new ConfigError('RINGQL_SOURCE_LIMITS', raw, `name=24h/256M,name2=512M (a retention like 24h, 90m, 7d, a size like 256M, 2G, or both); ${why}`);
  for (const part of raw.split(',')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    if (eq < 0 || name === '') throw bad(`"${part.trim()}" has no source name`);
    if (out.has(name)) throw bad(`${name} is given twice`);
    const lim: SourceLimit = {};
    for (const item of part.slice(eq + 1).split('/')) {
      const d = parseDurationUs(item), b = d === null ? parseByteSize(item) : null;
      if (d !== null && lim.retentionUs === undefined) lim.retentionUs = d;
      else if (b !== null && lim.maxBytes === undefined) lim.maxBytes = b;
      else throw bad(`"${item.trim()}" for ${name} is neither one retention nor one size`);
    }
    out.set(name, lim);
  }
  return out;
}

/**
 * Bounds of the V8 old-space limit `npm start` derives from RINGQL_MAX_MEMORY (half of it), in MiB. With
 * 256 the server died mid-run under the 512M cap bench (connection reset; its output was not kept then;
 * main-thread heap spikes to ~130 MiB over a ~35 MiB live heap were seen), so the limit stays generous.
 */
export const HEAP_MB_MIN = 1024;
export const HEAP_MB_MAX = 8192;

/**
 * The main thread's V8 heap limit in MiB for `npm start` (`--max-old-space-size`): RINGQL_HEAP_MB when
 * set (64 to 1048576), else half of RINGQL_MAX_MEMORY within [HEAP_MB_MIN, HEAP_MB_MAX], so the
 * heap cannot grow far past what the budget leaves it (issue 15).
 */
export function heapLimitMbFromEnv(env: Env, machineBytes = totalmem()): number {
  const raw = env.RINGQL_HEAP_MB;
  if (raw !== undefined && raw.trim() !== '') {
    const v = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || v < 64 || v > 1048576) throw new ConfigError('RINGQL_HEAP_MB', raw, 'a whole number of MiB from 64 to 1048576');
    return v;
  }
  const half = Math.floor(maxMemoryFromEnv(env, machineBytes) / 2 / 2 ** 20);
  return Math.min(HEAP_MB_MAX, Math.max(HEAP_MB_MIN, half));
}
