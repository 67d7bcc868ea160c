// Picks the CTE an LQL query reads (SPEC §5): `f:<cte>` (case-insensitive) or, when the saved
// query has exactly one CTE, that one; otherwise a 400 listing the CTEs.

import { RingqlError } from '../core/errors.ts';
import type { Term } from './terms.ts';

export interface CteInfo {
  name: string;
  columns: string[];
}

export function pickCte(terms: Term[], ctes: CteInfo[]): CteInfo {
  const allowed = ctes.map((c) => c.name);
  const details = { param: 'lql', allowed };
  const picks = terms.flatMap((t) => (t.kind === 'source' ? [t] : []));
  const names = [...new Set(picks.map((p) => p.name.toLowerCase()))];
  if (names.length > 1) {
    throw new RingqlError('invalid_parameter', `LQL may pick one source with f:, found ${picks.map((p) => `f:${p.name}`).join(' and ')}`, details);
  }
  if (picks.length > 0) {
    const name = picks[0]!.name;
    const cte = ctes.find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!cte) {
      throw new RingqlError('invalid_parameter', `LQL f:${name} names no table of this endpoint; use one of: ${list(allowed)}`, details);
    }
    return cte;
  }
  if (ctes.length === 1) return ctes[0]!;
  if (ctes.length === 0) {
    throw new RingqlError('invalid_parameter', 'LQL reads a table (CTE) of the saved query, and this endpoint defines none', details);
  }
  throw new RingqlError('invalid_parameter', `LQL needs f:<table> to pick one of this endpoint's tables: ${list(allowed)}`, details);
}

function list(names: string[]): string {
  return names.join(', ');
}
