// Checks one request's parameters against a prepared endpoint before anything runs and picks its format;
// planning and running it (sandbox splice, plan, execute, redact) are the engine's (engine/request.ts,
// engine/run-request.ts), re-exported here for endpoints' callers.

import { RingqlError } from '../core/errors.ts';
import { parseTimestamp } from '../core/time.ts';
import { DEFAULT_LIMITS, type Limits } from '../core/limits.ts';
import { compileRegex } from '../core/regex.ts';
import type { ResolvedRequest } from '../engine/request.ts';
import type { PreparedEndpoint } from './prepare.ts';
import type { OutputFormat } from '../exec/sinks/row-sink.ts';
import { chooseFormat } from './output-format.ts';

export type { ResolvedRequest } from '../engine/request.ts';

/**
 * Validates parameters against the endpoint's rules (required, allowed values, type) and picks the
 * output format: `accepted` is what the Accept header allows (null: none of the formats).
 */
export function resolveRequest(prep: PreparedEndpoint, raw: ReadonlyMap<string, string>, limits: Pick<Limits, 'maxQueryLength' | 'maxQueryDepth'> = DEFAULT_LIMITS, accepted: OutputFormat | null = 'json'): ResolvedRequest {
  const lower = new Map<string, string>();
  for (const [k, v] of raw) if (!lower.has(k.toLowerCase())) lower.set(k.toLowerCase(), v);
  const values = new Map<string, string | null>();
  for (const rule of prep.params) {
    const v = lower.get(rule.name.toLowerCase());
    if (v === undefined || v === '') {
      if (rule.required) {
        throw new RingqlError('missing_parameter', `Parameter "${rule.name}" is required by endpoint ${prep.def.name}${v === '' ? ' and must not be empty' : ''}`, { param: rule.name, ...(rule.allowed ? { allowed: rule.allowed } : {}) });
      }
      values.set(rule.name, v === '' ? '' : null);
      continue;
    }
    if (rule.allowed && !rule.allowed.includes(v)) {
      throw new RingqlError('invalid_parameter', `Parameter "${rule.name}" must be one of ${rule.allowed.join(', ')}; got "${v.length > 100 ? v.slice(0, 100) + '…' : v}"`, { param: rule.name, allowed: rule.allowed });
    }
    if (rule.type === 'timestamp' && parseTimestamp(v) === null) {
      throw new RingqlError('invalid_parameter', `Parameter "${rule.name}" must be an ISO 8601 timestamp such as 2024-01-15T05:00:00Z; got "${v.slice(0, 100)}"`, { param: rule.name });
    }
    if (rule.type === 'regex') {
      try {
        compileRegex(v);
      } catch (err) {
        if (err instanceof RingqlError) throw new RingqlError('invalid_parameter', `Parameter "${rule.name}": ${err.message}`, { param: rule.name });
        throw err;
      }
    }
    values.set(rule.name, v);
  }
  const sql = lower.get('sql');
  const lql = lower.get('lql');
  let consumer: ResolvedRequest['consumer'] = null;
  if (sql) consumer = { kind: 'sql', text: sql };
  else if (lql) consumer = { kind: 'lql', text: lql };
  if (consumer && !prep.def.sandboxable) {
    throw new RingqlError('sandbox_disabled', `Endpoint ${prep.def.name} is not sandboxable: the ${consumer.kind} parameter is not accepted`, { param: consumer.kind });
  }
  if (consumer && consumer.text.length > limits.maxQueryLength) {
    throw new RingqlError('value_too_large', `The ${consumer.kind} parameter is ${consumer.text.length} characters long; the limit is ${limits.maxQueryLength} (RINGQL_MAX_QUERY_LENGTH)`, { param: consumer.kind, limit: limits.maxQueryLength });
  }
  const format = chooseFormat(prep, lower, accepted);
  return format === 'json' ? { values, consumer, limits } : { values, consumer, limits, format };
}

export { parseConsumerSql, planRequest } from '../engine/request.ts';
export { executePlan, executePlanSliced, executeRequest, executeRequestSliced, type ExecuteResult } from '../engine/run-request.ts';
