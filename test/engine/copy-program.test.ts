// The traced-once copy program behind substitute.ts: replayed, it must give what copyGraph gives for the
// same graph and pick (same objects copied once, sharing and cycles kept, rewrites in the same order),
// and a prepared logs.all template's substitution must give the same plan as copyGraph's.

import { describe, expect, it } from 'vitest';
import { copyGraph, type Obj } from '../../src/engine/copy-graph.ts';
import { compileCopy, runCopy } from '../../src/engine/copy-program.ts';

/** A graph like a plan's: a scan whose columns point back to it, two parents sharing it, a constant leaf. */
function planLike(): { root: Obj; picks: Map<object, (string | number)[]>; scan: Obj; leaf: Obj; other: Obj } {
  const source = { name: 'edge' };
  const leaf: Obj = { k: 'const', value: 1, param: 'p' };
  const other: Obj = { k: 'col', id: 9 };
  const scan: Obj = { k: 'scan', source, cols: [] as unknown[], filter: { k: 'call', args: [leaf, other] } };
  const col: Obj = { k: 'col', id: 1, origin: { scan } };
  (scan.cols as unknown[]).push(col);
  const project: Obj = { k: 'project', input: scan, exprs: [col, other] };
  const root: Obj = { logical: { k: 'limit', input: project }, physical: { root: { logical: project, input: scan } }, side: { k: 'col', id: 3 } };
  const filter = scan.filter as Obj;
  const picks = new Map<object, (string | number)[]>([
    [root, ['logical', 'physical']], [root.logical as object, ['input']], [project, ['input', 'exprs']], [project.exprs as object, [0]],
    [scan, ['cols', 'filter']], [scan.cols as object, [0]], [col, ['origin']], [col.origin as object, ['scan']], [filter, ['args']],
    [filter.args as object, [0]], [leaf, []], [root.physical as object, ['root']], [(root.physical as Obj).root as object, ['logical', 'input']],
  ]);
  return { root, picks, scan, leaf, other };
}

/** The copy's structure with object identity replaced by first-seen numbers (so two copies compare). */
function shape(x: unknown, ids = new Map<object, number>()): unknown {
  if (typeof x !== 'object' || x === null) return x;
  const seen = ids.get(x);
  if (seen !== undefined) return { ref: seen };
  ids.set(x, ids.size);
  if (Array.isArray(x)) return x.map((v) => shape(v, ids));
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, shape(v, ids)]));
}

describe('copy program', () => {
  it('replays copyGraph: same copies, sharing, cycles, shared children and rewrite order', () => {
    const { root, picks, scan, leaf, other } = planLike();
    const pick = (x: object): (string | number)[] | undefined => picks.get(x);
    const orderA: unknown[] = [];
    const orderB: unknown[] = [];
    const rewrite = (order: unknown[]) => (x: Obj, o: Obj): Obj => {
      order.push(x);
      return x.k === 'const' ? { k: 'const', value: 2 } : o;
    };
    const a = copyGraph(root, pick, rewrite(orderA));
    const program = compileCopy(root, pick);
    expect(program).not.toBeNull();
    const b = runCopy<Obj>(program!, rewrite(orderB));
    expect(orderB).toEqual(orderA);
    expect(shape(b)).toEqual(shape(a));
    const bScan = ((b.logical as Obj).input as Obj).input as Obj;
    expect(bScan).not.toBe(scan);
    expect(((bScan.cols as Obj[])[0]!.origin as Obj).scan).toBe(bScan);
    expect(((b.physical as Obj).root as Obj).input).toBe(bScan);
    expect((bScan.filter as Obj).args).toEqual([{ k: 'const', value: 2 }, other]);
    expect(((bScan.filter as Obj).args as unknown[])[1]).toBe(other);
    expect(b.side).toBe(root.side);
    expect(bScan.source).toBe(scan.source);
    expect(leaf.value).toBe(1);
    // Replayed again, a fresh copy: nothing of the first is reused.
    const c = runCopy<Obj>(program!, rewrite([]));
    expect(c.logical).not.toBe(b.logical);
    expect(shape(c)).toEqual(shape(a));
  });

  it('declines what it does not replay: a Map, a whole copy, nothing to copy', () => {
    const m = new Map([[1, { a: 1 }]]);
    expect(compileCopy({ m }, (x) => (x instanceof Map ? ['x'] : ['m']))).toBeNull();
    expect(compileCopy({ a: {} }, () => 'all')).toBeNull();
    expect(compileCopy({ a: {} }, () => undefined)).toBeNull();
  });
});
