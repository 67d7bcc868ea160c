// EXPLAIN: prints a logical plan as indented text, one node per line, expressions in SQL-like form.
// Golden tests compare this text, so it is stable: no ids, timestamps as ISO strings.

import { formatTimestamp } from '../core/time.ts';
import type { AggMods, BExpr, Plan } from './bound.ts';

export function explainPlan(plan: Plan): string {
  const lines: string[] = [];
  const walk = (p: Plan, depth: number): void => {
    lines.push('  '.repeat(depth) + describe(p));
    for (const c of children(p)) walk(c, depth + 1);
  };
  walk(plan, 0);
  return lines.join('\n');
}

export function children(p: Plan): Plan[] {
  switch (p.k) {
    case 'scan': case 'values': case 'rows': return [];
    case 'join': return [p.left, p.right];
    case 'setop': return p.inputs;
    default: return [p.input];
  }
}

function describe(p: Plan): string {
  switch (p.k) {
    case 'scan': {
      const parts = [`Scan ${p.source.def.name}${p.alias !== p.source.def.name ? ' AS ' + p.alias : ''}`];
      if (p.project !== undefined) parts.push(`project=${JSON.stringify(p.project)}`);
      if (p.minTs !== undefined || p.maxTs !== undefined) {
        const lo = p.minTs === undefined ? '(-inf' : (p.minInclusive ? '[' : '(') + formatTimestamp(p.minTs);
        const hi = p.maxTs === undefined ? '+inf)' : formatTimestamp(p.maxTs) + (p.maxInclusive ? ']' : ')');
        parts.push(`time=${lo}, ${hi}`);
      }
      parts.push(`order=${p.order}`);
      return parts.join(' ');
    }
    case 'values': return `Values rows=${p.rows.length}`;
    case 'rows': return `Rows ${p.note} rows=${p.rows.length}`;
    case 'filter': return `Filter ${expr(p.pred)}`;
    case 'project': return `Project ${p.exprs.map((e, i) => { const n = p.cols[i]!.name; const t = expr(e); return t === n ? n : `${t} AS ${n}`; }).join(', ')}`;
    case 'unnest': return `${p.outer ? 'LeftUnnest' : 'Unnest'} ${expr(p.array)} AS ${p.col.name}${p.offsetCol ? ' WITH OFFSET AS ' + p.offsetCol.name : ''}`;
    case 'join': return `Join ${p.type}${p.on ? ' ON ' + expr(p.on) : ''}`;
    case 'aggregate': return `Aggregate keys=[${p.keys.map(expr).join(', ')}] aggs=[${p.aggs.map(expr).join(', ')}]`;
    case 'sort': return `Sort ${p.keys.map((k) => expr(k.expr) + (k.desc ? ' DESC' : ' ASC')).join(', ')}`;
    case 'limit': return `Limit ${p.limit ?? 'ALL'}${p.offset ? ' OFFSET ' + p.offset : ''}`;
    case 'distinct': return 'Distinct';
    case 'setop': return `${p.op.toUpperCase()} ${p.all ? 'ALL' : 'DISTINCT'}`;
  }
}

export function expr(e: BExpr): string {
  switch (e.k) {
    case 'const':
      if (e.type === 'TIMESTAMP' && typeof e.value === 'number') return `TIMESTAMP '${formatTimestamp(e.value)}'`;
      if (e.type === 'INTERVAL' && e.value && typeof e.value === 'object' && 'n' in e.value) return `INTERVAL ${String(e.value.n)} ${String(e.value.unit)}`;
      return e.value === null ? 'NULL' : JSON.stringify(e.value);
    case 'col': return e.name;
    case 'field': return `${expr(e.base)}.${e.name}`;
    case 'call': {
      const n = e.fn.name;
      if (n.startsWith('$') && e.args.length === 2 && n !== '$EXTRACT') return `(${expr(e.args[0]!)} ${n.slice(1)} ${expr(e.args[1]!)})`;
      if (n === '$neg') return `-${expr(e.args[0]!)}`;
      if (n === '$ISNULL') return `(${expr(e.args[0]!)} IS NULL)`;
      if (n === '$ISTRUE') return `(${expr(e.args[0]!)} IS TRUE)`;
      if (n === '$ISFALSE') return `(${expr(e.args[0]!)} IS FALSE)`;
      return `${e.safe ? 'SAFE.' : ''}${n.replace(/^\$/, '')}(${e.args.map(expr).join(', ')})`;
    }
    case 'and': case 'or': return `(${e.args.map(expr).join(e.k === 'and' ? ' AND ' : ' OR ')})`;
    case 'not': return `NOT ${expr(e.arg)}`;
    case 'case': return `CASE ${e.whens.map((w) => `WHEN ${expr(w.when)} THEN ${expr(w.then)}`).join(' ')} ELSE ${expr(e.else)} END`;
    case 'cast': return `${e.safe ? 'SAFE_CAST' : 'CAST'}(${expr(e.arg)} AS ${e.to})`;
    case 'in': return `(${expr(e.arg)}${e.not ? ' NOT' : ''} IN (${e.list.map(expr).join(', ')}))`;
    case 'inArray': return `(${expr(e.arg)}${e.not ? ' NOT' : ''} IN UNNEST(${expr(e.array)}))`;
    case 'subquery': return e.mode === 'exists' ? 'EXISTS(subquery)' : e.mode === 'in' ? `(${expr(e.arg!)}${e.not ? ' NOT' : ''} IN (subquery))` : `(subquery ${e.mode})`;
    case 'anyElement': return `EXISTS(${e.elem.name} IN UNNEST(${expr(e.array)}) WHERE ${expr(e.pred)})`;
    case 'subscript': return `${expr(e.base)}[${e.mode.toUpperCase()}(${expr(e.index)})]`;
    case 'array': return `[${e.elements.map(expr).join(', ')}]`;
    case 'struct': return `STRUCT(${e.fields.map((f) => `${expr(f.expr)} AS ${f.name}`).join(', ')})`;
    case 'agg': return `${e.agg.name}(${e.distinct ? 'DISTINCT ' : ''}${e.star ? '*' : e.args.map(expr).join(', ')}${e.mods ? explainMods(e.mods, expr, e.agg.name === 'STRING_AGG') : ''})`;
  }
}

/** An aggregate's modifiers as written; STRING_AGG always skips NULLs, so the IGNORE NULLS the binder implies for it is not shown. */
function explainMods(m: AggMods, expr: (e: BExpr) => string, skipsNulls: boolean): string {
  const order = m.order.map((o) => `${expr(o.expr)} ${o.desc ? 'DESC' : 'ASC'} NULLS ${o.nullsFirst ? 'FIRST' : 'LAST'}`).join(', ');
  return `${m.ignoreNulls && !skipsNulls ? ' IGNORE NULLS' : ''}${order ? ` ORDER BY ${order}` : ''}${m.limit !== null ? ` LIMIT ${m.limit}` : ''}`;
}
