// Exact epoch timestamps from ingest text: JSON.parse turns a 17-19 digit ns (or a large 16-digit µs)
// `timestamp` into a rounded double, so for events whose parsed timestamp is past 2^53 the digits are
// read again from the raw text and handed to the store as EpochDigits (parsed exactly, core/time.ts).

import { EpochDigits } from '../core/time.ts';

type Role = 'root' | 'events' | 'batch' | 'event' | 'other';

interface Frame {
  arr: boolean;
  role: Role;
  /** Elements before the current one (arrays). */
  commas: number;
  /** Objects: the last key read, and whether a key comes next. */
  key: string | null;
  expectKey: boolean;
  /** Index of the event this object is ('event' frames). */
  index: number;
}

/** Where each event's last top-level `timestamp` integer token is in `text`, by event index. */
export interface EpochTokens {
  /** The root object's own timestamp (a single-event body). */
  root: string | null | undefined;
  /** Elements of a root array, or of the root object's `batch` array. */
  elements: Map<number, string | null>;
  fromBatch: boolean;
}

const INT = /\s*(-?\d+)(?![\d.eE])/y;

/** Scans `text` (valid JSON: it parsed) for event-level `timestamp` integer tokens; null if unreadable. */
export function scanEpochTokens(text: string): EpochTokens {
  const out: EpochTokens = { root: undefined, elements: new Map(), fromBatch: false };
  const stack: Frame[] = [];
  const n = text.length;
  let p = 0;
  while (p < n) {
    const c = text.charCodeAt(p);
    const top = stack.length > 0 ? stack[stack.length - 1]! : null;
    if (c === 34) {
      let q = p + 1;
      for (;;) {
        q = text.indexOf('"', q);
        if (q < 0) return out;
        let b = q - 1, bs = 0;
        while (text.charCodeAt(b) === 92) { bs++; b--; }
        if ((bs & 1) === 0) break;
        q++;
      }
      if (top !== null && !top.arr && top.expectKey) {
        top.key = q - p - 1 === 9 || q - p - 1 === 5 ? text.slice(p + 1, q) : '';
        top.expectKey = false;
      }
      p = q + 1;
      continue;
    }
    if (c === 123 || c === 91) {
      const arr = c === 91;
      let role: Role = 'other';
      let index = -1;
      if (top === null) role = arr ? 'events' : 'root';
      else if (top.arr && !arr && (top.role === 'events' || top.role === 'batch')) { role = 'event'; index = top.commas; }
      else if (!top.arr && arr && top.role === 'root' && top.key === 'batch') role = 'batch';
      if (top !== null && top.role === 'batch' && role === 'event') out.fromBatch = true;
      stack.push({ arr, role, commas: 0, key: null, expectKey: !arr, index });
      p++;
      continue;
    }
    if (c === 125 || c === 93) { stack.pop(); p++; continue; }
    if (top !== null) {
      if (c === 44) {
        if (top.arr) top.commas++;
        else top.expectKey = true;
      } else if (c === 58 && top.key === 'timestamp' && (top.role === 'event' || top.role === 'root')) {
        INT.lastIndex = p + 1;
        const m = INT.exec(text);
        const digits = m === null ? null : m[1]!;
        if (top.role === 'root') out.root = digits;
        else out.elements.set(top.index, digits);
      }
    }
    p++;
  }
  return out;
}

function inexact(e: unknown): boolean {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  const t = (e as { timestamp?: unknown }).timestamp;
  return typeof t === 'number' && !Number.isSafeInteger(t) && Number.isInteger(t);
}

function exactify(e: unknown, digits: string | null | undefined): void {
  if (digits === null || digits === undefined || !inexact(e)) return;
  if (Number(digits) !== (e as { timestamp: number }).timestamp) return;
  (e as { timestamp: unknown }).timestamp = new EpochDigits(digits);
}

/**
 * Replaces, in place, each event's integer `timestamp` that a double cannot hold exactly by its
 * digits from `text`, the JSON the events were parsed from (`single`: text is that one event).
 */
export function restoreExactEpochs(events: unknown[], text: string, single: boolean): void {
  let any = false;
  for (const e of events) if (inexact(e)) { any = true; break; }
  if (!any) return;
  const tok = scanEpochTokens(text);
  if (single) { exactify(events[0], tok.root); return; }
  if (tok.elements.size === 0) { if (events.length === 1) exactify(events[0], tok.root); return; }
  for (const [i, digits] of tok.elements) exactify(events[i], digits);
}
