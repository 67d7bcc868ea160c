// Redaction applied to a serialised JSON response body: walks the text once, rewrites only string
// values (never keys), so stored row JSON spliced into a response is redacted without a parse/stringify round trip.

import { redactString } from './redact-string.ts';
import { MAY_HOLD_ADDRESS } from './ip-pattern.ts';

const QUOTE = 34, BACKSLASH = 92, COLON = 58;

/** Returns `json` with every address inside string values replaced; `json` must be valid JSON text. */
export function redactJsonText(json: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  const n = json.length;
  while (i < n) {
    if (json.charCodeAt(i) !== QUOTE) { i++; continue; }
    const start = i;
    let escaped = false;
    i++;
    while (i < n) {
      const c = json.charCodeAt(i);
      if (c === BACKSLASH) { escaped = true; i += 2; continue; }
      if (c === QUOTE) break;
      i++;
    }
    const end = i + 1; // one past the closing quote
    i = end;
    let j = end;
    while (j < n && isSpace(json.charCodeAt(j))) j++;
    if (j < n && json.charCodeAt(j) === COLON) continue; // an object key
    const token = json.slice(start, end);
    if (!MAY_HOLD_ADDRESS.test(token)) continue;
    const value = escaped ? (JSON.parse(token) as string) : token.slice(1, -1);
    const redacted = redactString(value);
    if (redacted === value) continue;
    out += json.slice(copied, start) + JSON.stringify(redacted);
    copied = end;
  }
  return copied === 0 ? json : out + json.slice(copied);
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
