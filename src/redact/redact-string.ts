// Redaction of one string value: every IPv4/IPv6 address becomes the literal REDACTED (SPEC §6).

import { IP_ADDRESS, MAY_HOLD_ADDRESS } from './ip-pattern.ts';

export const REDACTED = 'REDACTED';

export function redactString(s: string): string {
  if (!MAY_HOLD_ADDRESS.test(s)) return s;
  IP_ADDRESS.lastIndex = 0;
  return s.replace(IP_ADDRESS, REDACTED);
}

/** Redacts every string inside a JSON-like value (nested objects and arrays); keys, numbers and booleans stay. */
export function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactString(v);
  if (Array.isArray(v)) return v.map(redactValue);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = redactValue(x);
    return out;
  }
  return v;
}
