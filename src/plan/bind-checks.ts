// Type checks the expression binder makes as BigQuery does, from static types and the sources' schemas
// (STRING against INT64, a field of something that is not one record), and the record of which plan-time
// checks of constant arguments (a regex) depend on parameter values.

import { RingqlError } from '../core/errors.ts';
import type { Expr, Pos } from '../sql/ast.ts';
import type { FnDef } from '../fn/index.ts';
import type { SchemaField } from '../store/types.ts';
import type { SqlType } from '../core/types.ts';
import type { Value } from '../core/values.ts';
import type { BExpr } from './bound.ts';
import { originOf } from './origin-of.ts';
import { noteDecision, notePin } from './param-trace.ts';

function posDetails(pos: Pos | undefined): Record<string, number> {
  return pos ? { line: pos.line, column: pos.column } : {};
}

function fail(msg: string, pos?: Pos): never {
  throw new RingqlError('query_error', pos ? `${msg} [at ${pos.line}:${pos.column}]` : msg, posDetails(pos));
}

/**
 * Records, for a function that checks its constant arguments at plan time (a regex), whether the check
 * runs and passes: a prepared plan holds only for parameter values where it comes out the same.
 */
export function noteSpecialize(fn: FnDef, args: BExpr[]): void {
  const consts = args.filter((a) => a.k === 'const');
  const classify = (vals: Value[] | null): string => {
    if (vals === null) return '!';
    let i = 0;
    const full = args.map((a) => (a.k === 'const' ? vals[i++] : undefined));
    if (!args.slice(1).some((a, j) => a.k === 'const' && full[j + 1] !== null)) return 'skip';
    try {
      fn.specialize!(full);
      return 'ok';
    } catch (err) {
      if (err instanceof RingqlError) return 'err';
      throw err;
    }
  };
  noteDecision(consts, classify, consts.map((c) => (c as Extract<BExpr, { k: 'const' }>).value));
}

export const isNum = (t: SqlType): boolean => t === 'INT64' || t === 'FLOAT64';

/**
 * The type BigQuery would see: the static type, or for a field inside log records (static type ANY)
 * its type in the source schema. A parameter is left out: its text is read as the other side's type.
 */
function schemaTypeOf(e: BExpr, ast: Expr): SqlType | undefined {
  if (ast.kind === 'param') return undefined;
  if (e.type !== 'ANY') return e.type === 'NULL' ? undefined : e.type;
  const o = originOf(e);
  const f = o && !o.element && o.path.length > 1 ? o.scan.source.schemaField?.(o.path) : undefined;
  return f === undefined ? undefined : shapeType(f);
}

/** A schema field as a binder type: ARRAY when repeated, STRUCT for a record, undefined for JSON. */
function shapeType(f: SchemaField): SqlType | undefined {
  if (f.mode === 'REPEATED') return 'ARRAY';
  return f.type === 'RECORD' ? 'STRUCT' : f.type === 'JSON' ? undefined : f.type;
}

/**
 * What the schema says a value read from log records is, for a field access on it: a path (`m.parsed`),
 * an element of an unnested array (`tag` of `unnest(m.tags)`), or a struct subscript of a record (`m[0]`
 * is the record's first field in schema order). Undefined when the schema cannot tell.
 */
export function recordShapeOf(e: BExpr): SqlType | undefined {
  if (e.k === 'subscript') {
    const o = originOf(e.base);
    notePin(e.index);
    if (!o || e.index.k !== 'const' || typeof e.index.value !== 'number') return undefined;
    const isRecord = o.element ? o.scan.source.schemaField?.(o.path)?.type === 'RECORD' : o.path.length > 1 && o.scan.source.schemaField?.(o.path)?.type === 'RECORD' && o.scan.source.schemaField?.(o.path)?.mode === 'NULLABLE';
    if (!isRecord) return undefined;
    const i = e.index.value - (e.mode === 'ordinal' || e.mode === 'safe_ordinal' ? 1 : 0);
    const child = o.scan.source.schemaChildren?.(o.path)[i];
    return child ? shapeType(child) : undefined;
  }
  const o = originOf(e);
  if (!o || o.path.length < 1) return undefined;
  const f = o.scan.source.schemaField?.(o.path);
  if (!f) return undefined;
  if (o.element) return f.type === 'RECORD' ? 'STRUCT' : f.type === 'JSON' ? undefined : f.type;
  return o.path.length > 1 ? shapeType(f) : undefined;
}

/**
 * The first operand against each other one: STRING against INT64/FLOAT64 where both types are known
 * (a record field by its schema type) is BigQuery's error, listing every argument's type.
 */
export function checkSchemaTypes(op: string, args: [BExpr, Expr][], pos: Pos | undefined): void {
  const types = args.map(([e, ast]) => schemaTypeOf(e, ast));
  const x = types[0];
  if (x === undefined) return;
  const clash = types.slice(1).some((y) => y !== undefined && ((x === 'STRING' && isNum(y)) || (isNum(x) && y === 'STRING')));
  if (clash) fail(`No matching signature for operator ${op} for argument types: ${types.map((t, i) => t ?? args[i]![0].type).join(', ')}`, pos);
}

/** A condition (WHERE, ON, NOT, AND/OR, CASE WHEN, COUNTIF) must be a BOOL, or of a type not known until it runs. */
export function expectBool(e: BExpr, what: string, pos: Pos | undefined): BExpr {
  if (e.type !== 'BOOL' && e.type !== 'ANY' && e.type !== 'NULL') fail(`${what} needs a BOOL, got ${e.type}`, pos);
  return e;
}
