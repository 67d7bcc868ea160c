// Validates one ingested event and turns it into its stored form: timestamp (µs), project ref,
// the output row JSON of SPEC §2 (serialised once, here), the other top-level keys, hot values.

import { randomUUID } from 'node:crypto';
import { parseTimestamp, timestampJson } from '../core/time.ts';
import type { SourceDef } from './types.ts';
import { FieldLimitError } from './schema-node.ts';
import type { SchemaTree } from './schema-tree.ts';
import { InvalidValue, checkString, copyObject, recordCopy, setMember, type RecordLimits } from './record-json.ts';
import { hotValueAt, projectAt, type HotValue } from './hot-paths.ts';

export interface NormalizedEvent {
  ts: number;
  project: string | null;
  /** `{"id":..,"timestamp":<µs>,"event_message":..,"metadata":[..]|[]}` */
  json: string;
  /** Record-shaped JSON object of the other top-level keys, or null when there are none. */
  extra: string | null;
  /** Values at the store's hot paths, in their order (empty when there are none). */
  hot: HotValue[];
  /** Which forgettable schema paths the event uses (SchemaTree.endEvent; 0 without a schema). */
  shape: number;
}

export interface NormalizeOptions extends RecordLimits {
  /** Used when the event has no timestamp. */
  nowUs: number;
  /** Grown with the event's field paths; null skips schema collection. */
  schema: SchemaTree | null;
  hotPaths: readonly (readonly string[])[];
}

const MAX_ID_CHARS = 256;
const NO_HOT: HotValue[] = [];

function shortText(v: unknown): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > 80 ? s.slice(0, 77) + '...' : s;
}

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** The stored form of `raw`, or a reason (for a person) why it is not a valid event. */
export function normalizeEvent(raw: unknown, def: SourceDef, opts: NormalizeOptions): NormalizedEvent | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return `an event must be a JSON object, not ${kindOf(raw)}`;
  const o = raw as Record<string, unknown>;

  let id = o.id;
  if (id === undefined || id === null) id = randomUUID();
  else if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_CHARS) {
    return `id ${shortText(id)} must be a non-empty string of at most ${MAX_ID_CHARS} characters`;
  }

  const tsRaw = o.timestamp;
  let ts: number;
  if (tsRaw === undefined || tsRaw === null) ts = opts.nowUs;
  else {
    const p = parseTimestamp(tsRaw);
    if (p === null) return `timestamp ${shortText(tsRaw)} is not an ISO 8601 string or epoch number`;
    ts = p;
  }

  let msg = o.event_message;
  const messageStandsIn = msg === undefined && (typeof o.message === 'string' || o.message === null);
  if (messageStandsIn) msg = o.message;
  if (msg !== undefined && msg !== null && typeof msg !== 'string') {
    return `event_message must be a string or null, not ${kindOf(msg)}`;
  }

  const md = o.metadata;
  if (md !== undefined && md !== null && (typeof md !== 'object' || Array.isArray(md))) {
    return `metadata must be an object, not ${kindOf(md)}`;
  }

  const schema = opts.schema;
  let where = 'metadata';
  let metadata: unknown[];
  let extra: Record<string, unknown> | null = null;
  schema?.beginEvent();
  try {
    if (typeof msg === 'string') {
      where = messageStandsIn ? 'message' : 'event_message';
      checkString(msg, opts, 'the string');
    }
    where = 'metadata';
    metadata = md === undefined || md === null ? [] : [copyObject(md as Record<string, unknown>, 2, schema === null ? null : schema.metadataNode, schema, opts)];
    for (const k in o) {
      if (k === 'id' || k === 'timestamp' || k === 'event_message' || k === 'metadata' || (messageStandsIn && k === 'message')) continue;
      const v = o[k];
      if (v === undefined) continue;
      where = k;
      checkString(k, opts, 'the key');
      const node = schema === null ? null : schema.child(schema.root, k, v);
      schema?.noteTopLevel(k, node);
      setMember((extra ??= {}), k, recordCopy(v, 2, node, schema, opts));
    }
  } catch (e) {
    if (e instanceof InvalidValue || e instanceof FieldLimitError) return `${where}: ${e.message}`;
    throw e;
  }

  // One native stringify of a record-shaped copy: a flat string, no rope of small pieces.
  let json = JSON.stringify({ id, timestamp: ts, event_message: typeof msg === 'string' ? msg : null, metadata });
  // Past 2^53 µs, String(ts) is the shortest round-trip text, not the integer: write the exact one.
  // The first `"timestamp":` is ours (id before it is a JSON string, whose quotes are escaped).
  if (!Number.isSafeInteger(ts)) json = json.replace(`"timestamp":${String(ts)}`, `"timestamp":${timestampJson(ts)}`);
  const extraJson = extra === null ? null : JSON.stringify(extra);

  let hot = NO_HOT;
  if (opts.hotPaths.length > 0) {
    hot = new Array<HotValue>(opts.hotPaths.length);
    for (let i = 0; i < hot.length; i++) hot[i] = hotValueAt(o, opts.hotPaths[i]!);
  }
  return { ts, project: projectAt(o, def.projectPath), json, extra: extraJson, hot, shape: schema === null ? 0 : schema.endEvent() };
}
