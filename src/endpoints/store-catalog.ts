// The planner's Catalog over the in-memory Store: source names, their top-level columns with
// static types (the fixed four plus every key seen), and scans.

import type { Catalog, SourceHandle } from '../plan/catalog.ts';
import type { SqlType } from '../core/types.ts';
import type { Store } from '../store/store.ts';
import type { SourceStore } from '../store/source-store.ts';
import type { SchemaField } from '../store/types.ts';

/** Fields by path and records' fields in order, built once per schema snapshot (a new snapshot when fields are added). */
interface SchemaIndex {
  byPath: Map<string, SchemaField>;
  children: Map<string, SchemaField[]>;
}
const SCHEMA_INDEX = new WeakMap<readonly SchemaField[], SchemaIndex>();
const pathKey = (path: readonly string[]): string => path.join('\u0000');

function schemaIndex(fields: readonly SchemaField[]): SchemaIndex {
  let ix = SCHEMA_INDEX.get(fields);
  if (ix === undefined) {
    ix = { byPath: new Map(), children: new Map() };
    for (const f of fields) {
      ix.byPath.set(pathKey(f.path), f);
      const parent = pathKey(f.path.slice(0, -1));
      const list = ix.children.get(parent);
      if (list) list.push(f);
      else ix.children.set(parent, [f]);
    }
    SCHEMA_INDEX.set(fields, ix);
  }
  return ix;
}

const FIXED: Record<string, SqlType> = { id: 'STRING', timestamp: 'TIMESTAMP', event_message: 'STRING', metadata: 'ARRAY' };

function handle(s: SourceStore): SourceHandle {
  return {
    def: s.def,
    columns: () => [...s.topLevelColumns()],
    columnType(name: string): SqlType {
      // Own keys only: a column named `constructor` or `toString` is not one of the fixed four.
      if (Object.hasOwn(FIXED, name)) return FIXED[name]!;
      if (name === 'project' && s.def.projectPath.length === 1) return 'STRING';
      const f = s.topLevelField(name);
      if (!f) return 'ANY';
      if (f.mode === 'REPEATED' || f.type === 'RECORD') return 'ARRAY';
      return f.type === 'JSON' ? 'ANY' : f.type;
    },
    schemaField: (path) => schemaIndex(s.schema()).byPath.get(pathKey(path)),
    schemaChildren: (path) => schemaIndex(s.schema()).children.get(pathKey(path)) ?? [],
    scan: (spec) => s.scan(spec),
    countRows: (spec) => s.countRows(spec),
    scanRuns: (spec) => s.scanRuns(spec),
    hotKeys: s.hotKeys,
    schemaStamp: () => s.schemaVersion(),
    hotDict: (key) => s.hotDict(key),
    lastSeq: () => s.lastSeq(),
    watermark: () => s.watermark(),
  };
}

export function catalogFromStore(store: Store): Catalog {
  const handles = new Map(store.sources().map((s) => [s.def.name, handle(s)]));
  return {
    source: (name) => handles.get(name),
    sourceNames: () => [...handles.keys()],
  };
}
