// A schema tree as plain data, for checkpoints (SchemaTree.toImage / loadImage).

import type { FieldType } from './types.ts';

/**
 * A schema tree as plain data, for checkpoints: every field with its node id (first-seen order), the
 * null-only top-level keys, the top-level columns, the shapes, and the id counters, so rows' shape ids
 * mean the same after a restore.
 */
export interface SchemaImage {
  nextId: number;
  nextShape: number;
  firstPrunable: number;
  fields: [id: number, path: string[], type: FieldType, mode: 'NULLABLE' | 'REPEATED'][];
  nullTops: [key: string, id: number][];
  topLevel: string[];
  shapes: [id: number, ids: number[]][];
}
