// Log levels in severity order, as the reference's LQL reads `metadata.level:debug..critical`: the
// range means every level between the two (syslog order), not a string comparison.

import { syntaxError } from './read-terms.ts';
import type { LqlValue } from './terms.ts';

/** Syslog severities, least severe first (the reference's `level_strings`). */
export const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/**
 * The levels a `metadata.level:a..b` range names, in severity order; null when the path is not
 * `metadata.level` or neither bound is a level name. Bounds may come in either order.
 */
export function levelRange(path: string[], low: LqlValue, high: LqlValue): string[] | null {
  if (path.length !== 2 || path[0] !== 'metadata' || path[1] !== 'level') return null;
  const a = levelIndex(low);
  const b = levelIndex(high);
  if (a < 0 && b < 0) return null;
  const bad = a < 0 ? low : b < 0 ? high : null;
  if (bad) throw syntaxError(bad.column, `"${bad.raw}" is not a log level; a level range runs between two of ${LEVELS.join(', ')}`);
  return LEVELS.slice(Math.min(a, b), Math.max(a, b) + 1);
}

function levelIndex(v: LqlValue): number {
  return v.kind === 'string' ? (LEVELS as readonly string[]).indexOf(v.value) : -1;
}
