// Sample parameter values a saved query is prepared with when it is created or loaded, so each plan
// shape a request can take is bound and planned before the first request: every allowed value, and
// for other parameters absent (when optional) and one value of their declared type.

import type { ParamRule } from './service-types.ts';

/** Plan shapes prepared ahead at most (the product over parameters is cut here). */
export const MAX_SAMPLE_SETS = 32;

const SAMPLE_BY_TYPE: Record<NonNullable<ParamRule['type']>, string> = { string: 'x', timestamp: '2000-01-01T00:00:00Z', regex: 'x' };

/** The values tried for one parameter. */
function choices(rule: ParamRule): (string | null)[] {
  const given = rule.allowed?.length ? rule.allowed : [SAMPLE_BY_TYPE[rule.type ?? 'string']];
  return rule.required ? given : [null, ...given];
}

/** Value sets (declaration order, as resolveRequest builds them) covering each parameter's choices. */
export function sampleValueSets(params: readonly ParamRule[]): Map<string, string | null>[] {
  let sets: (string | null)[][] = [[]];
  for (const rule of params) {
    const next: (string | null)[][] = [];
    for (const s of sets) for (const v of choices(rule)) if (next.length < MAX_SAMPLE_SETS) next.push([...s, v]);
    sets = next;
  }
  return sets.map((vals) => new Map(params.map((p, i) => [p.name, vals[i] ?? null])));
}
