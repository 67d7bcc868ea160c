// Rows, oldest and newest timestamp per project id over a segment's columns (cluster mode's per-partition
// figures, SourceStore.groupStats): one pass over the timestamp and project-id columns.

import type { TsRead } from './ts-column.ts';

export interface Figures { rows: number; minTs: number; maxTs: number }

/** Figures per project id of rows [0, n) whose timestamp is at least `wm`. */
export function pidFigures(ts: TsRead, pid: ArrayLike<number>, n: number, wm: number): Map<number, Figures> {
  const out = new Map<number, Figures>();
  let lastPid = -1;
  let cur: Figures | undefined;
  for (let i = 0; i < n; i++) {
    const t = ts.at(i);
    if (t < wm) continue;
    const p = pid[i]!;
    if (p !== lastPid) {
      lastPid = p;
      cur = out.get(p);
      if (!cur) out.set(p, (cur = { rows: 0, minTs: t, maxTs: t }));
    }
    cur!.rows++;
    if (t < cur!.minTs) cur!.minTs = t;
    if (t > cur!.maxTs) cur!.maxTs = t;
  }
  return out;
}

/** Adds `from` into `into`, keyed by group (`groupOf` of each project id). */
export function mergeFigures(into: Map<number, Figures>, from: ReadonlyMap<number, Figures>, groupOf: (pid: number) => number): void {
  for (const [p, f] of from) {
    const g = groupOf(p);
    const t = into.get(g);
    if (!t) into.set(g, { ...f });
    else { t.rows += f.rows; t.minTs = Math.min(t.minTs, f.minTs); t.maxTs = Math.max(t.maxTs, f.maxTs); }
  }
}
