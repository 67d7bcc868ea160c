// The error an expression fails to bind with: its position both in the message ("[at line:column]")
// and in the details.

import { RingqlError } from '../core/errors.ts';
import type { Pos } from '../sql/ast.ts';

export function posDetails(pos: Pos | undefined): Record<string, number> {
  return pos ? { line: pos.line, column: pos.column } : {};
}

export function failAt(code: 'unknown_name' | 'ambiguous_name' | 'query_error', msg: string, pos?: Pos): never {
  throw new RingqlError(code, pos ? `${msg} [at ${pos.line}:${pos.column}]` : msg, posDetails(pos));
}
