// A node of a source's schema tree (one field path and its children), the error a path past the
// field bound raises, and the rough heap bytes a path takes.

import type { SchemaField } from './types.ts';

export interface SchemaNode {
  readonly field: SchemaField | null;
  children: Map<string, SchemaNode> | null;
  /** Identity used by segments to say which paths their rows use. */
  readonly id: number;
  /** Event number that last touched this node (collects an event's paths once each, without a Set). */
  stamp: number;
}

/** Thrown from child()/noteTopLevel() when a new path would pass the bound; the batch is rejected. */
export class FieldLimitError extends Error {}
/**
 * Rough heap bytes of one path: node, field, path array, entries in two maps and the key string
 * (measured: ~590 bytes a path for 10,000 nested paths of ~40-character keys).
 */
export function entryBytes(path: readonly string[]): number {
  return 480 + 8 * path.length + path[path.length - 1]!.length;
}
