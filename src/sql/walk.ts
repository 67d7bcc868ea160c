// Generic traversal of AST nodes (any object with a `kind`), for analyses that only look:
// collecting @params, CTE names, table references.

import type { Param, Query } from './ast.ts';

export function walkAst(node: unknown, visit: (n: { kind: string }) => void): void {
  if (Array.isArray(node)) {
    for (const x of node) walkAst(x, visit);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (typeof o.kind === 'string') visit(o as { kind: string });
  for (const k in o) {
    if (k === 'pos') continue;
    const v = o[k];
    if (v !== null && typeof v === 'object') walkAst(v, visit);
  }
}

/** Every @name the query uses, in first-use order (case preserved as first written). */
export function queryParams(q: Query): string[] {
  const seen = new Map<string, string>();
  walkAst(q, (n) => {
    if (n.kind === 'param') {
      const name = (n as Param).name;
      if (!seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
    }
  });
  return [...seen.values()];
}
