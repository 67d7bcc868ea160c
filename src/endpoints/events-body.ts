// Ingest bodies (SPEC §3 Ingest) into a list of events: `{"batch":[...]}`, a bare array, one event
// object, or NDJSON (blank lines skipped). Only the shape is checked here; the service checks events.

import { RingqlError } from '../core/errors.ts';
import { restoreExactEpochs } from '../store/exact-epochs.ts';

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines']);
const MAX_REPORTED_ERRORS = 100;

export function mediaType(contentType: string): string {
  return contentType.split(';', 1)[0]!.trim().toLowerCase();
}

/** Whether a body of this Content-Type is NDJSON (one event per line). */
export function isNdjsonType(contentType: string): boolean {
  return NDJSON_TYPES.has(mediaType(contentType));
}

export function parseEventsBody(body: Buffer, contentType: string): unknown[] {
  const text = stripBom(body.toString('utf8'));
  const events = NDJSON_TYPES.has(mediaType(contentType)) ? parseNdjson(text) : parseJsonEvents(text);
  if (events.length === 0) throw new RingqlError('invalid_events', 'The batch is empty: send at least one event', { errors: [] });
  return events;
}

function parseJsonEvents(text: string): unknown[] {
  if (text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RingqlError('invalid_events', `The body is not valid JSON (${(err as Error).message}); for one event per line send Content-Type: application/x-ndjson`, {
      errors: [],
    });
  }
  if (Array.isArray(value)) {
    restoreExactEpochs(value, text, false);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    if (Object.hasOwn(value, 'batch')) {
      const batch = (value as { batch: unknown }).batch;
      if (!Array.isArray(batch)) throw new RingqlError('invalid_events', '"batch" must be an array of events', { errors: [] });
      restoreExactEpochs(batch, text, false);
      return batch;
    }
    const one = [value];
    restoreExactEpochs(one, text, true);
    return one;
  }
  throw new RingqlError('invalid_events', 'The body must be {"batch":[...]}, an array of events, or one event object', { errors: [] });
}

function parseNdjson(text: string): unknown[] {
  const events: unknown[] = [];
  const errors: { index: number; line: number; message: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const index = events.length;
    try {
      const e: unknown = JSON.parse(line);
      events.push(e);
      if (typeof e === 'object' && e !== null && typeof (e as { timestamp?: unknown }).timestamp === 'number') restoreExactEpochs([e], line, true);
    } catch (err) {
      events.push(undefined);
      if (errors.length < MAX_REPORTED_ERRORS) errors.push({ index, line: i + 1, message: `not valid JSON: ${(err as Error).message}` });
    }
  }
  if (errors.length) {
    const first = errors[0]!;
    throw new RingqlError('invalid_events', `Event ${first.index} (line ${first.line}) is not valid JSON; nothing was stored`, { errors });
  }
  return events;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
