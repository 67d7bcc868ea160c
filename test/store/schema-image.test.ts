// A schema tree saved as plain data (for checkpoints) and loaded into a fresh tree is the same tree:
// fields in first-seen order with their types, columns, shapes and the bound's accounting, and it grows
// on from there exactly as the original does (same ids for new paths and shapes).

import { describe, expect, it } from 'vitest';
import { SchemaTree } from '../../src/store/schema-tree.ts';
import type { SchemaNode } from '../../src/store/schema-node.ts';

/** Feeds one event's paths the way the store's serialiser does. */
function event(t: SchemaTree, top: Record<string, unknown>, meta: Record<string, unknown>): number {
  t.beginEvent();
  const walk = (parent: SchemaNode, obj: Record<string, unknown>): void => {
    for (const [k, v] of Object.entries(obj)) {
      const n = t.child(parent, k, v);
      if (n && v !== null && typeof v === 'object' && !Array.isArray(v)) walk(n, v as Record<string, unknown>);
    }
  };
  walk(t.metadataNode, meta);
  for (const [k, v] of Object.entries(top)) t.noteTopLevel(k, t.child(t.root, k, v));
  return t.endEvent();
}

function grown(): SchemaTree {
  const t = new SchemaTree(true, 1000);
  t.begin();
  event(t, { level: 'info' }, { request: { method: 'GET', path: '/x' }, status: 200 });
  event(t, { region: null }, { request: { method: 'POST' }, tags: ['a'] });
  event(t, {}, { ratio: 0.5, ok: true });
  t.commit();
  return t;
}

const view = (t: SchemaTree) => ({ fields: t.list(), size: t.size, prunable: t.prunableCount, shapes: t.shapeCount, bytes: t.approxBytes, top: t.topField('level') });

describe('schema image', () => {
  it('a damaged image without the metadata field is named when ingest asks for it (not handed on as undefined)', () => {
    const img = grown().toImage();
    img.fields = img.fields.filter(([, path]) => path[0] !== 'metadata');
    const b = new SchemaTree(true, 1000);
    b.loadImage(img);
    expect(() => b.metadataNode).toThrow(/no metadata field/);
  });

  it('round-trips through JSON into a fresh tree', () => {
    const a = grown();
    const b = new SchemaTree(true, 1000);
    b.loadImage(JSON.parse(JSON.stringify(a.toImage())));
    expect(view(b)).toEqual(view(a));
    expect(b.list().map((f) => f.path.join('.'))).toContain('metadata.request.path');
  });

  it('grows on with the same ids and shapes as the original', () => {
    const a = grown();
    const b = new SchemaTree(true, 1000);
    b.loadImage(a.toImage());
    const next = (t: SchemaTree): number => { t.begin(); const s = event(t, { host: 'h' }, { request: { method: 'GET', query: 'q' }, status: 404 }); t.commit(); return s; };
    expect(next(b)).toBe(next(a));
    expect(b.toImage()).toEqual(a.toImage());
    // The same event shape as an earlier one interns to the same id.
    b.begin(); a.begin();
    expect(event(b, { level: 'warn' }, { request: { method: 'PUT', path: '/y' }, status: 500 })).toBe(event(a, { level: 'warn' }, { request: { method: 'PUT', path: '/y' }, status: 500 }));
  });

  it('keeps pruning working after a load (entries and shapes restored)', () => {
    const b = new SchemaTree(true, 1000);
    b.loadImage(grown().toImage());
    const before = b.prunableCount;
    expect(before).toBeGreaterThan(0);
    expect(b.forgetUnused(() => false)).toBe(before);
    expect(b.shapeCount).toBe(0);
    expect(b.list().map((f) => f.path.join('.'))).not.toContain('metadata.request.path');
  });
});
