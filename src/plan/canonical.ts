// Canonical text of a logical plan, for cache keys: every node with all that decides its rows (scan
// bounds as numbers, expressions by exprKey), columns numbered by first appearance so that binding the
// same query twice gives the same text. Unlike EXPLAIN it is not for reading and may change freely.

import type { BExpr, ColInfo, Plan } from './bound.ts';
import { exprKey } from './expr-key.ts';

export function canonicalPlanKey(plan: Plan): string {
  const ids = new Map<number, number>();
  const col = (id: number): string => {
    let n = ids.get(id);
    if (n === undefined) ids.set(id, (n = ids.size + 1));
    return '#' + n;
  };
  const e = (x: BExpr): string => exprKey(x, col);
  const cols = (cs: ColInfo[]): string => cs.map((c) => `${col(c.id)}:${c.name}:${c.type}`).join(',');
  const walk = (p: Plan): string => `${node(p, e, col)}[${cols(p.cols)}](${kids(p).map(walk).join(';')})`;
  return walk(plan);
}

function kids(p: Plan): Plan[] {
  switch (p.k) {
    case 'scan': case 'values': case 'rows': return [];
    case 'join': return [p.left, p.right];
    case 'setop': return p.inputs;
    default: return [p.input];
  }
}

function node(p: Plan, e: (x: BExpr) => string, col: (id: number) => string): string {
  switch (p.k) {
    case 'scan': return `scan(${JSON.stringify([p.source.def.name, p.project ?? null, p.minTs ?? null, p.minInclusive ?? null, p.maxTs ?? null, p.maxInclusive ?? null, p.order])})`;
    case 'values': return `values(${p.rows.map((r) => r.map(e).join(',')).join('|')})`;
    case 'rows': return `rows(${JSON.stringify(p.rows)})`;
    case 'filter': return `filter(${e(p.pred)})`;
    case 'project': return `project(${p.exprs.map(e).join(',')})`;
    case 'unnest': return `unnest(${e(p.array)},${p.outer},${col(p.col.id)},${p.offsetCol ? col(p.offsetCol.id) : '-'})`;
    case 'join': return `join(${p.type},${p.on ? e(p.on) : '-'})`;
    case 'aggregate': return `aggregate(${p.keys.map(e).join(',')};${p.aggs.map(e).join(',')})`;
    case 'sort': return `sort(${p.keys.map((k) => `${e(k.expr)}:${k.desc}:${k.nullsFirst}`).join(',')})`;
    case 'limit': return `limit(${p.limit},${p.offset})`;
    case 'distinct': return 'distinct';
    case 'setop': return `setop(${p.op},${p.all})`;
  }
}
