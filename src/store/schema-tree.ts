// The schema a source has seen so far: a tree of field paths with BigQuery types (first-seen type
// wins), grown cheaply while events are serialised, with an undo log so a rejected batch leaves no trace,
// a bound on the distinct paths it may hold, and "shapes" (which forgettable paths an event uses) so
// paths no held row uses any more can be pruned. Over 300 lines on purpose: one class whose tree, path
// entries, undo log and counters every method updates together (nodes, value types, shapes and the
// checkpoint image live in schema-node.ts, json-field-type.ts, schema-shapes.ts and schema-image.ts).

import type { FieldType, SchemaField } from './types.ts';
import { FieldLimitError, entryBytes, type SchemaNode } from './schema-node.ts';
import { typeOf } from './json-field-type.ts';
import type { SchemaImage } from './schema-image.ts';
import { ShapeTable } from './schema-shapes.ts';

/** A path that may be forgotten: where it hangs, so pruning can unhook it. */
interface Entry {
  map: Map<string, SchemaNode> | null;
  key: string;
  node: SchemaNode | null;
  bytes: number;
}

type Undo = { id: number } | { top: string } | { shape: string };

export class SchemaTree {
  readonly root: SchemaNode = { field: null, children: new Map(), id: 0, stamp: 0 };
  /** Fields in first-seen order. */
  private fields: SchemaField[] = [];
  /** Top-level column names (the fixed four, `project` where it is top level, every key seen). */
  readonly topLevel = new Set<string>();
  /** Top-level keys seen only with null values (columns without a typed field), by key. */
  private readonly nullTops = new Map<string, number>();
  /** Paths that count against the bound and may be pruned (everything but the fixed and seeded ones), by id. */
  private readonly entries = new Map<number, Entry>();
  private nextId = 1;
  /** Ids from here on are forgettable (the fixed and seeded ones are below). */
  private firstPrunable: number;
  private event = 0;
  /** Forgettable path ids the current event uses. */
  private eventIds: number[] = [];
  /** Shapes: the sorted forgettable ids of an event, interned; id 0 is the empty shape. */
  private readonly shapes = new ShapeTable();
  private undo: Undo[] | null = null;
  private fieldsMark = 0;
  private snapshot: SchemaField[] | null = null;
  /** Counts changes of the field list and the top-level columns (plans bound on an older count bind again). */
  private changes = 0;

  get version(): number {
    return this.changes;
  }
  private bytes = 0;
  /** Changes whenever a path, top-level column or shape may have come or gone (ShapeCache validity). */
  shapeVersion = 0;

  /** `maxFields`: distinct prunable paths (nested ones and null-only top-level keys) the tree may hold. */
  constructor(topLevelProject: boolean, readonly maxFields = Infinity) {
    this.define([], 'id', 'STRING', 'NULLABLE');
    this.define([], 'timestamp', 'TIMESTAMP', 'NULLABLE');
    this.define([], 'event_message', 'STRING', 'NULLABLE');
    this.define([], 'metadata', 'RECORD', 'REPEATED');
    for (const k of ['id', 'timestamp', 'event_message', 'metadata']) this.topLevel.add(k);
    if (topLevelProject) {
      this.define([], 'project', 'STRING', 'NULLABLE');
      this.topLevel.add('project');
    }
    this.firstPrunable = this.nextId;
  }

  private define(parentPath: string[], key: string, type: FieldType, mode: 'NULLABLE' | 'REPEATED'): void {
    const field: SchemaField = { path: [...parentPath, key], type, mode };
    this.root.children!.set(key, { field, children: null, id: this.nextId++, stamp: 0 });
    this.fields.push(field);
    this.bytes += entryBytes(field.path);
  }

  /** Starts the seed: until freezeSeed() the bound does not apply. */
  beginSeed(): void {
    this.seeding = true;
  }

  private seeding = false;

  /** Makes every path seen so far permanent (the SAMPLE-EVENTS seed): never pruned, not counted. */
  freezeSeed(): void {
    this.seeding = false;
    this.entries.clear();
    this.firstPrunable = this.nextId;
  }

  /** The `metadata` field (fixed; a tree restored from an image without it is damaged). */
  get metadataNode(): SchemaNode {
    const n = this.root.children?.get('metadata');
    if (n === undefined) throw new Error('internal: the schema tree has no metadata field (a damaged checkpoint image?)');
    return n;
  }

  /** Set when an event of the current batch was refused for the bound. */
  limitHit = false;

  private checkRoom(): void {
    if (this.entries.size >= this.maxFields && !this.seeding) {
      this.limitHit = true;
      throw new FieldLimitError(`the source already has ${this.maxFields} distinct field paths, the limit (RINGQL_MAX_FIELDS_PER_SOURCE); this event would add more`);
    }
  }

