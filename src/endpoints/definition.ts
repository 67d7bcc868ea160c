// An endpoint's stored definition and the validation of management input (SPEC §3 "Manage
// endpoints"): names, settings ranges and defaults, parameter rules. No SQL here (see prepare.ts).

import { RingqlError } from '../core/errors.ts';
import type { EndpointInput, EndpointSettings, ParamRule } from './service-types.ts';

export interface EndpointDef extends EndpointSettings {
  id: string;
  name: string;
  description: string;
  query: string;
  /** Declared rules (the full param list is derived from the query). */
  params: ParamRule[];
  builtin: boolean;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NAME_RE = /^[A-Za-z0-9._-]{1,128}$/;
export const RESERVED_PARAMS = new Set(['sql', 'lql', 'api_key']);
export const MAX_QUERY_CHARS = 100_000;

export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

function bad(param: string, message: string): never {
  throw new RingqlError('invalid_parameter', message, { param });
}

export function validateName(v: unknown): string {
  if (typeof v !== 'string' || !NAME_RE.test(v)) bad('name', 'name must be 1–128 characters of letters, digits, ".", "_" and "-"');
  if (isUuid(v)) bad('name', 'name must not look like a UUID (UUIDs address endpoints by id)');
  // URL clients normalise `.` and `..` path segments away, so such a name could never be called.
  if (/^\.+$/.test(v)) bad('name', 'name must not be made only of dots (clients drop "." and ".." from URLs)');
  return v;
}

function int(field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) bad(field, `${field} must be an integer from ${min} to ${max}`);
  return v;
}

function bool(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') bad(field, `${field} must be true or false`);
  return v;
}

function rules(v: unknown): ParamRule[] {
  if (!Array.isArray(v)) bad('params', 'params must be an array of {"name", "required"?, "allowed"?, "type"?}');
  const seen = new Set<string>();
  return v.map((r, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) bad('params', `params[${i}] must be an object`);
    const o = r as Record<string, unknown>;
    if (typeof o.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(o.name)) bad('params', `params[${i}].name must be a parameter name`);
    if (RESERVED_PARAMS.has(o.name.toLowerCase())) bad('params', `params[${i}].name "${o.name}" is reserved (sql, lql and api_key are)`);
    if (seen.has(o.name.toLowerCase())) bad('params', `params[${i}].name "${o.name}" is declared twice`);
    seen.add(o.name.toLowerCase());
    const rule: ParamRule = { name: o.name };
    if (o.required !== undefined) rule.required = bool(`params[${i}].required`, o.required);
    if (o.allowed !== undefined) {
      if (!Array.isArray(o.allowed) || !o.allowed.length || !o.allowed.every((x) => typeof x === 'string')) bad('params', `params[${i}].allowed must be a non-empty array of strings`);
      rule.allowed = o.allowed as string[];
    }
    if (o.type !== undefined) {
      if (o.type !== 'string' && o.type !== 'timestamp' && o.type !== 'regex') bad('params', `params[${i}].type must be "string", "timestamp" or "regex"`);
      rule.type = o.type;
    }
    for (const k of Object.keys(o)) if (!['name', 'required', 'allowed', 'type'].includes(k)) bad('params', `params[${i}] has an unknown field "${k}"`);
    return rule;
  });
}

const FIELDS = new Set(['name', 'query', 'description', 'max_limit', 'cache_duration_seconds', 'proactive_requerying_seconds', 'sandboxable', 'redact_pii', 'params', 'id', 'token', 'builtin']);

/**
 * Applies create/update input over `base` (defaults for a create) and returns the new definition.
 * Unknown fields and wrong types are 400s naming the field; `id`, `token` and `builtin` are ignored.
 */
export function applyInput(base: EndpointDef | null, input: EndpointInput, newId: () => string): EndpointDef {
  if (!input || typeof input !== 'object' || Array.isArray(input)) bad('body', 'The body must be a JSON object');
  for (const k of Object.keys(input)) if (!FIELDS.has(k)) bad(k, `Unknown field "${k}"; allowed: ${[...FIELDS].filter((f) => f !== 'token' && f !== 'id' && f !== 'builtin').join(', ')}`);
  const d: EndpointDef = base
    ? { ...base, params: [...base.params] }
    : {
        id: newId(), name: '', description: '', query: '', params: [], builtin: false,
        max_limit: 1000, cache_duration_seconds: 3600, proactive_requerying_seconds: -1, sandboxable: false, redact_pii: false,
      };
  if (!base && input.name === undefined) bad('name', 'name is required');
  if (!base && input.query === undefined) bad('query', 'query is required');
  if (input.name !== undefined) d.name = validateName(input.name);
  if (input.query !== undefined) {
    if (typeof input.query !== 'string' || !input.query.trim()) bad('query', 'query must be a non-empty SQL string');
    if (input.query.length > MAX_QUERY_CHARS) bad('query', `query is longer than ${MAX_QUERY_CHARS} characters`);
    d.query = input.query;
  }
  if (input.description !== undefined) {
    if (typeof input.description !== 'string' || input.description.length > 10_000) bad('description', 'description must be a string of at most 10000 characters');
    d.description = input.description;
  }
  if (input.max_limit !== undefined) d.max_limit = int('max_limit', input.max_limit, 1, 10_000);
  const cacheGiven = input.cache_duration_seconds !== undefined;
  if (cacheGiven) d.cache_duration_seconds = int('cache_duration_seconds', input.cache_duration_seconds, 0, 31 * 86_400);
  if (input.proactive_requerying_seconds !== undefined) {
    d.proactive_requerying_seconds = int('proactive_requerying_seconds', input.proactive_requerying_seconds, 0, 31 * 86_400);
  } else if (!base || cacheGiven) {
    // default: half the cache duration (SPEC §3), recomputed when the cache duration changes
    if (!base || base.proactive_requerying_seconds === Math.floor(base.cache_duration_seconds / 2) || d.proactive_requerying_seconds < 0) {
      d.proactive_requerying_seconds = Math.floor(d.cache_duration_seconds / 2);
    }
  }
  if (d.proactive_requerying_seconds > d.cache_duration_seconds) {
    bad('proactive_requerying_seconds', `proactive_requerying_seconds (${d.proactive_requerying_seconds}) must not exceed cache_duration_seconds (${d.cache_duration_seconds})`);
  }
  if (input.sandboxable !== undefined) d.sandboxable = bool('sandboxable', input.sandboxable);
  if (input.redact_pii !== undefined) d.redact_pii = bool('redact_pii', input.redact_pii);
  if (input.params !== undefined) d.params = rules(input.params);
  return d;
}
