// Which body format a run request gets (SPEC §3 "Output formats"): the `format` query parameter
// (json|ndjson|csv) when the endpoint declares no parameter of that name, else the Accept header's pick.

import { RingqlError } from '../core/errors.ts';
import { OUTPUT_FORMATS, type OutputFormat } from '../exec/sinks/row-sink.ts';

/** The Content-Type of each body format (the sinks' own table), for the HTTP layer. */
export { CONTENT_TYPES } from '../exec/sinks/make-sink.ts';
import type { PreparedEndpoint } from './prepare.ts';

/** `lower` holds the request's values by lower-cased name; `accepted` null = Accept allows none of the formats. */
export function chooseFormat(prep: PreparedEndpoint, lower: ReadonlyMap<string, string>, accepted: OutputFormat | null): OutputFormat {
  const asked = prep.paramNames.has('format') ? undefined : lower.get('format');
  if (asked !== undefined && asked !== '') {
    const f = OUTPUT_FORMATS.find((x) => x === asked.toLowerCase());
    if (!f) {
      throw new RingqlError('invalid_parameter', `Parameter "format" must be one of ${OUTPUT_FORMATS.join(', ')}; got "${asked.slice(0, 100)}"`, { param: 'format', allowed: [...OUTPUT_FORMATS] });
    }
    return f;
  }
  if (accepted === null) {
    throw new RingqlError('not_acceptable', `The Accept header allows none of the result formats: application/json, application/x-ndjson, text/csv (or use ?format=${OUTPUT_FORMATS.join('|')})`, { allowed: ['application/json', 'application/x-ndjson', 'text/csv'] });
  }
  return accepted;
}