  private touch(n: SchemaNode): void {
    n.stamp = this.event;
    if (n.id >= this.firstPrunable) this.eventIds.push(n.id);
  }

  /** Starts collecting the paths of one event. */
  beginEvent(): void {
    this.event++;
    if (this.eventIds.length > 0) this.eventIds = [];
  }

  /** The shape of the event begun last: an id for the set of forgettable paths it used (0: none). */
  endEvent(): number {
    const ids = this.eventIds;
    if (ids.length === 0) return 0;
    this.eventIds = [];
    ids.sort((a, b) => a - b);
    let w = 1;
    for (let i = 1; i < ids.length; i++) if (ids[i] !== ids[w - 1]) ids[w++] = ids[i]!;
    ids.length = w;
    const key = ids.join(',');
    let id = this.shapes.find(key);
    if (id === undefined) {
      id = this.shapes.add(key, ids);
      this.undo?.push({ shape: key });
    }
    return id;
  }

  /** The child node for `key` holding `v`, created with v's type when new; null when v has no type yet. */
  child(parent: SchemaNode, key: string, v: unknown): SchemaNode | null {
    let map = parent.children;
    const hit = map?.get(key);
    if (hit !== undefined) {
      if (hit.stamp !== this.event) this.touch(hit);
      return hit;
    }
    const t = typeOf(v);
    if (t === null) return null;
    this.checkRoom();
    if (map === null || map === undefined) map = parent.children = new Map();
    const path = parent.field === null ? [key] : [...parent.field.path, key];
    const node: SchemaNode = { field: { path, type: t[0], mode: t[1] }, children: null, id: this.nextId++, stamp: this.event };
    map.set(key, node);
    this.shapeVersion++;
    this.fields.push(node.field!);
    const bytes = entryBytes(path);
    this.bytes += bytes;
    this.entries.set(node.id, { map, key, node, bytes });
    this.eventIds.push(node.id);
    this.snapshot = null;
    this.changes++;
    this.undo?.push({ id: node.id });
    return node;
  }

  /** Notes a top-level key as a column; `node` is what child() gave for it (null: a null value). */
  noteTopLevel(key: string, node: SchemaNode | null = this.root.children!.get(key) ?? null): void {
    if (node === null) {
      const id = this.nullTops.get(key);
      if (id === undefined && !this.topLevel.has(key)) {
        this.checkRoom();
        const nid = this.nextId++;
        this.shapeVersion++;
        const bytes = entryBytes([key]);
        this.nullTops.set(key, nid);
        this.entries.set(nid, { map: null, key, node: null, bytes });
        this.bytes += bytes;
        this.eventIds.push(nid);
        this.undo?.push({ id: nid });
      } else if (id !== undefined && id >= this.firstPrunable) this.eventIds.push(id);
    }
    if (this.topLevel.has(key)) return;
    this.topLevel.add(key);
    this.changes++;
    this.shapeVersion++;
    this.undo?.push({ top: key });
  }

  /** Starts recording changes so that rollback() can undo them. */
  begin(): void {
    this.limitHit = false;
    this.undo = [];
    this.fieldsMark = this.fields.length;
  }

  commit(): void {
    this.undo = null;
  }

  rollback(): void {
    const undo = this.undo;
    this.undo = null;
    this.eventIds = [];
    this.shapeVersion++;
    if (!undo) return;
    for (let i = undo.length - 1; i >= 0; i--) {
      const u = undo[i]!;
      if ('top' in u) { this.topLevel.delete(u.top); continue; }
      if ('shape' in u) {
        const id = this.shapes.find(u.shape);
        if (id !== undefined && this.shapes.drop(id)) this.shapeVersion++;
        continue;
      }
      const e = this.entries.get(u.id);
      if (e === undefined) continue;
      this.entries.delete(u.id);
      this.bytes -= e.bytes;
      if (e.map !== null) e.map.delete(e.key);
      else this.nullTops.delete(e.key);
    }
    this.fields.length = this.fieldsMark;
    this.snapshot = null;
    this.changes++;
  }

  /**
   * Forgets shapes no held row has (`held` says which are) and then every path no remaining shape
   * uses. Returns how many paths went.
   */
  forgetUnused(held: (shape: number) => boolean): number {
    const { live, dropped } = this.shapes.keepHeld(held);
    this.shapeVersion += dropped;
    return this.prune((id) => live.has(id));
  }

  /** Distinct shapes held (for tests and /health). */
  get shapeCount(): number {
    return this.shapes.size;
  }

