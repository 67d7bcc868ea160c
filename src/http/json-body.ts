// JSON object bodies of the run and management routes: parsed with errors a client can act on.

import { RingqlError } from '../core/errors.ts';

/** Parses a body that must be a JSON object; an empty body is `null` (the caller decides). */
export function parseJsonObject(body: Buffer, what: string): Record<string, unknown> | null {
  const text = body.toString('utf8');
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RingqlError('invalid_parameter', `The ${what} is not valid JSON: ${(err as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RingqlError('invalid_parameter', `The ${what} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}
