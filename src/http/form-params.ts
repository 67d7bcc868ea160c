// Decodes a query string as an HTML form does (`+` is a space, then percent-decoding); the last of
// repeated keys wins, as in the reference. Bad percent-encoding is the client's error (400).

import { RingqlError } from '../core/errors.ts';

export function parseFormQuery(query: string): Map<string, string> {
  const out = new Map<string, string>();
  if (query === '') return out;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decodeFormComponent(rawKey, rawKey);
    out.set(key, decodeFormComponent(rawValue, key));
  }
  return out;
}

function decodeFormComponent(raw: string, param: string): string {
  const spaced = raw.includes('+') ? raw.replace(/\+/g, ' ') : raw;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    throw new RingqlError('invalid_parameter', `The query string has bad percent-encoding in "${param.slice(0, 100)}"`, {
      param: param.slice(0, 100),
    });
  }
}