  /**
   * Forgets every prunable path whose id `live` does not hold (no held row uses it any more), with
   * its subtree, and top-level columns left without a field. Returns how many paths went.
   */
  prune(live: (id: number) => boolean): number {
    const gone = new Set<SchemaField>();
    let n = 0;
    const drop = (id: number, e: Entry): void => {
      if (!this.entries.delete(id)) return;
      n++;
      this.bytes -= e.bytes;
      if (e.node === null) { this.nullTops.delete(e.key); return; }
      e.map!.delete(e.key);
      gone.add(e.node.field!);
      const kids = e.node.children;
      if (kids !== null) for (const c of kids.values()) { const ce = this.entries.get(c.id); if (ce) drop(c.id, ce); }
    };
    for (const [id, e] of this.entries) if (!live(id)) drop(id, e);
    if (n === 0) return 0;
    this.shapeVersion++;
    this.fields = this.fields.filter((f) => !gone.has(f));
    const rootKids = this.root.children!;
    for (const k of this.topLevel) if (!rootKids.has(k) && !this.nullTops.has(k)) this.topLevel.delete(k);
    this.snapshot = null;
    this.changes++;
    return n;
  }

  /** Prunable paths held (what counts against the bound). */
  get prunableCount(): number {
    return this.entries.size;
  }

  /** Every field path held (fixed, seeded and seen), and null-only top-level columns. */
  get size(): number {
    return this.fields.length + this.nullTops.size;
  }

  /** A rough estimate of the heap the tree (and its shapes) takes, in bytes. */
  get approxBytes(): number {
    return this.bytes + this.shapes.bytes;
  }

  /** The tree as plain data (see SchemaImage). Not during a batch: call between ingests. */
  toImage(): SchemaImage {
    const ids = new Map<SchemaField, number>();
    const walk = (n: SchemaNode): void => {
      if (n.children === null) return;
      for (const c of n.children.values()) { if (c.field) ids.set(c.field, c.id); walk(c); }
    };
    walk(this.root);
    return {
      nextId: this.nextId,
      nextShape: this.shapes.next,
      firstPrunable: this.firstPrunable,
      fields: this.fields.map((f) => [fieldId(ids, f), [...f.path], f.type, f.mode]),
      nullTops: [...this.nullTops],
      topLevel: [...this.topLevel],
      shapes: this.shapes.toImage(),
    };
  }

  /** Replaces this tree's content with `img` (a tree made by the same constructor arguments, before any ingest). */
  loadImage(img: SchemaImage): void {
    this.root.children!.clear();
    this.fields = [];
    this.entries.clear();
    this.nullTops.clear();
    this.topLevel.clear();
    this.bytes = 0;
    this.snapshot = null;
    this.firstPrunable = img.firstPrunable;
    for (const [id, path, type, mode] of img.fields) {
      let parent = this.root;
      for (let i = 0; i < path.length - 1; i++) {
        const next = parent.children?.get(path[i]!);
        if (next === undefined) throw new Error(`schema image: the parent of ${path.join('.')} comes after it`);
        parent = next;
      }
      const key = path[path.length - 1]!;
      const node: SchemaNode = { field: { path, type, mode }, children: null, id, stamp: 0 };
      const map = parent.children ??= new Map();
      map.set(key, node);
      this.fields.push(node.field!);
      const bytes = entryBytes(path);
      this.bytes += bytes;
      if (id >= this.firstPrunable) this.entries.set(id, { map, key, node, bytes });
    }
    for (const [key, id] of img.nullTops) {
      const bytes = entryBytes([key]);
      this.nullTops.set(key, id);
      this.entries.set(id, { map: null, key, node: null, bytes });
      this.bytes += bytes;
    }
    for (const k of img.topLevel) this.topLevel.add(k);
    this.shapes.load(img.shapes, img.nextShape);
    this.nextId = img.nextId;
    this.changes++;
    this.shapeVersion++;
  }

  /** The top-level field named exactly `key` (constant time). */
  topField(key: string): SchemaField | undefined {
    return this.root.children!.get(key)?.field ?? undefined;
  }

  /** Every field seen, first-seen order; the array is shared until the schema changes (do not mutate). */
  list(): SchemaField[] {
    this.snapshot ??= this.fields.slice();
    return this.snapshot;
  }
}

/** A listed field's node id; a field missing from the tree would write an image that restores wrongly. */
function fieldId(ids: ReadonlyMap<SchemaField, number>, f: SchemaField): number {
  const id = ids.get(f);
  if (id === undefined) throw new Error(`internal: schema field ${f.path.join('.')} is listed but not in the tree`);
  return id;
}
