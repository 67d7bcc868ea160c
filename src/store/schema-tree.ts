// The schema a source has seen so far: a tree of field paths with BigQuery types (first-seen type
// wins), grown cheaply while events are serialised, with an undo log so a rejected batch leaves no trace.

import type { FieldType, SchemaField } from './types.ts';

export interface SchemaNode {
  readonly field: SchemaField | null;
  children: Map<string, SchemaNode> | null;
}

type Undo = { map: Map<string, SchemaNode>; key: string } | { top: string };

/** The BigQuery type and mode of a JSON value, or null when it tells nothing (null, empty array). */
function typeOf(v: unknown): [FieldType, 'NULLABLE' | 'REPEATED'] | null {
  switch (typeof v) {
    case 'string': return ['STRING', 'NULLABLE'];
    case 'number': return [Number.isInteger(v) ? 'INT64' : 'FLOAT64', 'NULLABLE'];
    case 'boolean': return ['BOOL', 'NULLABLE'];
    case 'object': {
      if (v === null) return null;
      if (!Array.isArray(v)) return ['RECORD', 'REPEATED'];
      for (const e of v) {
        if (e === null || e === undefined) continue;
        const t = typeOf(e);
        if (t === null) continue;
        return [Array.isArray(e) ? 'JSON' : t[0], 'REPEATED'];
      }
      return null;
    }
    default: return null;
  }
}

export class SchemaTree {
  readonly root: SchemaNode = { field: null, children: new Map() };
  /** Fields in first-seen order. */
  private readonly fields: SchemaField[] = [];
  /** Top-level column names (the fixed four, `project` where it is top level, every key seen). */
  readonly topLevel = new Set<string>();
  private undo: Undo[] | null = null;
  private fieldsMark = 0;
  private snapshot: SchemaField[] | null = null;

  constructor(topLevelProject: boolean) {
    this.define([], 'id', 'STRING', 'NULLABLE');
    this.define([], 'timestamp', 'TIMESTAMP', 'NULLABLE');
    this.define([], 'event_message', 'STRING', 'NULLABLE');
    this.define([], 'metadata', 'RECORD', 'REPEATED');
    for (const k of ['id', 'timestamp', 'event_message', 'metadata']) this.topLevel.add(k);
    if (topLevelProject) {
      this.define([], 'project', 'STRING', 'NULLABLE');
      this.topLevel.add('project');
    }
  }

  private define(parentPath: string[], key: string, type: FieldType, mode: 'NULLABLE' | 'REPEATED'): void {
    const field: SchemaField = { path: [...parentPath, key], type, mode };
    this.root.children!.set(key, { field, children: null });
    this.fields.push(field);
  }

  get metadataNode(): SchemaNode {
    return this.root.children!.get('metadata')!;
  }

  /** The child node for `key` holding `v`, created with v's type when new; null when v has no type yet. */
  child(parent: SchemaNode, key: string, v: unknown): SchemaNode | null {
    let map = parent.children;
    const hit = map?.get(key);
    if (hit !== undefined) return hit;
    const t = typeOf(v);
    if (t === null) return null;
    if (map === null) map = parent.children = new Map();
    const path = parent.field === null ? [key] : [...parent.field.path, key];
    const node: SchemaNode = { field: { path, type: t[0], mode: t[1] }, children: null };
    map.set(key, node);
    this.fields.push(node.field!);
    this.snapshot = null;
    this.undo?.push({ map, key });
    return node;
  }

  /** Notes a top-level key as a column. */
  noteTopLevel(key: string): void {
    if (this.topLevel.has(key)) return;
    this.topLevel.add(key);
    this.undo?.push({ top: key });
  }

  /** Starts recording changes so that rollback() can undo them. */
  begin(): void {
    this.undo = [];
    this.fieldsMark = this.fields.length;
  }

  commit(): void {
    this.undo = null;
  }

  rollback(): void {
    const undo = this.undo;
    this.undo = null;
    if (!undo) return;
    for (let i = undo.length - 1; i >= 0; i--) {
      const u = undo[i]!;
      if ('top' in u) this.topLevel.delete(u.top);
      else u.map.delete(u.key);
    }
    this.fields.length = this.fieldsMark;
    this.snapshot = null;
  }

  /** Every field seen, first-seen order; the array is shared until the schema changes (do not mutate). */
  list(): SchemaField[] {
    this.snapshot ??= this.fields.slice();
    return this.snapshot;
  }
}
