// Rule HotUnnestFromDictionary: a JOIN UNNEST chain straight off a scan whose last element is read only
// through fields the store keeps as hot (dictionary) columns runs as one fused HotUnnest operator.

import type { Plan } from '../../../plan/bound.ts';
import type { ColumnUses } from '../../column-uses.ts';
import type { HotChainPlan, UnnestPlan } from '../physical-plan.ts';

/** The hot chain ending at `top`, or null when the rule does not apply. */
export function hotUnnestFromDictionary(top: UnnestPlan, uses: ColumnUses): HotChainPlan | null {
  const chain: UnnestPlan[] = [];
  let p: Plan = top;
  while (p.k === 'unnest') {
    if (p.offsetCol) return null;
    chain.unshift(p);
    p = p.input;
  }
  // A projection of plain scan columns (a CTE such as logs.all's edge_logs) may sit below the chain.
  const alias = new Map<number, number>();
  if (p.k === 'project' && p.input.k === 'scan') {
    for (let i = 0; i < p.exprs.length; i++) {
      const e = p.exprs[i]!;
      if (e.k !== 'col') return null;
      alias.set(p.cols[i]!.id, e.id);
    }
    p = p.input;
  }
  if (p.k !== 'scan') return null;
  const scan = p;
  const first = chain[0]!.array;
  const firstId = first.k === 'col' ? (alias.get(first.id) ?? first.id) : -1;
  const firstCol = scan.cols.find((c) => c.id === firstId);
  if (!firstCol) return null;
  const fields = innerFields(chain, uses);
  if (!fields) return null;
  const leaves = [...new Set(uses.get(top.col.id) ?? [])];
  if (!leaves.length || leaves.includes('*')) return null;
  const available = new Set(scan.source.hotKeys ?? []);
  const keys = leaves.map((l) => [firstCol.name, ...fields, l].join('.'));
  if (!scan.source.hotDict || !keys.every((k) => available.has(k))) return null;
  return { scan, alias, chain, firstId, fields, leaves, keys };
}

/** The record field each unnest after the first expands, when each inner element feeds exactly the next unnest. */
function innerFields(chain: UnnestPlan[], uses: ColumnUses): string[] | null {
  const fields: string[] = [];
  for (let i = 1; i < chain.length; i++) {
    const a = chain[i]!.array;
    const prevId = chain[i - 1]!.col.id;
    if (a.k !== 'field' || a.base.k !== 'col' || a.base.id !== prevId) return null;
    const u = uses.get(prevId) ?? [];
    if (u.length !== 1 || u[0] !== a.name) return null;
    fields.push(a.name);
  }
  return fields;
}

/** The name of a scan column as the chain sees it (through the alias projection). */
export function chainScanColumnName(hot: HotChainPlan, id: number): string | undefined {
  const target = hot.alias.get(id) ?? id;
  return hot.scan.cols.find((c) => c.id === target)?.name;
}
