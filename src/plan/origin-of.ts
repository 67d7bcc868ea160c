// originOf: which event path (scan, field path) a column or a field chain over one reads.

import type { BExpr, Origin } from './bound.ts';

/** Which event path an expression reads directly, if it is a column or a field chain over one. */
export function originOf(e: BExpr): Origin | undefined {
  if (e.k === 'col') return e.origin;
  if (e.k === 'field') {
    const b = originOf(e.base);
    if (b && b.element) return { scan: b.scan, path: [...b.path, e.name], element: false };
  }
  return undefined;
}
