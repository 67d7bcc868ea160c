// The one plan-graph copier behind retime and substitute: it copies what the pick names and shares the
// rest, copies each object once (sharing and cycles kept), never copies store or function objects, and
// lets a copied leaf be replaced.

import { describe, expect, it } from 'vitest';
import { copyGraph, type Obj } from '../../src/engine/copy-graph.ts';

const keep = (_: Obj, o: Obj): Obj => o;

describe('copyGraph', () => {
  it("copies everything with 'all', once per object, keeping sharing, cycles and shared keys", () => {
    const source = { name: 'edge' };
    const scan: Obj = { k: 'scan', source, cols: [] as unknown[] };
    (scan.cols as unknown[]).push({ id: 1, origin: { scan } });
    const graph = { a: { input: scan }, b: { input: scan }, m: new Map([[scan, 'x']]) };
    const c = copyGraph(graph, () => 'all', keep);
    expect(c.a.input).not.toBe(scan);
    expect(c.a.input).toBe(c.b.input);
    expect(((c.a.input.cols as Obj[])[0]!.origin as Obj).scan).toBe(c.a.input);
    expect(c.a.input.source).toBe(source);
    expect([...c.m.keys()][0]).toBe(c.a.input);
  });

  it('copies only picked objects and picked children; the rest is the same object', () => {
    const leaf = { k: 'const', value: 1 };
    const other = { k: 'col', id: 2 };
    const node = { k: 'call', args: [leaf, other] };
    const root = { top: node, side: { k: 'col', id: 3 } };
    const picks = new Map<object, (string | number)[]>([[root, ['top']], [node, ['args']], [node.args, [0]], [leaf, []]]);
    const c = copyGraph(root, (x) => picks.get(x), (x, o) => (x.k === 'const' ? { k: 'const', value: 2 } : o));
    expect(c).not.toBe(root);
    expect(c.side).toBe(root.side);
    expect(c.top.args[0]).toEqual({ k: 'const', value: 2 });
    expect(c.top.args[1]).toBe(other);
    expect(root.top.args[0]).toBe(leaf);
    expect(leaf.value).toBe(1);
  });

  it('returns the graph itself when nothing is picked', () => {
    const g = { a: { b: 1 } };
    expect(copyGraph(g, () => undefined, keep)).toBe(g);
  });
});
