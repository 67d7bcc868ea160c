// ProjectAggExec: `GROUP BY project` with COUNT(*) and COUNT/MIN/MAX of timestamp or project, computed
// from the segments' project-id and timestamp columns (rule ProjectAggregateFromRuns): no row is made.

import type { Accessor } from '../../plan/compile-expr.ts';
import type { Value } from '../../core/values.ts';
import type { ExecContext } from '../context.ts';
import { arrayAccessor, type Operator } from '../operator.ts';
import type { ScanExec } from './scan-exec.ts';
import type { ProjectAggPlan } from '../physical/rules/project-aggregate-from-runs.ts';

/** One group's figures: its rows and their least and greatest timestamps. */
interface Figures { n: number; min: number; max: number }

export class ProjectAggExec implements Operator {
  private done = false;
  /** Group slot of each project id (-1: not met yet); groups in the order first met, as the general aggregation's. */
  private slot = new Int32Array(0);
  private readonly pids: number[] = [];
  private readonly figures: Figures[] = [];
  private names: readonly (string | null)[] = [];
  private readonly needTs: boolean;

  /** `scan` reads column runs in the plan's (unordered) scan order; `ids`: the key's output column, then each aggregate's. */
  constructor(private readonly scan: ScanExec, private readonly aggs: readonly ProjectAggPlan[], private readonly ids: number[], private readonly ctx: ExecContext) {
    if (!scan.runMode) throw new Error('internal: ProjectAggregateFromRuns over a scan without column runs');
    this.needTs = aggs.some((a) => a.col === 'timestamp' && a.fn !== 'count');
  }

  next(): unknown[] | null {
    if (this.done) return null;
    const m = this.ctx.meter;
    for (let n = this.addRun(); n >= 0; n = this.addRun()) {
      m.tick(n);
      if (m.sliceDue) return [];
    }
    this.done = true;
    return this.output();
  }

  /** Adds the next column run's rows to their groups; -1 when the scan is done. */
  private addRun(): number {
    const r = this.scan.nextRun();
    if (r === null) return -1;
    const { sel, n, ts } = r;
    const pid = r.rows.pid;
    this.names = r.projectNames;
    if (this.slot.length < r.projectNames.length) this.grow(r.projectNames.length);
    const { slot, figures, needTs } = this;
    for (let j = 0; j < n; j++) {
      const row = sel[j]!;
      const p = pid[row]!;
      let s = slot[p]!;
      if (s < 0) s = this.newGroup(p);
      const f = figures[s]!;
      f.n++;
      if (needTs) {
        const t = ts.at(row);
        if (t < f.min) f.min = t;
        if (t > f.max) f.max = t;
      }
    }
    return n;
  }

  private grow(size: number): void {
    const next = new Int32Array(size).fill(-1);
    next.set(this.slot);
    this.slot = next;
  }

  private newGroup(pid: number): number {
    const s = this.figures.length;
    this.slot[pid] = s;
    this.pids.push(pid);
    this.figures.push({ n: 0, min: Infinity, max: -Infinity });
    return s;
  }

  /** One row per project name (ids of one name merged, in first-met order): the key, then each aggregate. */
  private output(): Value[][] | null {
    const byName = new Map<string | null, Figures>();
    this.pids.forEach((pid, s) => {
      const name = this.names[pid] ?? null, f = this.figures[s]!;
      const g = byName.get(name);
      if (!g) byName.set(name, { ...f });
      else { g.n += f.n; g.min = Math.min(g.min, f.min); g.max = Math.max(g.max, f.max); }
    });
    if (byName.size === 0) return null;
    const out: Value[][] = [];
    for (const [name, f] of byName) out.push([name, ...this.aggs.map((a) => aggValue(a, name, f))]);
    return out;
  }

  acc(id: number): Accessor {
    return arrayAccessor(this.ids, id, 'project aggregate');
  }

  raw(): null {
    return null;
  }
}

/** Aggregate `a` of the group of project `name` (every stored row has a timestamp; a group has rows). */
function aggValue(a: ProjectAggPlan, name: string | null, f: Figures): Value {
  if (a.col === 'project') return a.fn === 'count' ? (name === null ? 0 : f.n) : name;
  if (a.fn === 'count') return f.n;
  return a.fn === 'min' ? f.min : f.max;
}
