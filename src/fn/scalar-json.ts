// JSON_VALUE, JSON_QUERY, their legacy JSON_EXTRACT* names and the *_ARRAY forms over JSON text
// (a STRING). Invalid JSON text and a path that finds nothing give NULL; a malformed path is query_error.

import { registerScalar, type Kernel } from './registry.ts';
import { RingqlError } from '../core/errors.ts';
import type { SqlType } from '../core/types.ts';
import type { Value } from '../core/values.ts';
import { followJsonPath, jsonScalarText, parseJsonPath, parseJsonText, type JsonPathStep } from './json-path.ts';

type Shape = (v: unknown) => Value;

const STRING_ARGS = new Set<SqlType>(['STRING', 'NULL', 'ANY']);

function typeRule(name: string, ret: SqlType): (args: SqlType[]) => SqlType {
  return (args) => {
    if (!args.every((t) => STRING_ARGS.has(t))) {
      throw new RingqlError('query_error', `No matching signature for function ${name} for argument types: ${args.join(', ')}; expected JSON text (STRING) and a JSONPath (STRING)`);
    }
    return ret;
  };
}

function run(text: Value, steps: JsonPathStep[], extract: Shape): Value {
  if (typeof text !== 'string') return null;
  const root = parseJsonText(text);
  if (root === undefined) return null;
  const found = followJsonPath(root, steps);
  return found === undefined ? null : extract(found);
}

function jsonFn(name: string, ret: SqlType, extract: Shape): void {
  const kernel: Kernel = (text, path) => {
    if (path !== undefined && typeof path !== 'string') return null;
    return run(text, parseJsonPath(path ?? '$'), extract);
  };
  registerScalar({
    name, minArgs: 1, maxArgs: 2, type: typeRule(name, ret), strict: true, kernel,
    specialize: (consts) => {
      const p = consts[1];
      if (typeof p !== 'string') return null;
      const steps = parseJsonPath(p); // a malformed constant path fails at plan time with query_error
      return (text) => run(text, steps, extract);
    },
  });
}

const scalar: Shape = (v) => jsonScalarText(v);
const jsonText: Shape = (v) => JSON.stringify(v);
const arrayOfJson: Shape = (v) => (Array.isArray(v) ? v.map((x: unknown) => JSON.stringify(x)) : null);
const arrayOfScalars: Shape = (v) => {
  if (!Array.isArray(v)) return null;
  const out: Value[] = [];
  for (const x of v as unknown[]) {
    if (x !== null && typeof x === 'object') return null; // BigQuery: NULL when an element is not a scalar
    out.push(jsonScalarText(x));
  }
  return out;
};

jsonFn('JSON_VALUE', 'STRING', scalar);
jsonFn('JSON_EXTRACT_SCALAR', 'STRING', scalar);
jsonFn('JSON_QUERY', 'STRING', jsonText);
jsonFn('JSON_EXTRACT', 'STRING', jsonText);
jsonFn('JSON_QUERY_ARRAY', 'ARRAY', arrayOfJson);
jsonFn('JSON_EXTRACT_ARRAY', 'ARRAY', arrayOfJson);
jsonFn('JSON_VALUE_ARRAY', 'ARRAY', arrayOfScalars);
jsonFn('JSON_EXTRACT_STRING_ARRAY', 'ARRAY', arrayOfScalars);
