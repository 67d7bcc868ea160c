// Which load path `ringql query --sql` takes: the column-only load (no row bytes kept) when every scan of
// the planned query reads nothing but `timestamp` and a top-level `project`; else the full load.

import type { Plan, ScanPlan } from '../plan/bound.ts';
import { columnUses } from '../exec/column-uses.ts';

/** Every ScanPlan reachable from `root` (its subqueries' too), each once. */
export function scansOf(root: Plan): ScanPlan[] {
  const out: ScanPlan[] = [];
  const seen = new Set<object>();
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (Array.isArray(v)) { for (const x of v) walk(x); return; }
    const o = v as Record<string, unknown>;
    if (o.k === 'scan' && Array.isArray(o.cols)) { out.push(o as unknown as ScanPlan); return; }
    // A source handle leads into the store, not into more plan.
    for (const [key, x] of Object.entries(o)) if (key !== 'source') walk(x);
  };
  walk(root);
  return out;
}

/** The columns a scan can answer without the event's stored bytes (scan-exec.ts reads them from the row's numbers). */
function bytelessColumn(scan: ScanPlan, name: string): boolean {
  const p = scan.source.def.projectPath;
  return name === 'timestamp' || (name === 'project' && p.length === 1 && p[0] === 'project');
}

/**
 * True when no column the plan reads needs a stored event's bytes: every used column of every scan is
 * `timestamp` or a top-level `project` (id, event_message, metadata and extra columns need the bytes).
 */
export function readsOnlyBytelessColumns(root: Plan): boolean {
  const uses = columnUses(root);
  const scans = scansOf(root);
  if (scans.length === 0) return false;
  return scans.every((s) => s.cols.every((c) => !uses.has(c.id) || bytelessColumn(s, c.name)));
}
