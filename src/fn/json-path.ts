// BigQuery's JSONPath subset for the JSON_* functions: `$`, `.name`, `."name"`, `['name']`, `["name"]`
// and `[index]`. A malformed path is query_error; a path that finds nothing gives undefined.

import { RingqlError } from '../core/errors.ts';

export type JsonPathStep = string | number;

const BAD_PATH = (why: string): RingqlError =>
  new RingqlError('query_error', `Invalid JSONPath: ${why}; supported are $, .name, ."name", ['name'], ["name"] and [index]`);

/** Parses a JSONPath into its steps (field names and array indexes). */
export function parseJsonPath(path: string): JsonPathStep[] {
  const p = path.trim();
  if (!p.startsWith('$')) throw BAD_PATH('the path must start with $');
  const steps: JsonPathStep[] = [];
  let i = 1;
  while (i < p.length) {
    const ch = p[i]!;
    if (ch === '.') {
      if (p[i + 1] === '"') {
        const end = p.indexOf('"', i + 2);
        if (end < 0) throw BAD_PATH('unterminated quoted name');
        steps.push(p.slice(i + 2, end));
        i = end + 1;
        continue;
      }
      const m = /^[^.[\]"'\s*]+/.exec(p.slice(i + 1));
      if (!m) throw BAD_PATH('a name must follow "."');
      steps.push(m[0]);
      i += 1 + m[0].length;
    } else if (ch === '[') {
      const rest = p.slice(i + 1);
      const q = /^\s*(['"])/.exec(rest);
      if (q) {
        const open = rest.indexOf(q[1]!);
        const close = rest.indexOf(q[1]!, open + 1);
        if (close < 0) throw BAD_PATH('unterminated quoted name');
        const after = /^\s*\]/.exec(rest.slice(close + 1));
        if (!after) throw BAD_PATH('expected "]" after a quoted name');
        steps.push(rest.slice(open + 1, close));
        i += 1 + close + 1 + after[0].length;
        continue;
      }
      const n = /^\s*(\d+)\s*\]/.exec(rest);
      if (!n) throw BAD_PATH('an index must be a non-negative integer');
      steps.push(Number(n[1]));
      i += 1 + n[0].length;
    } else {
      throw BAD_PATH(`unexpected "${ch}"`);
    }
  }
  return steps;
}

/** Parsed JSON text, or undefined when the text is not JSON. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The value the steps lead to, or undefined when the path finds nothing. */
export function followJsonPath(root: unknown, steps: JsonPathStep[]): unknown {
  let cur: unknown = root;
  for (const s of steps) {
    if (typeof s === 'number') {
      if (!Array.isArray(cur) || s >= cur.length) return undefined;
      cur = cur[s] as unknown;
    } else {
      if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, s)) return undefined;
      cur = (cur as Record<string, unknown>)[s];
    }
  }
  return cur;
}

/** A JSON scalar as BigQuery's JSON_VALUE gives it (strings unquoted), or null for objects, arrays and null. */
export function jsonScalarText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  return null;
}
